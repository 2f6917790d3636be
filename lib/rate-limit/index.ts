import type pg from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  RateLimiterUnion,
  RLWrapperTimeouts,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/**
 * Rate limiting for the public chat API, per client key (an address, or an IPv6 /64:
 * client.ts), with rate-limiter-flexible. Two limits, both must allow a request:
 *
 * - the burst: at most `burst` requests in any burst window of `burst × 60 / perMinute`
 *   seconds (10 in 30 s with the defaults) — what a client may send at once;
 * - the sustained rate: at most `perMinute` requests per minute.
 *
 * Each is counted in fixed windows that start with a client's first request, so right at a
 * window's edge a client can send up to twice a limit in quick succession; over any longer
 * stretch it gets `perMinute` a minute at most. A refusal says when the refusing window ends
 * (Retry-After).
 *
 * Where the counts live: this process's memory by default; PostgreSQL (`rate_limits`, one
 * row per client and window) when a pool is given, so every instance on the database counts
 * the same client in the same windows. If PostgreSQL does not answer within `storeTimeoutMs`,
 * that request is counted in this process's memory instead (rate-limiter-flexible's
 * insurance limiter): the limit degrades to per instance — never to no limit, and never to
 * refusing every customer — and the chat does not wait on a database that is gone.
 */

export interface RateLimitDecision {
  allowed: boolean;
  /** Whole requests left right now (the smaller of the two limits). */
  remaining: number;
  /** Seconds until the next request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
  /** The same in milliseconds, unrounded. */
  retryAfterMs: number;
}

export interface RateLimiter {
  take(key: string): Promise<RateLimitDecision>;
}

export interface RateLimitOptions {
  /** What is limited, the prefix of the limiter's keys (default `chat`). */
  name?: string;
  /** Sustained requests per minute per client; 0 disables the limit. */
  perMinute: number;
  /** Requests a client may make at once. */
  burst: number;
  /** Shared counts in this PostgreSQL database (table `rate_limits`, lib/store/postgres.ts); absent: in memory. */
  postgres?: { pool: pg.Pool; ready: () => Promise<unknown> };
  /** How long to wait for PostgreSQL before counting in memory, ms (default 500). */
  storeTimeoutMs?: number;
}

interface Window {
  keyPrefix: string;
  points: number;
  duration: number;
}

/** The two windows for a setting: the burst window and the minute. */
export function rateWindows(perMinute: number, burst: number, name = 'chat'): Window[] {
  return [
    { keyPrefix: `${name}-burst`, points: burst, duration: Math.max(1, Math.ceil((burst * 60) / perMinute)) },
    { keyPrefix: `${name}-minute`, points: perMinute, duration: 60 },
  ];
}

function windowLimiter(window: Window, options: Pick<RateLimitOptions, 'postgres' | 'storeTimeoutMs'>): RateLimiterAbstract {
  const memory = new RateLimiterMemory(window);
  if (!options.postgres) return memory;
  const shared = new RateLimiterPostgres({
    ...window,
    storeClient: options.postgres.pool,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    insuranceLimiter: new RateLimiterMemory(window),
  });
  return new RLWrapperTimeouts({ limiter: shared, timeoutMs: options.storeTimeoutMs ?? 500, insuranceLimiter: memory });
}

const UNLIMITED: RateLimiter = { take: async () => ({ allowed: true, remaining: Infinity, retryAfterSeconds: 0, retryAfterMs: 0 }) };

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const { perMinute, burst } = options;
  if (perMinute === 0) return UNLIMITED;
  if (!(perMinute > 0) || !(burst >= 1)) throw new Error(`rate limit needs perMinute ≥ 0 and burst ≥ 1 (got ${perMinute}, ${burst})`);
  return windowsLimiter(rateWindows(perMinute, burst, options.name), options);
}

/**
 * One fixed window instead of the burst and the minute: at most `points` per `durationSeconds`
 * per key (the hand-offs' per-visitor limit: so many an hour). 0 points: no limit.
 */
export function createWindowLimiter(options: Pick<RateLimitOptions, 'postgres' | 'storeTimeoutMs'> & { name: string; points: number; durationSeconds: number }): RateLimiter {
  if (options.points === 0) return UNLIMITED;
  return windowsLimiter([{ keyPrefix: options.name, points: options.points, duration: options.durationSeconds }], options);
}

function windowsLimiter(windows: Window[], options: Pick<RateLimitOptions, 'postgres' | 'storeTimeoutMs'>): RateLimiter {
  const union = new RateLimiterUnion(...windows.map((w) => windowLimiter(w, options)));
  return {
    async take(key) {
      await options.postgres?.ready().catch(() => {});
      try {
        const results = (await union.consume(key)) as Record<string, RateLimiterRes>;
        return { allowed: true, remaining: Math.min(...Object.values(results).map((r) => r.remainingPoints)), retryAfterSeconds: 0, retryAfterMs: 0 };
      } catch (refusal) {
        const results = Object.values(refusal as Record<string, RateLimiterRes | Error>);
        const waits = results.filter((r): r is RateLimiterRes => r instanceof RateLimiterRes).map((r) => r.msBeforeNext);
        // Only errors (no insurance could answer): let the request through rather than refuse everyone.
        if (waits.length === 0) return { allowed: true, remaining: 0, retryAfterSeconds: 0, retryAfterMs: 0 };
        const ms = Math.max(...waits);
        return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)), retryAfterMs: ms };
      }
    },
  };
}
