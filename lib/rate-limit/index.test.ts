import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freshDatabase } from '../testing/pg-database';
import { createPostgresPool, migratePostgres } from '../store/postgres';
import { createRateLimiter, rateWindows } from './index';

const allowed = async (limiter: ReturnType<typeof createRateLimiter>, key: string, times: number) => {
  const out: boolean[] = [];
  for (let i = 0; i < times; i++) out.push((await limiter.take(key)).allowed);
  return out;
};

describe('createRateLimiter, in memory', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date', 'setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('allows a burst, then refuses with Retry-After until the burst window ends', async () => {
    const limiter = createRateLimiter({ perMinute: 6, burst: 3 }); // burst window: 3 × 60 / 6 = 30 s
    expect(await allowed(limiter, 'ip-a', 3)).toEqual([true, true, true]);
    expect(await limiter.take('ip-a')).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 30, retryAfterMs: 30_000 });
    vi.advanceTimersByTime(29_000);
    expect((await limiter.take('ip-a')).allowed).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect((await limiter.take('ip-a')).allowed).toBe(true);
  });

  it('holds the sustained rate: at most perMinute in a minute, however the bursts fall', async () => {
    const limiter = createRateLimiter({ perMinute: 4, burst: 3 }); // burst window 45 s
    expect(await allowed(limiter, 'ip-a', 3)).toEqual([true, true, true]);
    vi.advanceTimersByTime(45_000); // the burst window is over, the minute is not
    expect((await limiter.take('ip-a')).allowed).toBe(true);
    expect(await limiter.take('ip-a')).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 15, retryAfterMs: 15_000 }); // the minute's window
  });

  it('keeps clients apart and reports what is left', async () => {
    const limiter = createRateLimiter({ perMinute: 20, burst: 10 });
    expect(await limiter.take('a')).toEqual({ allowed: true, remaining: 9, retryAfterSeconds: 0, retryAfterMs: 0 });
    expect((await limiter.take('b')).remaining).toBe(9);
  });

  it('is off when perMinute is 0', async () => {
    const limiter = createRateLimiter({ perMinute: 0, burst: 1 });
    expect(await allowed(limiter, 'a', 500)).not.toContain(false);
  });

  it('rejects nonsense settings', () => {
    expect(() => createRateLimiter({ perMinute: -1, burst: 1 })).toThrow(/perMinute/);
    expect(rateWindows(20, 10).map((w) => [w.points, w.duration])).toEqual([[10, 30], [20, 60]]);
  });
});

describe('createRateLimiter, shared in PostgreSQL', () => {
  it('limits a client as one bucket across limiters (instances) on one database', async () => {
    const url = await freshDatabase();
    const pools = [createPostgresPool(url, { max: 2 }), createPostgresPool(url, { max: 2 })];
    await migratePostgres(pools[0]!);
    const [a, b] = pools.map((pool) => createRateLimiter({ perMinute: 6, burst: 4, postgres: { pool, ready: () => Promise.resolve() } }));
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push((await a!.take('203.0.113.9')).allowed, (await b!.take('203.0.113.9')).allowed);
    expect(decisions).toEqual([true, true, true, true, false, false]);
    const refused = await b!.take('203.0.113.9');
    expect(refused.retryAfterSeconds).toBeGreaterThan(30);
    expect((await a!.take('203.0.113.10')).allowed).toBe(true); // another client
    await Promise.all(pools.map((p) => p.end()));
  });

  it('counts in memory when the database does not answer: per instance, not unlimited, and without waiting long', async () => {
    // A port nothing listens on: every query fails; the limiter falls back to its memory.
    const pool = createPostgresPool('postgres://app@127.0.0.1:1/none', { connectionTimeoutMillis: 5000 });
    const limiter = createRateLimiter({ perMinute: 6, burst: 2, postgres: { pool, ready: () => Promise.resolve() }, storeTimeoutMs: 300 });
    const started = performance.now();
    expect(await allowed(limiter, 'ip-a', 3)).toEqual([true, true, false]);
    expect(performance.now() - started).toBeLessThan(3 * 1000);
    await pool.end();
  });

  it('does not hang on a database that accepts connections but never answers', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => {}); // accepts, says nothing
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const pool = createPostgresPool(`postgres://app@127.0.0.1:${port}/none`, { connectionTimeoutMillis: 1500 });
    const limiter = createRateLimiter({ perMinute: 6, burst: 2, postgres: { pool, ready: () => Promise.resolve() }, storeTimeoutMs: 300 });
    const started = performance.now();
    const decision = await limiter.take('ip-a');
    expect(decision.allowed).toBe(true);
    expect(performance.now() - started).toBeLessThan(1500);
    silent.close();
    await pool.end().catch(() => {});
  });
});
