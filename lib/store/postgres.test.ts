import { describe, expect, it } from 'vitest';
import { freshDatabase } from '../testing/pg-database';
import { startPostgres } from '../testing/postgres';
import { testTurnStart } from '../testing/turns';
import { createPostgresPool, migratePostgres, Migrations, PostgresStore } from './postgres';
import { POSTGRES_MIGRATIONS } from './postgres-migrations';

// What only the PostgreSQL store has; its behaviour as a trace store is in store-contract.test.ts.
describe('PostgreSQL store', () => {
  it('migrates once when several instances start at once (advisory lock), and records the version', async () => {
    const url = await freshDatabase();
    const pools = Array.from({ length: 4 }, () => createPostgresPool(url, { max: 2 }));
    await Promise.all(pools.map((pool) => migratePostgres(pool)));
    const { rows } = await pools[0]!.query('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(POSTGRES_MIGRATIONS.map((_, i) => i + 1));
    await Promise.all(pools.map((pool) => pool.end()));
  });

  it('refuses a database from a newer version of the app, through every call', async () => {
    const url = await freshDatabase();
    const pool = createPostgresPool(url);
    await migratePostgres(pool);
    await pool.query('INSERT INTO schema_migrations (version) VALUES ($1)', [POSTGRES_MIGRATIONS.length + 1]);
    const store = new PostgresStore(pool);
    await expect(store.ready()).rejects.toThrow(/newer than this app knows/);
    await expect(store.countTurns()).rejects.toThrow(/newer than this app knows/);
    await store.close();
  });

  it('answers the question filter from the GIN index on the question', async () => {
    const url = await freshDatabase();
    const store = new PostgresStore(createPostgresPool(url));
    await store.ready();
    const client = await store.pool.connect();
    await client.query('SET enable_seqscan = off'); // an empty table: make the planner show its index path
    const { rows } = await client.query("EXPLAIN SELECT id FROM turns WHERE question_tsv @@ to_tsquery('english', 'refund:*')");
    client.release();
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('turns_question_tsv');
    await store.close();
  });

  it('the pending-turn sweep skips a turn another instance is finishing at that moment, instead of waiting for it', async () => {
    const store = new PostgresStore(createPostgresPool(await freshDatabase()));
    const start = testTurnStart('can I get a refund?', { createdAt: '2026-01-01T10:00:00.000Z' });
    await store.startTurn(start);
    const other = await store.pool.connect(); // the other instance's finishTurn, not yet committed
    await other.query('BEGIN');
    await other.query("UPDATE turns SET status = 'ok', reply = 'Refunds are reviewed.' WHERE id = $1 AND status = 'pending'", [start.id]);
    expect(await store.closePendingTurnsBefore('2026-01-01T11:00:00.000Z', 'swept', 10)).toBe(0);
    await other.query('COMMIT');
    other.release();
    expect(await store.getTurn(start.id)).toMatchObject({ status: 'ok', reply: 'Refunds are reviewed.' });
    await store.close();
  });

  it('reports an unreachable database as not ready, within the connection timeout', async () => {
    const store = new PostgresStore(createPostgresPool('postgres://app@127.0.0.1:1/none', { connectionTimeoutMillis: 500 }));
    await expect(store.ready()).rejects.toThrow(/ECONNREFUSED|connect/);
    await store.close();
  });

  it('started while PostgreSQL is down, recovers once it is up, without a restart', async () => {
    const cluster = await startPostgres();
    try {
      await cluster.stopServer();
      const store = new PostgresStore(createPostgresPool(cluster.url, { connectionTimeoutMillis: 500 }));
      await expect(store.ready()).rejects.toThrow(/ECONNREFUSED|connect/);
      await expect(store.countTurns()).rejects.toThrow(/ECONNREFUSED|connect/);
      await cluster.startServer();
      await expect.poll(() => store.ready().then(() => 'ready', (error: Error) => error.message), { timeout: 10_000, interval: 250 }).toBe('ready');
      expect(await store.countTurns()).toBe(0);
      await store.close();
    } finally {
      await cluster.stop();
    }
  });
});

describe('Migrations', () => {
  it('runs once for every caller, and runs again after a failure once retryAfterMs has passed', async () => {
    let now = 0;
    let runs = 0;
    const migrations = new Migrations(async () => {
      runs++;
      if (runs === 1) throw new Error('ECONNREFUSED');
    }, 2000, () => now);
    await expect(migrations.current()).rejects.toThrow('ECONNREFUSED');
    now = 1999;
    await expect(migrations.current()).rejects.toThrow('ECONNREFUSED');
    expect(runs).toBe(1);
    now = 2000;
    await expect(Promise.all([migrations.current(), migrations.current()])).resolves.toEqual([undefined, undefined]);
    expect(runs).toBe(2);
    now = 10_000;
    await migrations.current();
    expect(runs).toBe(2);
  });
});
