import type { Statement, Steps } from './steps';

/**
 * Where the stores' SQL differs only in syntax or in how the database locks: the shared SQL
 * (sql-store.ts, inspector.ts, access-sql.ts, handoff-sql.ts, loop-sql.ts) asks its store's
 * dialect (sqlite.ts, postgres.ts) for these pieces and writes everything else once.
 */
export interface Dialect {
  /** The placeholder of the n-th parameter (1-based): `?` or `$n`. Statements use each parameter once, in text order, so both work. */
  placeholder(n: number): string;
  /** A condition on `turns` for "the question mentions these words", with the engine's query text as its parameter; undefined if nothing to search. */
  questionMatch(text: string, param: (value: unknown) => string): string | undefined;
  /** `column` is one of a list given as one parameter at `placeholder` (listParam): json_each over JSON text, or `= ANY` of an array. */
  inList(column: string, placeholder: string, type: SqlType): string;
  /** The value of an inList parameter. */
  listParam(values: readonly unknown[]): unknown;
  /** Inserts rows: a statement per row (SQLite: one prepared statement, run again) or one for all (PostgreSQL: unnest of an array per column). Nothing for no rows. */
  insertRows(table: string, columns: readonly Column[], rows: readonly (readonly unknown[])[], conflict?: string): Statement[];
  /** Ends a subquery that picks rows to change: rows another transaction holds are skipped, not waited for (PostgreSQL); nothing in SQLite (one writer at a time). */
  skipLocked: string;
  /** Taken first in a retention batch's transaction; its one row's `locked` is false when another instance is deleting (PostgreSQL's advisory lock). */
  retentionLock?: Statement;
  /** Claims up to `limit` due deliveries (HandoffStore.claimDeliveries), returning ClaimRow's columns. */
  claimDeliveries(leaseUntil: string, now: string, limit: number): Statement;
}

/** A column's type, as an array of it is cast in PostgreSQL. */
export type SqlType = 'text' | 'int' | 'smallint' | 'bigint' | 'float8';

export interface Column {
  name: string;
  type: SqlType;
}

/** `(name, type)` pairs as Columns. */
export function columns(...pairs: [name: string, type: SqlType][]): Column[] {
  return pairs.map(([name, type]) => ({ name, type }));
}

/** A schema migration: SQL run as one script, or steps written once for both stores (a rewrite of rows: one-form.ts). */
export type Migration = string | ((dialect: Dialect) => Steps<void>);
