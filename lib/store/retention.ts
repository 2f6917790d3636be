import { setTimeout as sleep } from 'node:timers/promises';
import { errorText } from '../errors';
import type { AuditStore } from './ports/audit';
import type { TurnStore } from './ports/turns';

/**
 * TRACE_RETENTION_DAYS: turns older than that are deleted, in batches small enough that
 * each is one short transaction (no request waits long behind it), with a pause between
 * batches, soon after start and then every `everyMs`. With several instances on one
 * PostgreSQL database each runs it; one at a time deletes (an advisory lock), the others
 * find the lock taken and wait for their next round. What retention did last is kept for
 * /debug (the job's `status`).
 */

export interface RetentionOptions {
  batchSize?: number;
  /** Pause between two batches, ms. */
  pauseMs?: number;
}

export interface RetentionStatus {
  days: number;
  /** When the last round ended (ISO 8601). */
  lastRunAt?: string;
  /** Turns the last round deleted. */
  lastDeleted?: number;
  /** Why the last round stopped early, if it did. */
  lastError?: string;
}

/** The running retention of a server: what it is set to and did last in this process. */
export interface RetentionJob {
  readonly status: RetentionStatus;
}

/** The cutoff for `days` of retention at `now`: turns made before it go. */
export function retentionCutoff(days: number, now = Date.now()): string {
  return new Date(now - days * 86_400_000).toISOString();
}

/** Deletes every turn older than `days`, batch by batch; returns how many went. */
export async function deleteExpiredTurns(store: TurnStore, days: number, { batchSize = 500, pauseMs = 20 }: RetentionOptions = {}): Promise<number> {
  const cutoff = retentionCutoff(days);
  let deleted = 0;
  for (;;) {
    const n = await store.deleteTurnsBefore(cutoff, batchSize);
    deleted += n;
    if (n < batchSize) return deleted;
    await sleep(pauseMs);
  }
}

/** Runs retention 1 s after start, then every `everyMs` (10 minutes), never keeping the process alive. */
export function startRetention(store: () => TurnStore, days: number, everyMs = 600_000): RetentionJob {
  const status: RetentionStatus = { days };
  const round = async () => {
    try {
      status.lastDeleted = await deleteExpiredTurns(store(), days);
      delete status.lastError;
      if (status.lastDeleted > 0) console.log(`[retention] deleted ${status.lastDeleted} turns older than ${days} days`);
    } catch (error) {
      status.lastError = errorText(error);
      console.error(`[retention] stopped: ${status.lastError}`);
    }
    status.lastRunAt = new Date().toISOString();
    setTimeout(round, everyMs).unref();
  };
  setTimeout(round, 1000).unref();
  return { status };
}

/**
 * AUDIT_RETENTION_DAYS: the audit trail's own retention, apart from the turns' — entries older
 * than that go in batches, 1 s after start and then every `everyMs`. Nothing else can delete
 * or change an entry (access-sql.ts: the schema refuses UPDATE, and DELETE outside these batches).
 */
export function startAuditRetention(store: () => AuditStore, days: number, everyMs = 600_000): void {
  const round = async () => {
    try {
      const cutoff = retentionCutoff(days);
      let deleted = 0;
      for (let n = 500; n === 500; deleted += n) n = await store().deleteAuditBefore(cutoff, 500);
      if (deleted > 0) console.log(`[retention] deleted ${deleted} audit entries older than ${days} days`);
    } catch (error) {
      console.error(`[retention] the audit trail's retention stopped: ${errorText(error)}`);
    }
    setTimeout(round, everyMs).unref();
  };
  setTimeout(round, 1000).unref();
}
