import pg from 'pg';
import type { Dialect } from './dialect';
import { tsQuery } from './inspector';
import { POSTGRES_MIGRATIONS } from './postgres-migrations';
import type { ServerStore } from './server-store';
import { SqlStore, type SqlRunner } from './sql-store';
import { runStepsAsync, statement, type Result, type Statement, type Steps } from './steps';

/**
 * The store in PostgreSQL (node-postgres, one pool per process), for several app instances
 * behind one database. The SQL is shared (sql-store.ts); what is PostgreSQL's own is here: the
 * pool and its result types, the migrations under an advisory lock (postgres-migrations.ts),
 * transactions on one client, the locks that let instances work side by side (SKIP LOCKED
 * claims and sweeps, retention one instance at a time), and VACUUM after a customer's data is
 * deleted.
 */

/** The tables whose rows hold what customers wrote (their questions, votes, hand-offs), vacuumed after a customer's data is deleted. */
const CUSTOMER_TEXT_TABLES = ['turns', 'turn_feedback', 'handoffs', 'handoff_attempts'];
/** How long that VACUUM may take: it reads the tables' pages that changed and their indexes. */
const VACUUM_TIMEOUT_MS = 10 * 60_000;

/** Advisory lock keys (any two 32-bit numbers; these spell "trst" and a purpose). */
const MIGRATION_LOCK = [0x74727374, 1];
const RETENTION_LOCK = [0x74727374, 2];

const parseTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);

/**
 * Result types as the stores share them: bigint (identity keys, counts, sums) as numbers —
 * none comes near 2^53 — and timestamptz as an ISO 8601 string, as it was written.
 */
const TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    if (oid === pg.types.builtins.NUMERIC) return (value: string) => Number(value);
    if (oid === pg.types.builtins.TIMESTAMPTZ) return (value: string) => (parseTimestamptz(value) as Date).toISOString();
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as unknown as pg.CustomTypesConfig;

/** A DATABASE_URL as logs and /debug may show it: host, port and database, never the user or password. */
export function databaseLabel(url: string): string {
  const { hostname, port, pathname } = new URL(url);
  return `${hostname}:${port || 5432}${pathname}`;
}

export interface PostgresOptions {
  /** Connections this process keeps at most (default 10). */
  max?: number;
  /** How long to wait for a connection before a query fails, ms (default 2000): the chat must not hang on a database that is gone. */
  connectionTimeoutMillis?: number;
  /** How long one query may take before it fails, ms (default 5000). */
  queryTimeoutMillis?: number;
}

/** A pool for DATABASE_URL. Connections are made when first used; errors of idle ones are logged, not thrown. */
export function createPostgresPool(url: string, options: PostgresOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 2000,
    query_timeout: options.queryTimeoutMillis ?? 5000,
    idleTimeoutMillis: 30_000,
    application_name: 'trusty-support-chat',
    options: '-c TimeZone=UTC',
    types: TYPES,
  });
  pool.on('error', (error) => console.error(`[postgres] idle connection failed: ${error.message}`));
  return pool;
}

/** Brings the schema up to date, one instance at a time (advisory lock). */
export async function migratePostgres(pool: pg.Pool, migrations = POSTGRES_MIGRATIONS): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', MIGRATION_LOCK);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      const { rows } = await client.query<{ version: number }>('SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations');
      const version = rows[0]!.version;
      if (version > migrations.length) {
        throw new Error(`the database has schema version ${version}, newer than this app knows (${migrations.length})`);
      }
      for (let v = version; v < migrations.length; v++) {
        const migration = migrations[v]!;
        await transaction(client, async () => {
          if (typeof migration === 'string') await client.query(migration);
          else await runStepsAsync(migration(PG_DIALECT), (s) => execute(client, s));
          await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [v + 1]);
        });
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', MIGRATION_LOCK);
    }
  } finally {
    client.release();
  }
}

async function transaction<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * Claims due deliveries for one instance: the rows are locked as they are picked, and rows
 * another instance's claim holds are skipped, not waited for, so two instances never claim the
 * same delivery ($1 lease until, $2 now, $3 limit).
 */
const CLAIM_DELIVERIES = `
  WITH due AS (
    SELECT handoff_seq, channel FROM handoff_deliveries
    WHERE status = 'pending' AND next_attempt_at <= $2 AND (lease_until IS NULL OR lease_until <= $2)
    ORDER BY next_attempt_at LIMIT $3
    FOR UPDATE SKIP LOCKED)
  UPDATE handoff_deliveries d SET attempts = d.attempts + 1, lease_until = $1
  FROM due WHERE d.handoff_seq = due.handoff_seq AND d.channel = due.channel
  RETURNING d.handoff_seq, d.channel, d.attempts, d.retry_until`;
