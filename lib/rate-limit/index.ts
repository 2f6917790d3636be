/**
 * Rate limiting for the public chat API: a token bucket per client key.
 *
 * Each client may make `burst` requests at once, refilled at `perMinute` requests per
 * minute. The limiter is an interface so several app instances can share a store
 * (e.g. Redis) later; the default keeps buckets in this process's memory.
 */

export interface RateLimitDecision {
  allowed: boolean;
  /** Whole requests left right now. */
  remaining: number;
  /** Seconds until the next request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  take(key: string, now?: number): RateLimitDecision;
}

export interface RateLimitOptions {
  /** Sustained requests per minute per client; 0 disables the limit. */
  perMinute: number;
  /** Requests a client may make in a burst (bucket size). */
  burst: number;
  /** Buckets kept at most; full (idle) buckets are dropped first, then the fullest. */
  maxKeys?: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export function createMemoryRateLimiter({ perMinute, burst, maxKeys = 50_000 }: RateLimitOptions): RateLimiter {
  if (perMinute === 0) return { take: () => ({ allowed: true, remaining: Infinity, retryAfterSeconds: 0 }) };
  if (!(perMinute > 0) || !(burst >= 1)) throw new Error(`rate limit needs perMinute ≥ 0 and burst ≥ 1 (got ${perMinute}, ${burst})`);
  const refillPerMs = perMinute / 60_000;
  const buckets = new Map<string, Bucket>();

  function prune(now: number): void {
    for (const [key, bucket] of buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * refillPerMs >= burst) buckets.delete(key);
    }
    if (buckets.size < maxKeys) return;
    // Still too many active clients: forget the ones with the most tokens left first, so a
    // flood of new keys cannot reset the bucket of a client that is being limited.
    const byTokensLeft = [...buckets].sort((a, b) => b[1].tokens - a[1].tokens);
    for (const [key] of byTokensLeft.slice(0, buckets.size - maxKeys + 1)) buckets.delete(key);
  }

  return {
    take(key, now = Date.now()) {
      let bucket = buckets.get(key);
      if (!bucket) {
        if (buckets.size >= maxKeys) prune(now);
        bucket = { tokens: burst, updatedAt: now };
        buckets.set(key, bucket);
      } else {
        bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.updatedAt) * refillPerMs);
        bucket.updatedAt = now;
      }
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true, remaining: Math.floor(bucket.tokens), retryAfterSeconds: 0 };
      }
      return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000)) };
    },
  };
}
