import { errorText } from '../errors';
import type { TurnEnd } from './ports/turns';

/**
 * The reasons a turn is closed as `error` because its ending could not be recorded (not
 * because the model failed): the retry giving up (finish.ts) and the pending-turn sweep
 * (stale.ts). /debug labels them apart from model failures (isUnrecordedEnding).
 */

const STALE_START = 'the server stopped before the turn ended';
const GAVE_UP_START = 'the ending (';

/** The sweep's reason: a turn still pending `afterMinutes` after it started. */
export function staleTurnReason(afterMinutes: number): string {
  return `${STALE_START}, or could not write its ending: still pending ${afterMinutes} min after it started`;
}

/** The retry's reason: `end` could not be written within `windowMs`, the last attempt failing with `error`. */
export function gaveUpReason(end: TurnEnd, windowMs: number, error: unknown): string {
  return `${GAVE_UP_START}${describeEnd(end)}) could not be written within ${Math.round(windowMs / 1000)} s: ${storeErrorText(error)}`;
}

/** True for an error recorded by the sweep or the retry: the turn's ending is not what happened, only that it was not recorded. */
export function isUnrecordedEnding(error: string | undefined): boolean {
  return !!error && (error.startsWith(STALE_START) || error.startsWith(GAVE_UP_START));
}

/** `ok, 85 characters of reply`: what an ending was, for logs and reasons. */
export function describeEnd(end: TurnEnd): string {
  return `${end.status}, ${end.reply.length} characters of reply`;
}

/**
 * A store error's message: errorText, but a connection error to several addresses is an
 * AggregateError with no message of its own (its errors' messages are joined), and an Error
 * without a message gives its name.
 */
export function storeErrorText(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return error.errors.map(storeErrorText).join('; ');
  return error instanceof Error && !error.message ? error.name : errorText(error);
}
