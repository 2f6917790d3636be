import { FINISH_RETRY_WINDOW_MS } from '../env';
import type { TurnStartWrite } from './start';
import type { TurnStore, TurnEnd } from './ports/turns';
import { describeEnd, gaveUpReason, storeErrorText } from './unrecorded';

/**
 * Writing a turn's ending through a database blip: `finishTurn`, retried.
 *
 * - A turn whose start row is written after its reply started (start.ts) passes that write in:
 *   each attempt writes the start first, unless it is written, so the ending never comes before
 *   the row, and a turn whose start failed is written whole (start, then ending) by a retry.
 * - The first attempt is made at once, and `first` resolves with it: what the customer's reply
 *   stream waits for (lib/chat/recorder.ts), so a reply the customer read to its end is normally
 *   stored before their stream closes. The wait is bounded by the store's own limits
 *   (PostgreSQL: 2 s to connect, 5 s per query; SQLite: a 5 s busy timeout).
 * - When it fails, the customer's stream ends anyway (they have the whole reply; a vote on it
 *   answers 409 until the ending is written) and the ending is retried in the background with
 *   exponential backoff and jitter (250 ms, doubling, at most 5 s apart) for up to 60 s from
 *   the first attempt.
 * - If it still cannot be written, one last attempt marks the turn `error` with the reason,
 *   without the reply and usage (they may be what the database refuses), so a failed write
 *   never leaves a turn pending. If even that fails it is logged, and the pending-turn sweep
 *   (stale.ts) closes the turn later.
 * - Until written, the ending exists only in this process: one that exits meanwhile logs each
 *   ending it loses (a SIGKILL cannot; the sweep closes those turns too).
 */

export interface FinishRetryOptions {
  /** How long the ending is retried, from the first attempt, ms. */
  windowMs?: number;
  /** The pause before the first retry, ms; it doubles for each next one. */
  firstDelayMs?: number;
  /** Longest pause between two attempts, ms. */
  maxDelayMs?: number;
  /** Jitter, 0–1: each pause is `delay × (0.5 + random() / 2)`. */
  random?: () => number;
}

/** How it settled. */
export type FinishOutcome =
  /** The ending is stored as given. */
  | 'recorded'
  /** The store has no pending turn with that id (unknown, or ended already): nothing changed. */
  | 'refused'
  /** The ending could not be written within the window; the turn is `error` with the reason. */
  | 'marked-error'
  /** Nothing could be written: the turn is still pending (logged; the sweep closes it), or, when its start could not be written either, not in the store at all (logged, counted: `lostTurns`). */
  | 'unrecorded';

export interface PendingFinish {
  /** The first attempt: its outcome, or 'retrying' when it failed. */
  first: Promise<FinishOutcome | 'retrying'>;
  /** The end of it all, after the retries if any. Never rejects. */
  settled: Promise<FinishOutcome>;
}


type Attempt = boolean | { error: unknown };

async function attempt(store: TurnStore, id: string, end: TurnEnd, start: TurnStartWrite | undefined): Promise<Attempt> {
  try {
    await start?.write();
    return await store.finishTurn(id, end);
  } catch (error) {
    return { error };
  }
}

/** Turns this process could not write at all (start and ending) within the retry window. */
const lost: { count: number; last?: { turnId: string; reason: string; at: string } } = { count: 0 };

/** How many turns this process could not record at all since it started, and the last one (/debug health shows them). */
export function lostTurns(): Readonly<typeof lost> {
  return lost;
}

/** Endings being retried (turn id → what ending, and the turn's start write), logged if the process exits before they are written. */
let endings: Map<string, { what: string; start?: TurnStartWrite }> | undefined;

function unsettled(): Map<string, { what: string; start?: TurnStartWrite }> {
  if (!endings) {
    const retrying = (endings = new Map());
    process.once('exit', () => {
      for (const [id, { what, start }] of retrying) {
        console.error(
          start && !start.written
            ? `[traces] THE PROCESS IS EXITING BEFORE TURN ${id} (${what}) COULD BE WRITTEN: neither its start nor its ending is in the store; the turn is lost`
            : `[traces] THE PROCESS IS EXITING BEFORE THE ENDING OF TURN ${id} (${what}) COULD BE WRITTEN: it is lost; the pending-turn sweep will mark the turn error`,
        );
      }
    });
  }
  return endings;
}

