/**
 * The wait before the next delivery attempt: exponential backoff from 1 s, doubling per failed
 * attempt up to `maxMs`, with "equal jitter" (half the step fixed, half random), so deliveries
 * that failed together (a receiver that was down) do not all come back at the same moment.
 */
export const FIRST_RETRY_MS = 1000;

export function retryDelayMs(failedAttempts: number, maxMs: number, random: () => number = Math.random): number {
  const step = Math.min(maxMs, FIRST_RETRY_MS * 2 ** Math.max(0, failedAttempts - 1));
  return Math.round(step / 2 + random() * (step / 2));
}