/** A PostgreSQL tsquery over the GIN-indexed tsvector, `$n` placeholders, arrays for lists (unnest to insert), and row locks. */
const PG_DIALECT: Dialect = {
  placeholder: (n) => `$${n}`,
  questionMatch(text, param) {
    const query = tsQuery(text);
    return query && `question_tsv @@ to_tsquery('english', ${param(query)})`;
  },
  inList: (column, placeholder, type) => `${column} = ANY(${placeholder}::${type}[])`,
  listParam: (values) => [...values],
  insertRows(table, columns, rows, conflict) {
    if (rows.length === 0) return [];
    const arrays = columns.map((_, c) => rows.map((row) => row[c]));
    const unnest = columns.map((column, i) => `$${i + 1}::${column.type}[]`).join(', ');
    return [statement(`INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')}) SELECT * FROM unnest(${unnest})${conflict ? ` ${conflict}` : ''}`, arrays)];
  },
  skipLocked: ' FOR UPDATE SKIP LOCKED',
  retentionLock: statement('SELECT pg_try_advisory_xact_lock($1, $2) AS locked', RETENTION_LOCK),
  claimDeliveries: (leaseUntil, now, limit) => statement(CLAIM_DELIVERIES, [leaseUntil, now, limit]),
};

async function execute(on: pg.Pool | pg.PoolClient, s: Statement): Promise<Result> {
  const result = await on.query(s.sql, s.params as unknown[]);
  return { rows: result.rows, changes: result.rowCount ?? 0 };
}

/** node-postgres running the shared steps: on the pool, or on one client in a transaction; after the migrations, always. */
class PostgresRunner implements SqlRunner {
  constructor(
    private readonly pool: pg.Pool,
    private readonly migrated: () => Promise<void>,
  ) {}

  async run<T>(steps: Steps<T>): Promise<T> {
    await this.migrated();
    return runStepsAsync(steps, (s) => execute(this.pool, s));
  }

  async transaction<T>(steps: Steps<T>): Promise<T> {
    await this.migrated();
    const client = await this.pool.connect();
    try {
      return await transaction(client, () => runStepsAsync(steps, (s) => execute(client, s)));
    } finally {
      client.release();
    }
  }
}

/**
 * The migrations of one store: run once, shared by every call that waits for them. A run that
 * failed (PostgreSQL down at start, or a blip) is tried again by the first call at least
 * `retryAfterMs` after it failed, so a server started before its database recovers without a
 * restart; calls in between get the failure at once instead of piling up connections.
 */
export class Migrations {
  private run: Promise<void> | undefined;
  private failedAt: number | undefined;

  constructor(
    private readonly migrate: () => Promise<void>,
    private readonly retryAfterMs = 2000,
    private readonly now: () => number = Date.now,
  ) {}

  current(): Promise<void> {
    if (!this.run || (this.failedAt !== undefined && this.now() - this.failedAt >= this.retryAfterMs)) {
      this.failedAt = undefined;
      const run = this.migrate();
      this.run = run;
      // A failed run is reported by the calls that wait for it, not as an unhandled rejection.
      run.catch(() => {
        if (this.run === run) this.failedAt = this.now();
      });
    }
    return this.run;
  }
}

/** The whole store (every port: ServerStore) over one PostgreSQL database. */
export class PostgresStore extends SqlStore implements ServerStore {
  private readonly migrations: Migrations;

  /** `migrate`: brings the schema up to date; every call waits for it, and a failed run is tried again (Migrations). */
  constructor(
    readonly pool: pg.Pool,
    migrate: () => Promise<void> = () => migratePostgres(pool),
  ) {
    // Every read and write waits for the migrations.
    super(new PostgresRunner(pool, () => this.migrated), PG_DIALECT);
    this.migrations = new Migrations(migrate);
  }

  /** Resolves once the schema is up to date: the current run of the migrations, or a new one when the last failed. */
  get migrated(): Promise<void> {
    return this.migrations.current();
  }

  /** Resolves when the schema is up to date and the database answers. */
  async ready(): Promise<void> {
    await this.migrated;
    await this.pool.query('SELECT 1');
  }

  /**
   * A deleted row stays in its table's file (a dead tuple) until VACUUM removes it: the tables
   * that hold customer text are vacuumed now (plain VACUUM: reads and writes go on meanwhile).
   * What it does not reach: a transaction older than the deletion that is still open keeps the
   * rows it can see; the full-text index keeps the question's words as keys (without their
   * rows) until it is rebuilt; the WAL and backups keep them for their own retention.
   */
  async purgeDeleted(): Promise<void> {
    await this.migrated;
    // node-postgres reads a query's own query_timeout (its types do not list it).
    const vacuum: pg.QueryConfig & { query_timeout: number } = { text: `VACUUM ${CUSTOMER_TEXT_TABLES.join(', ')}`, query_timeout: VACUUM_TIMEOUT_MS };
    await this.pool.query(vacuum);
  }

  /** Ends the pool. */
  async close(): Promise<void> {
    await this.migrated.catch(() => {});
    await this.pool.end();
  }
}
