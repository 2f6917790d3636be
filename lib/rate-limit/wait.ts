import type { RateLimitDecision, RateLimiter } from './index';

/**
 * Taking from a limiter without answering at once: a request over its client's limit waits
 * (a timer, no CPU) until the client's window lets it through, for at most `maxWaitMs`. A
 * request whose turn is further away than that is refused — after waiting the whole
 * `maxWaitMs`, so a client that asks again at once cannot turn refusals into a busy loop. An
 * immediate refusal, however cheap, is what lets a flood take the CPU: 50 connections asking
 * for an instant 401 (800–1,600 a second) made `GET /` 2.2–38× slower here at p50, 11–25× at
 * p95 (`npm run bench:help -- --limit off --paths /debug`).
 * `maxWaitMs` 0 refuses at once, as the chat's limit does.
 */

export interface WaitedDecision extends RateLimitDecision {
  /** How long the request was held, ms. */
  waitedMs: number;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function takeOrWait(limiter: RateLimiter, key: string, maxWaitMs: number, sleep: (ms: number) => Promise<void> = delay): Promise<WaitedDecision> {
  let waitedMs = 0;
  for (;;) {
    const decision = await limiter.take(key);
    if (decision.allowed) return { ...decision, waitedMs };
    const left = maxWaitMs - waitedMs;
    if (decision.retryAfterMs > left) {
      if (left > 0) await sleep(left);
      const retryAfterMs = decision.retryAfterMs - left;
      return { ...decision, retryAfterMs, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)), waitedMs: maxWaitMs };
    }
    const turn = Math.max(1, decision.retryAfterMs);
    await sleep(turn);
    waitedMs += turn;
  }
}
