import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRateLimiter } from './index';
import { takeOrWait } from './wait';

describe('takeOrWait', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** takeOrWait with the fake clock run until it settles; resolves to the decision. */
  async function settle(promise: Promise<unknown>) {
    let done = false;
    void promise.finally(() => (done = true));
    while (!done) await vi.advanceTimersByTimeAsync(100);
    return promise;
  }

  it('lets a request under the limit through at once', async () => {
    const limiter = createRateLimiter({ perMinute: 6, burst: 2 });
    expect(await takeOrWait(limiter, 'a', 5000)).toMatchObject({ allowed: true, waitedMs: 0 });
  });

  it('holds a request over the limit until its turn when that is within the wait', async () => {
    const limiter = createRateLimiter({ perMinute: 60, burst: 2 }); // burst window: 2 s
    await takeOrWait(limiter, 'a', 5000);
    await takeOrWait(limiter, 'a', 5000);
    const started = Date.now();
    expect(await settle(takeOrWait(limiter, 'a', 5000))).toMatchObject({ allowed: true, waitedMs: 2000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect((await limiter.take('b')).allowed).toBe(true); // another client was never held
  });

  it('refuses a request whose turn is further than the wait, after the whole wait, with the rest as Retry-After', async () => {
    const limiter = createRateLimiter({ perMinute: 6, burst: 2 }); // burst window: 20 s
    await takeOrWait(limiter, 'a', 5000);
    await takeOrWait(limiter, 'a', 5000);
    const started = Date.now();
    expect(await settle(takeOrWait(limiter, 'a', 5000))).toMatchObject({ allowed: false, waitedMs: 5000, retryAfterMs: 15_000, retryAfterSeconds: 15 });
    expect(Date.now() - started).toBe(5000);
  });

  it('refuses at once when the wait is 0', async () => {
    const limiter = createRateLimiter({ perMinute: 60, burst: 1 });
    await takeOrWait(limiter, 'a', 0);
    expect(await takeOrWait(limiter, 'a', 0)).toMatchObject({ allowed: false, waitedMs: 0, retryAfterSeconds: 1 });
  });
});
