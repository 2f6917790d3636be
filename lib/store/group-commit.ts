import { setImmediate } from 'node:timers';
import type Database from 'better-sqlite3';

interface Queued<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * Group commit for SQLite writes: every write submitted during one pass of the event loop is
 * committed in one transaction. When one of them fails, the batch is rolled back and each write
 * is run again alone, so one write's failure fails that write alone. A caller's promise settles
 * once its write is committed (or not). (Not a savepoint per write: SQLite copies each page a
 * savepoint changes, which cost a turn's start 0.85 ms, more than the commit it saves.)
 *
 * Why: SQLite in WAL mode appends every page a transaction changed to the log at its commit.
 * A turn's start changes about a hundred pages of the inspector's index (turn_sections rows land
 * by section, not by turn), and turns under load change mostly the same ones: committed
 * together, each page is logged once per batch instead of once per turn. Alone, a write is
 * committed on the next pass of the loop (`setImmediate`), as before but for that wait. (From
 * node:timers: a commit is not a timer, and a test's fake clock, which replaces the global, must
 * not hold it.)
 */
export class GroupCommit<Item, Result> {
  private queue: Queued<Item, Result>[] = [];

  constructor(
    private readonly db: Database.Database,
    /** One write, run inside the batch's transaction. */
    private readonly write: (item: Item) => Result,
    /** Called once the batch is committed, for each write that was, before its promise settles. */
    private readonly committed: (item: Item, result: Result) => void = () => {},
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      if (this.queue.push({ item, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  /** Commits what is queued now (the store's close calls it, so nothing queued is lost). */
  flush(): void {
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    let results: Result[];
    try {
      results = this.db.transaction(() => batch.map(({ item }) => this.write(item)))();
    } catch (error) {
      // A write or the commit failed, and nothing of the batch is stored: each write is run
      // again in a transaction of its own, so only the one at fault fails. (Unless the rollback
      // failed too: then no write may go on inside what is left of the transaction.)
      if (!this.rolledBack()) {
        for (const queued of batch) queued.reject(error);
        return;
      }
      for (const queued of batch) this.settle(queued, () => this.db.transaction(() => this.write(queued.item))());
      return;
    }
    batch.forEach((queued, i) => this.settle(queued, () => results[i]!));
  }

  /** Whether the connection is out of the batch's transaction (better-sqlite3 rolls back a failed one; this makes sure). */
  private rolledBack(): boolean {
    if (!this.db.open) return true; // each write then fails on its own, with the reason
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      return true;
    } catch {
      return false;
    }
  }

  private settle(queued: Queued<Item, Result>, commit: () => Result): void {
    let result: Result;
    try {
      result = commit();
    } catch (error) {
      queued.reject(error);
      return;
    }
    this.committed(queued.item, result);
    queued.resolve(result);
  }
}