/** The turn ids whose endings this process is still retrying. */
export function unsettledEndings(): string[] {
  return [...unsettled().keys()];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Writes `end` for turn `id` (after its `start`, when that is still to be written), retrying a failed write in the background (see the header). */
export function finishWithRetry(store: TurnStore, id: string, end: TurnEnd, options: FinishRetryOptions = {}, start?: TurnStartWrite): PendingFinish {
  const startedAt = Date.now();
  const firstAttempt = attempt(store, id, end, start);
  const first = firstAttempt.then((result) => (typeof result === 'boolean' ? (result ? 'recorded' : 'refused') : 'retrying'));
  const settled = firstAttempt.then(async (result): Promise<FinishOutcome> => {
    if (result === true) return 'recorded';
    if (result === false) return refused(store, id, end, false);
    const endings = unsettled();
    endings.set(id, { what: describeEnd(end), ...(start ? { start } : {}) });
    try {
      return await retry(store, id, end, result.error, startedAt, options, start);
    } finally {
      endings.delete(id);
    }
  });
  return { first, settled };
}

async function retry(store: TurnStore, id: string, end: TurnEnd, firstError: unknown, startedAt: number, options: FinishRetryOptions, start: TurnStartWrite | undefined): Promise<FinishOutcome> {
  const { windowMs = FINISH_RETRY_WINDOW_MS, firstDelayMs = 250, maxDelayMs = 5000, random = Math.random } = options;
  const what = `turn ${id} (${describeEnd(end)})`;
  console.error(`[traces] could not write the ending of ${what}: ${storeErrorText(firstError)}; retrying for up to ${Math.round(windowMs / 1000)} s`);
  let lastError = firstError;
  let attempts = 1;
  for (let delay = firstDelayMs; ; delay = Math.min(delay * 2, maxDelayMs)) {
    // The last attempt is at the end of the window.
    const pause = Math.min(delay * (0.5 + random() / 2), startedAt + windowMs - Date.now());
    if (pause <= 0) break;
    await sleep(pause);
    attempts++;
    const result = await attempt(store, id, end, start);
    if (result === true) {
      console.log(`[traces] wrote the ending of ${what} at attempt ${attempts}, ${Date.now() - startedAt} ms after the first`);
      return 'recorded';
    }
    if (result === false) return refused(store, id, end, true);
    lastError = result.error;
  }

  const reason = gaveUpReason(end, windowMs, lastError);
  const marked = await attempt(store, id, { status: 'error', reply: '', totalMs: end.totalMs, error: reason }, start);
  if (marked === true) {
    console.error(`[traces] TURN ${id} MARKED ERROR: ${reason} (${attempts} attempts)`);
    return 'marked-error';
  }
  if (marked === false) return refused(store, id, end, true);
  if (start && !start.written) {
    const why = `its start and ending (${describeEnd(end)}) could not be written within ${Math.round(windowMs / 1000)} s: ${storeErrorText(marked.error)}`;
    lost.count++;
    lost.last = { turnId: id, reason: why, at: new Date().toISOString() };
    console.error(`[traces] TURN ${id} WAS NOT RECORDED: ${why} (${attempts} attempts)`);
    return 'unrecorded';
  }
  console.error(
    `[traces] TURN ${id} IS STILL PENDING: ${reason} (${attempts} attempts), and it could not be marked error either ` +
      `(${storeErrorText(marked.error)}); the pending-turn sweep will close it`,
  );
  return 'unrecorded';
}

/**
 * The store had no pending turn `id`. After a failed attempt that may be our own ending (a
 * write that committed but whose answer was lost): then it is recorded. Otherwise something
 * else ended the turn first (the sweep, for a turn that ran past its limit), and that stays.
 */
async function refused(store: TurnStore, id: string, end: TurnEnd, afterFailure: boolean): Promise<FinishOutcome> {
  if (afterFailure) {
    const stored = await store.getTurn(id).catch(() => undefined);
    if (stored?.status === end.status && stored.reply === end.reply) return 'recorded';
  }
  console.warn(`[traces] the ending of turn ${id} (${describeEnd(end)}) was not written: the store has no pending turn with that id (it ended already, or is unknown)`);
  return 'refused';
}
