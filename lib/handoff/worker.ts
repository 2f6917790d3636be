import { hostname } from 'node:os';
import { consoleLog, type Log } from '../log';
import { withDeliverySpan } from '../telemetry/handoff';
import type { TelemetryOptions } from '../telemetry/turn';
import type { AttemptResult, ClaimedDelivery, HandoffChannel, HandoffStore } from '../store/ports/handoffs';
import { retryDelayMs } from './backoff';
import { errorChainText, type ChannelSender } from './channel';

/**
 * The delivery worker: one per server process (built in lib/server/app.ts), it sends what the
 * store says is due. Every `pollMs` (and at once when a hand-off is written: `kick()`) it claims
 * due deliveries (a lease of twice the attempt timeout and 5 s more: a worker that dies mid-send
 * leaves the delivery to whoever claims it after), sends each through its channel inside an
 * OpenTelemetry span, and records the attempt: sent; or due again after the backoff (backoff.ts);
 * or failed, once the next attempt would fall past the delivery's deadline (HANDOFF_RETRY_SECONDS
 * after it was written). Nothing lives only in memory: a restart, a SIGKILL, or another instance
 * picks up where it stopped. A delivery sent but not recorded (a crash in between) is sent again,
 * with the same webhook id and Message-ID, so a receiver drops the repeat.
 *
 * With several instances on one PostgreSQL database each delivery is claimed by one of them
 * (FOR UPDATE SKIP LOCKED). Timers never keep the process alive.
 */

export interface DeliveryWorkerOptions {
  store: () => HandoffStore;
  senders: Partial<Record<HandoffChannel, ChannelSender>>;
  /** The longest wait between two attempts (HANDOFF_RETRY_MAX_INTERVAL_SECONDS), ms. */
  retryMaxIntervalMs: number;
  /** How long one attempt may take (HANDOFF_DELIVERY_TIMEOUT_MS); the lease is twice that and 5 s. */
  timeoutMs: number;
  pollMs?: number;
  /** Deliveries claimed (and sent concurrently) at a time. */
  batch?: number;
  /** Who made the attempts, on /debug (default host:pid). */
  instance?: string;
  now?: () => number;
  random?: () => number;
  log?: Log;
  telemetry?: TelemetryOptions;
}

export interface DeliveryWorker {
  /** Polls every `pollMs` from now on (once; the timer does not keep the process alive). */
  start(): void;
  /** Stops polling and waits for the round in flight. */
  stop(): Promise<void>;
  /** A round now: a hand-off was just written. */
  kick(): void;
  /** One round: claims and sends due deliveries until none are left; resolves with the attempts made. */
  tick(): Promise<number>;
}

const iso = (ms: number) => new Date(ms).toISOString();
const NO_SENDER: Record<HandoffChannel, string> = {
  webhook: 'HANDOFF_WEBHOOK_URL is no longer set: the webhook cannot be sent',
  email: 'SMTP_URL is no longer set: the email cannot be sent',
};

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const log = options.log ?? consoleLog;
  const batch = options.batch ?? 4;
  const leaseMs = options.timeoutMs * 2 + 5000;
  const instance = options.instance ?? `${hostname()}:${process.pid}`;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let storeDown = false;

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const sender = options.senders[delivery.channel];
    const label = `[handoff] ${delivery.handoffId} ${delivery.channel}, attempt ${delivery.attempt}`;
    const startedAt = now();
    let outcome: AttemptResult['outcome'] = { status: 'sent' };
    await withDeliverySpan(
      { ...delivery, target: sender?.target ?? 'none' },
      async () => {
        try {
          if (!sender) throw new Error(NO_SENDER[delivery.channel]);
          await sender.send(delivery);
        } catch (error) {
          const message = errorChainText(error);
          const next = now() + retryDelayMs(delivery.attempt, options.retryMaxIntervalMs, random);
          outcome = sender && next <= Date.parse(delivery.retryUntil) ? { status: 'retry', nextAttemptAt: iso(next), error: message } : { status: 'failed', error: message };
        }
        return { outcome: outcome.status, ...(outcome.status === 'sent' ? {} : { error: outcome.error }) };
      },
      options.telemetry,
    );
    const result: AttemptResult = { handoffId: delivery.handoffId, channel: delivery.channel, attempt: delivery.attempt, startedAt: iso(startedAt), durationMs: now() - startedAt, instance, outcome };
    try {
      await options.store().finishAttempt(result);
    } catch (error) {
      log.error(`${label} (${outcome.status}) could not be recorded: ${errorChainText(error)}; it is tried again when its lease runs out`);
      return;
    }
    const o = outcome as AttemptResult['outcome'];
    if (o.status === 'sent') log.info(`${label}: delivered to ${sender!.target}`);
    else if (o.status === 'retry') log.info(`${label} failed: ${o.error}; next attempt at ${o.nextAttemptAt}`);
    else log.error(`${label} FAILED FOR GOOD: ${o.error} (it shows on /debug/handoffs, where it can be retried)`);
  }

  async function round(): Promise<number> {
    let made = 0;
    for (;;) {
      const at = now();
      let claimed: ClaimedDelivery[];
      try {
        claimed = await options.store().claimDeliveries(iso(at), iso(at + leaseMs), batch);
        if (storeDown) log.info('[handoff] the store answers again: deliveries go on');
        storeDown = false;
      } catch (error) {
        if (!storeDown) log.error(`[handoff] due deliveries could not be read: ${errorChainText(error)}; trying again every ${(options.pollMs ?? 1000) / 1000} s`);
        storeDown = true;
        return made;
      }
      await Promise.all(claimed.map(attempt));
      made += claimed.length;
      if (claimed.length < batch) return made;
    }
  }

  function tick(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    const run = (async () => {
      let made = 0;
      try {
        do {
          again = false;
          made += await round();
        } while (again);
      } finally {
        running = undefined;
      }
      return made;
    })();
    running = run;
    return run;
  }

  return {
    start() {
      if (timer) return;
      timer = setInterval(() => void tick(), options.pollMs ?? 1000);
      timer.unref();
      setTimeout(() => void tick(), 0).unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
    kick() {
      void tick();
    },
    tick,
  };
}
