import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { storagePathProblem } from '../storage-path';
import type { Dialect } from './dialect';
import { GroupCommit } from './group-commit';
import { ftsQuery } from './inspector';
import type { TurnEnd, TurnStart } from './ports/turns';
import type { ServerStore } from './server-store';
import { SqlStore, type SqlRunner, type StartWritten } from './sql-store';
import { MIGRATIONS } from './sqlite-migrations';
import { runSteps, statement, type Result, type Statement, type Steps } from './steps';

/**
 * The store in SQLite (better-sqlite3, WAL): one file, one writer at a time. The SQL is shared
 * (sql-store.ts); what is SQLite's own is here: opening the file (private, migrated), running
 * statements synchronously, committing turn writes in groups (group-commit.ts), deleting with
 * foreign keys off, and checkpointing the WAL after a customer's data is deleted. The tables and
 * the migrations: docs/trace-storage.md, sqlite-migrations.ts.
 */

/**
 * Opens (creating if needed) a trace database and brings its schema up to date. The file
 * must be a regular file in a real, writable folder (storage-path.ts: a folder under /proc
 * would make the mkdir below spin for ever). It holds every customer question and reply, so
 * it is private to the server's user: created 0600 whatever the umask, and an existing one
 * (and its -wal / -shm files, which SQLite gives the database file's mode) tightened to 0600.
 */
