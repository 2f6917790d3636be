import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from './index';

describe('createMemoryRateLimiter', () => {
  it('allows a burst, then refuses with Retry-After until the bucket refills', () => {
    const limiter = createMemoryRateLimiter({ perMinute: 6, burst: 3 }); // one request per 10 s
    const t0 = 1_000_000;
    expect([1, 2, 3].map(() => limiter.take('ip-a', t0).allowed)).toEqual([true, true, true]);
    const refused = limiter.take('ip-a', t0);
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 10 });
    expect(limiter.take('ip-a', t0 + 9_000).allowed).toBe(false);
    expect(limiter.take('ip-a', t0 + 10_000).allowed).toBe(true);
  });

  it('keeps clients apart', () => {
    const limiter = createMemoryRateLimiter({ perMinute: 1, burst: 1 });
    expect(limiter.take('a', 0).allowed).toBe(true);
    expect(limiter.take('a', 0).allowed).toBe(false);
    expect(limiter.take('b', 0).allowed).toBe(true);
  });

  it('is off when perMinute is 0', () => {
    const limiter = createMemoryRateLimiter({ perMinute: 0, burst: 1 });
    for (let i = 0; i < 1000; i++) expect(limiter.take('a').allowed).toBe(true);
  });

  it('bounds its memory, dropping idle buckets first', () => {
    const limiter = createMemoryRateLimiter({ perMinute: 60, burst: 2, maxKeys: 10 });
    limiter.take('busy', 60_000);
    limiter.take('busy', 60_000); // now empty: pruning must not forget it (that would reset its limit)
    for (let i = 0; i < 100; i++) limiter.take(`idle-${i}`, 60_000 + i);
    expect(limiter.take('busy', 60_000 + 100).allowed).toBe(false);
  });

  it('rejects nonsense settings', () => {
    expect(() => createMemoryRateLimiter({ perMinute: -1, burst: 1 })).toThrow(/perMinute/);
  });
});
