/**
 * The store's work written once for both databases: a unit of work is a generator that yields
 * its statements one at a time and is given each one's result back. SQLite runs it synchronously
 * (better-sqlite3; a turn's writes inside a group commit: group-commit.ts), PostgreSQL with
 * `await` on a pool or a transaction's client; what each statement says is the same.
 */

/** One statement, with its parameters in placeholder order (the dialect's `?` or `$n`: dialect.ts). */
export interface Statement {
  sql: string;
  params: readonly unknown[];
}

/** What a statement gave back: its rows (a RETURNING clause's too), and how many rows it changed. */
export interface Result {
  rows: unknown[];
  changes: number;
}

export type Steps<T> = Generator<Statement, T, Result>;

export function statement(sql: string, params: readonly unknown[] = []): Statement {
  return { sql, params };
}

/** Runs a statement; its rows, typed as the caller reads them. */
export function* rowsOf<Row>(s: Statement): Steps<Row[]> {
  return (yield s).rows as Row[];
}

/** Runs a statement; how many rows it changed. */
export function* changesOf(s: Statement): Steps<number> {
  return (yield s).changes;
}

/** Runs a unit of work on a synchronous connection; a statement's error is thrown into it (its `finally` runs). */
export function runSteps<T>(steps: Steps<T>, execute: (s: Statement) => Result): T {
  let next = steps.next();
  while (!next.done) {
    let result: Result;
    try {
      result = execute(next.value);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(result);
  }
  return next.value;
}

/** The same on an asynchronous connection. */
export async function runStepsAsync<T>(steps: Steps<T>, execute: (s: Statement) => Promise<Result>): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let result: Result;
    try {
      result = await execute(next.value);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(result);
  }
  return next.value;
}
