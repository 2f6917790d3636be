import type { TurnStore } from './ports/turns';
import { staleTurnReason, storeErrorText } from './unrecorded';

/**
 * The pending-turn sweep (TRACE_PENDING_LIMIT_MINUTES): a turn still `pending` that long after
 * it started can no longer be streaming or having its ending retried (finish.ts), so its
 * server died mid-turn (a crash, a SIGKILL, a deploy) or could not write the ending at all.
 * It becomes `error` with the reason (unrecorded.ts), instead of pending forever. Runs 1 s after
 * start (crashed turns old enough by then), then every minute (turns of a crash just before
 * start, or of another instance that died). Only turns older than the limit are touched, so
 * with several instances on one PostgreSQL database none closes a turn another is streaming.
 */

/** Closes every turn pending for longer than `limitMinutes` at `now`, batch by batch; returns how many. */
export async function closeStaleTurns(store: TurnStore, limitMinutes: number, { now = Date.now(), batchSize = 500 } = {}): Promise<number> {
  const cutoff = new Date(now - limitMinutes * 60_000).toISOString();
  const reason = staleTurnReason(limitMinutes);
  let closed = 0;
  for (;;) {
    const n = await store.closePendingTurnsBefore(cutoff, reason, batchSize);
    closed += n;
    if (n < batchSize) return closed;
  }
}

/** Sweeps 1 s after start, then every `everyMs`, never keeping the process alive; logs what it closed. */
export function startPendingSweep(store: () => TurnStore, limitMinutes: number, everyMs = 60_000): void {
  const round = async () => {
    try {
      const closed = await closeStaleTurns(store(), limitMinutes);
      if (closed > 0) {
        console.log(`[traces] marked ${closed} turn${closed === 1 ? '' : 's'} error, still pending ${limitMinutes} min after starting (the server stopped mid-turn, or could not write the ending)`);
      }
    } catch (error) {
      console.error(`[traces] the pending-turn sweep failed: ${storeErrorText(error)}`);
    }
    setTimeout(round, everyMs).unref();
  };
  setTimeout(round, 1000).unref();
}
