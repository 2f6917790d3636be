/**
 * A throttle on failed admin credentials (wrong sign-in token, wrong Bearer/Basic token):
 * a token bucket per client address and one for the whole server. Each failure spends a
 * token; while a bucket is empty, every credential from that client (or, for the global
 * bucket, from anyone) is refused with 429 and Retry-After *before it is checked*, so
 * guessing runs at the refill rate at best. Successful sign-ins cost nothing, and a valid
 * session cookie is never throttled (its HMAC cannot be guessed).
 *
 * The server's limits (ADMIN_FAILURES_PER_MINUTE, ADMIN_FAILURES_GLOBAL_PER_MINUTE below): 5
 * failures in a burst per address, then 5 per minute; 30 per minute for the whole server, which
 * bounds a guesser with many addresses — at the price that such a flood also locks out the real
 * admin's *token* for a while (a signed-in session keeps working).
 */

/**
 * Failed admin credentials per minute per client address (also the burst). A person who mistypes
 * the token is not slowed by 5 a minute; a guesser gets 7,200 guesses a day, against an
 * ADMIN_TOKEN of at least 16 characters (lib/env.ts) — no deployment needs another figure.
 */
export const ADMIN_FAILURES_PER_MINUTE = 5;
/** Failed admin credentials per minute from all clients together (also the burst): 6 addresses' worth, the bound on a guesser with many. */
export const ADMIN_FAILURES_GLOBAL_PER_MINUTE = 30;

export interface ThrottleOptions {
  /** Failures per minute per client address (also the burst). */
  perClientPerMinute: number;
  /** Failures per minute across all clients (also the burst). */
  globalPerMinute: number;
  /** Client buckets kept at most; full buckets are dropped first. */
  maxClients?: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

const GLOBAL = '*';

export class FailureThrottle {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly options: ThrottleOptions) {
    if (!(options.perClientPerMinute >= 1) || !(options.globalPerMinute >= 1)) {
      throw new Error(`the admin throttle needs at least 1 failure per minute (got ${options.perClientPerMinute}, ${options.globalPerMinute})`);
    }
  }

  private size(key: string): number {
    return key === GLOBAL ? this.options.globalPerMinute : this.options.perClientPerMinute;
  }

  private bucket(key: string, now: number): Bucket {
    const size = this.size(key);
    const refillPerMs = size / 60_000;
    const bucket = this.buckets.get(key);
    if (!bucket) return { tokens: size, updatedAt: now };
    return { tokens: Math.min(size, bucket.tokens + (now - bucket.updatedAt) * refillPerMs), updatedAt: now };
  }

  /** Seconds the client must wait before its next credential is checked; 0 when it may try now. */
  retryAfter(client: string, now = Date.now()): number {
    let wait = 0;
    for (const key of [client, GLOBAL]) {
      const { tokens } = this.bucket(key, now);
      if (tokens < 1) wait = Math.max(wait, Math.ceil(((1 - tokens) * 60) / this.size(key)));
    }
    return wait;
  }

  /** Records a failed credential from `client`. */
  fail(client: string, now = Date.now()): void {
    if (this.buckets.size >= (this.options.maxClients ?? 50_000)) this.prune(now);
    for (const key of [client, GLOBAL]) {
      const bucket = this.bucket(key, now);
      bucket.tokens = Math.max(0, bucket.tokens - 1);
      this.buckets.set(key, bucket);
    }
  }

  private prune(now: number): void {
    for (const key of this.buckets.keys()) {
      if (key !== GLOBAL && this.bucket(key, now).tokens >= this.size(key)) this.buckets.delete(key);
    }
  }
}
