/** A store's SQL query function: the rows one statement returns, with its parameters (each adapter gives its own to the shared SQL). */
export type Query = <Row>(sql: string, params: unknown[]) => Promise<Row[]>;