export function openTraceDatabase(file: string): Database.Database {
  if (file !== ':memory:') {
    const problem = storagePathProblem(file, 'file');
    if (problem) throw new Error(`the trace database must ${problem}`);
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    createPrivate(file);
  }
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    // What is deleted is overwritten with zeros, not left in free space (a customer's data deleted on request, retention).
    db.pragma('secure_delete = ON');
    migrate(db);
    secureFullTextDelete(db);
    if (file !== ':memory:') for (const companion of ['-wal', '-shm']) keepPrivate(`${file}${companion}`);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

const PRIVATE = 0o600;

/** Creates `file` empty with mode 0600 (SQLite would create it 0644 less the umask); an existing one is kept private. */
function createPrivate(file: string): void {
  try {
    closeSync(openSync(file, 'wx', PRIVATE));
    chmodSync(file, PRIVATE); // the umask may have taken bits off: exactly 0600
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    keepPrivate(file);
  }
}

/** Takes group and other permissions off an existing file (a database created before this rule, or its -wal / -shm). */
function keepPrivate(file: string): void {
  try {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, PRIVATE);
  } catch (error) {
    // Gone (a -shm SQLite has not made), or not ours to change (EPERM): the database still opens.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}

/**
 * FTS5 keeps a deleted question's words in its index (marked deleted) until its segments are
 * merged; with its `secure-delete` option a delete removes them at once. A setting of the index,
 * kept in the database: set once (it costs a write, so not on every open). An index written
 * before keeps what was deleted earlier until FTS5 merges it.
 */
function secureFullTextDelete(db: Database.Database): void {
  const on = db.prepare("SELECT v FROM turns_question_fts_config WHERE k = 'secure-delete'").pluck().get();
  if (Number(on) !== 1) db.prepare("INSERT INTO turns_question_fts (turns_question_fts, rank) VALUES ('secure-delete', 1)").run();
}

function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    throw new Error(
      `trace database ${db.name} has schema version ${version}, newer than this app knows (${MIGRATIONS.length})`,
    );
  }
  for (let v = version; v < MIGRATIONS.length; v++) {
    const migration = MIGRATIONS[v]!;
    db.transaction(() => {
      if (typeof migration === 'string') db.exec(migration);
      else new SqliteRunner(db).runSync(migration(SQLITE_DIALECT));
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/** Times a WAL checkpoint is tried after a customer's data is deleted (each waits up to busy_timeout for readers). */
const CHECKPOINT_ATTEMPTS = 3;

/** FTS5 for the inspector's question filter, `?` placeholders, JSON arrays for lists, one INSERT per row; one writer, so nothing to lock. */
const SQLITE_DIALECT: Dialect = {
  placeholder: () => '?',
  questionMatch(text, param) {
    const fts = ftsQuery(text);
    return fts && `seq IN (SELECT rowid FROM turns_question_fts WHERE turns_question_fts MATCH ${param(fts)})`;
  },
  inList: (column, placeholder) => `${column} IN (SELECT value FROM json_each(${placeholder}))`,
  listParam: (values) => JSON.stringify(values),
  insertRows(table, columns, rows, conflict) {
    const sql = `INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})${conflict ? ` ${conflict}` : ''}`;
    return rows.map((row) => statement(sql, row));
  },
  skipLocked: '',
  /** One UPDATE … RETURNING: SQLite has one writer at a time, so no two claims see the same row. */
  claimDeliveries: (leaseUntil, now, limit) =>
    statement(
      `UPDATE handoff_deliveries SET attempts = attempts + 1, lease_until = ?
       WHERE (handoff_seq, channel) IN (
         SELECT handoff_seq, channel FROM handoff_deliveries
         WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
         ORDER BY next_attempt_at LIMIT ?)
       RETURNING handoff_seq, channel, attempts, retry_until`,
      [leaseUntil, now, now, limit],
    ),
};

/** Most statements the shared queries keep prepared; past it they are all dropped and prepared again as used. */
const PREPARED_LIMIT = 256;

/**
 * The shared SQL's statements (a fixed set of texts, filters and lists making a few variants
 * each), prepared once: preparing one on every call (a hand-off offer's conversation read on the
 * chat's way to its first byte) cost more than running it.
 */
function preparedStatements(db: Database.Database): (sql: string) => Database.Statement {
  const prepared = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = prepared.get(sql);
    if (!statement) {
      if (prepared.size >= PREPARED_LIMIT) prepared.clear();
      prepared.set(sql, (statement = db.prepare(sql)));
    }
    return statement;
  };
}

/** better-sqlite3 running the shared steps: synchronously (inside a group commit too), or wrapped in a promise. */
class SqliteRunner implements SqlRunner {
  private readonly prepared: (sql: string) => Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.prepared = preparedStatements(db);
  }

  private execute = (s: Statement): Result => {
    const prepared = this.prepared(s.sql);
    const params = s.params as unknown[];
    if (prepared.reader) {
      const rows = prepared.all(...params);
      return { rows, changes: rows.length };
    }
    return { rows: [], changes: prepared.run(...params).changes };
  };

  runSync<T>(steps: Steps<T>): T {
    return runSteps(steps, this.execute);
  }

  transactionSync<T>(steps: Steps<T>): T {
    return this.db.transaction(() => this.runSync(steps))();
  }

  async run<T>(steps: Steps<T>): Promise<T> {
    return this.runSync(steps);
  }

  async transaction<T>(steps: Steps<T>): Promise<T> {
    return this.transactionSync(steps);
  }
}

/** Customer turns deleted in one transaction at most (deleteCustomerTurns). */
const DELETE_BATCH = 500;

/** The whole store (every port: ServerStore) over one SQLite database. */
export class SqliteStore extends SqlStore implements ServerStore {
  readonly db: Database.Database;
  private readonly ownsDb: boolean;
  private readonly sqlite: SqliteRunner;
  /** Turn starts and endings, committed in groups (group-commit.ts): under load, a batch's turns share the index pages they change. */
  private readonly starts: GroupCommit<TurnStart, StartWritten>;
  private readonly endings: GroupCommit<{ id: string; end: TurnEnd }, boolean>;

  /**
   * From a file (opened, migrated, closed by `close()`), or from a handle opened with
   * openTraceDatabase and shared with others (left open by `close()`).
   */
  constructor(source: string | Database.Database) {
    const db = typeof source === 'string' ? openTraceDatabase(source) : source;
    const runner = new SqliteRunner(db);
    super(runner, SQLITE_DIALECT);
    this.ownsDb = typeof source === 'string';
    this.db = db;
    this.sqlite = runner;
    this.starts = new GroupCommit(db, (turn: TurnStart) => runner.runSync(this.startTurnSteps(turn)), (turn, written) => this.remember(turn, written));
    this.endings = new GroupCommit(db, ({ id, end }: { id: string; end: TurnEnd }) => runner.runSync(this.finishTurnSteps(id, end)));
  }

  override async startTurn(turn: TurnStart): Promise<void> {
    await this.starts.submit(turn);
  }

  override async finishTurn(id: string, end: TurnEnd): Promise<boolean> {
    return this.endings.submit({ id, end });
  }

  /**
   * With foreign keys off for the transaction (the statements delete every table keyed by
   * turn_seq themselves): with them on, SQLite would scan turn_sections once per deleted turn
   * for the cascade. better-sqlite3 is synchronous: nothing else runs on the connection while
   * they are off.
   */
  protected override async deleting<T>(steps: Steps<T>): Promise<T> {
    this.db.pragma('foreign_keys = OFF');
    try {
      return this.sqlite.transactionSync(steps);
    } finally {
      this.db.pragma('foreign_keys = ON');
    }
  }

  /** A few hundred turns per transaction: a writer waiting behind the deletion waits for one batch at most. */
  protected override async deleteTurnSeqs(seqs: number[]): Promise<void> {
    for (let i = 0; i < seqs.length; i += DELETE_BATCH) await this.deleting(this.deleteSeqsSteps(seqs.slice(i, i + DELETE_BATCH)));
  }

  /**
   * The deleted rows' bytes are zeroed in the pages that held them (`secure_delete`, set when
   * the database is opened), but the WAL still holds the pages as they were until a checkpoint
   * copies it into the database file: checkpointed here and truncated to nothing. A reader in
   * another connection (a server reading while the CLI deletes) can hold the checkpoint back:
   * it is tried for a few seconds (busy_timeout each time), then refused with a message.
   */
  async purgeDeleted(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
      if (!result || result.busy === 0) return;
      if (attempt === CHECKPOINT_ATTEMPTS) {
        throw new Error(
          `the data is deleted, but the database's write-ahead log (${this.db.name}-wal) still holds it: another connection kept it busy. Run the deletion again to retry.`,
        );
      }
    }
  }

  async ready(): Promise<void> {
    if (!this.db.open) throw new Error(`trace database ${this.db.name} is closed`);
  }

  async close(): Promise<void> {
    if (this.db.open) {
      this.starts.flush();
      this.endings.flush();
    }
    if (this.ownsDb && this.db.open) this.db.close();
  }
}
