/**
 * Where a long-lived part of the server (the KB holder, the section embedder, the KB tests'
 * watch, the reload impact, the hand-off worker) writes what it did: the console in the
 * server, a recording in tests (lib/testing/knowledge-log.ts).
 */
export interface Log {
  info(message: string): void;
  error(message: string): void;
}

/** The server's log: `info` to stdout, `error` to stderr. */
export const consoleLog: Log = { info: (m) => console.info(m), error: (m) => console.error(m) };
