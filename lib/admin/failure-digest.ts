import { errorText } from '../errors';
import type { AuditStore } from '../store/ports/audit';
import { auditRefusal } from './audit';
import { logSafe } from './log-safe';

/**
 * Failed sign-ins from outside, for the audit trail and the log in bounded form: a client's
 * first failure is written at once, then at most one row per client per window, with the
 * count of failures it stands for — a flood of forged OpenID Connect callbacks costs a row a
 * minute per client address, not a row per request. At most `maxClients` clients have rows of
 * their own; failures from any more are counted together under `others`.
 */

export interface FailureCount {
  /** The client address (lib/rate-limit/client.ts), or `others`. */
  client: string;
  /** Failures checked and refused since the client's last row. */
  failed: number;
  /** Requests refused unchecked (the throttle said wait) since then. */
  throttled: number;
  /** The first checked failure's reason since then, as given (the writer bounds and escapes it). */
  reason?: string;
  /** When the first of them came (ISO 8601). */
  since: string;
}

export interface FailureDigestOptions {
  /** Writes one row; a failure is logged here, never thrown. */
  write(count: FailureCount): Promise<void>;
  /** One row per client per window (default 60 s). */
  windowMs?: number;
  /** Clients with rows of their own at a time (default 100). */
  maxClients?: number;
}

interface Tally {
  writtenAt: number;
  failed: number;
  throttled: number;
  reason?: string;
  since?: number;
}

export const OTHER_CLIENTS = 'others';

export class FailureDigest {
  private readonly tallies = new Map<string, Tally>();
  private readonly windowMs: number;
  private readonly maxClients: number;
  private timer: { handle: NodeJS.Timeout; at: number } | undefined;

  constructor(private readonly options: FailureDigestOptions) {
    this.windowMs = options.windowMs ?? 60_000;
    this.maxClients = options.maxClients ?? 100;
  }

  /** A failure checked and refused; resolves once its row is written, if it makes one now. */
  failed(client: string, reason: string, now = Date.now()): Promise<void> {
    return this.count(client, now, (tally) => {
      tally.failed++;
      tally.reason ??= reason;
    });
  }

  /** A request refused unchecked by the throttle. */
  throttled(client: string, now = Date.now()): Promise<void> {
    return this.count(client, now, (tally) => tally.throttled++);
  }

  /** Writes the rows that are due (their client's window is over) and forgets clients quiet for a window. */
  async flush(now = Date.now()): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const [client, tally] of this.tallies) {
      if (now - tally.writtenAt < this.windowMs) continue;
      if (tally.failed + tally.throttled > 0) writes.push(this.write(client, tally, now));
      else this.tallies.delete(client);
    }
    await Promise.all(writes);
    for (const tally of this.tallies.values()) if (tally.failed + tally.throttled > 0) this.schedule(tally.writtenAt + this.windowMs, now);
  }

  private count(client: string, now: number, add: (tally: Tally) => void): Promise<void> {
    const key = this.keyOf(client, now);
    const tally = this.tallies.get(key) ?? { writtenAt: -Infinity, failed: 0, throttled: 0 };
    this.tallies.set(key, tally);
    add(tally);
    tally.since ??= now;
    if (now - tally.writtenAt >= this.windowMs) return this.write(key, tally, now);
    this.schedule(tally.writtenAt + this.windowMs, now);
    return Promise.resolve();
  }

  /** The client's own tally, or `others` when `maxClients` clients have one (quiet ones are forgotten first). */
  private keyOf(client: string, now: number): string {
    if (this.tallies.has(client) || this.tallies.size < this.maxClients) return client;
    for (const [key, tally] of this.tallies) {
      if (now - tally.writtenAt >= this.windowMs && tally.failed + tally.throttled === 0) this.tallies.delete(key);
    }
    return this.tallies.size < this.maxClients ? client : OTHER_CLIENTS;
  }

  private async write(client: string, tally: Tally, now: number): Promise<void> {
    const count: FailureCount = {
      client,
      failed: tally.failed,
      throttled: tally.throttled,
      ...(tally.reason === undefined ? {} : { reason: tally.reason }),
      since: new Date(tally.since ?? now).toISOString(),
    };
    Object.assign(tally, { writtenAt: now, failed: 0, throttled: 0, reason: undefined, since: undefined });
    try {
      await this.options.write(count);
    } catch (error) {
      console.error(`[audit] could not record ${count.failed + count.throttled} failed sign-ins: ${logSafe(errorText(error))}`);
    }
  }

  /** A flush at `at` (when a client's window is over), unless one comes sooner; the timer never keeps the process alive. */
  private schedule(at: number, now: number): void {
    if (this.timer && this.timer.at <= at) return;
    if (this.timer) clearTimeout(this.timer.handle);
    const handle = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, Math.max(0, at - now));
    handle.unref();
    this.timer = { handle, at };
  }
}

/**
 * The server's digest of failed OpenID Connect callbacks (app/api/debug/oidc/callback): each
 * row a `sign-in.failed` entry of actor `unknown` with the counts, and one log line.
 */
export function oidcFailureDigest(store: () => AuditStore): FailureDigest {
  return new FailureDigest({
    async write(count) {
      const reason = count.reason ?? 'too many failed sign-ins from this address';
      const counts = count.failed + count.throttled > 1 ? ` (${count.failed} failed, ${count.throttled} throttled since ${count.since})` : '';
      console.error(`[debug] OpenID Connect sign-in refused from ${logSafe(count.client)}: ${logSafe(reason)}${counts}`);
      await auditRefusal(store(), { actor: 'unknown', via: 'oidc', source: count.client }, {
        action: 'sign-in.failed',
        detail: { reason, failed: count.failed, throttled: count.throttled, since: count.since },
      });
    },
  });
}
