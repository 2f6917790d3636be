import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../store/sqlite';
import type { ClaimedDelivery, HandoffChannel, HandoffStart } from '../store/ports/handoffs';
import type { ChannelSender } from './channel';
import { createDeliveryWorker, type DeliveryWorkerOptions } from './worker';

/**
 * The delivery worker against a real store (SQLite) and channels that record what they were
 * given, on a clock the test moves: what is sent, when it is tried again, when it fails for good.
 */

const stores: SqliteStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
});
function freshStore(file = path.join(mkdtempSync(path.join(tmpdir(), 'handoff-worker-')), 'traces.db')): SqliteStore {
  const store = new SqliteStore(file);
  stores.push(store);
  return store;
}

const T0 = Date.parse('2026-05-04T09:00:00.000Z');
let n = 0;
function handoff(overrides: Partial<HandoffStart> = {}): HandoffStart {
  n++;
  return {
    id: `ho-worker-${n}`,
    conversationId: `conv-worker-${n}`,
    visitorId: 'visitor-a',
    createdAt: new Date(T0).toISOString(),
    reason: 'asked',
    email: 'kim@example.com',
    payload: `{"n":${n}}`,
    channels: ['webhook', 'email'],
    retryUntil: new Date(T0 + 3600_000).toISOString(),
    ...overrides,
  };
}

/** A channel that records each delivery, and fails while `failing` says so. */
function channel(name: string) {
  const sent: ClaimedDelivery[] = [];
  let failing: (() => Error) | undefined;
  const sender: ChannelSender = {
    target: name,
    async send(delivery) {
      if (failing) throw failing();
      sent.push(delivery);
    },
  };
  return { sender, sent, fail: (error?: () => Error) => (failing = error) };
}

function setup(store: SqliteStore, more: Partial<DeliveryWorkerOptions> = {}) {
  const clock = { now: T0 };
  const webhook = channel('hooks.example.com');
  const email = channel('mail.example.com');
  const logs: string[] = [];
  const worker = createDeliveryWorker({
    store: () => store,
    senders: { webhook: webhook.sender, email: email.sender },
    retryMaxIntervalMs: 60_000,
    timeoutMs: 1000,
    instance: 'test:1',
    now: () => clock.now,
    random: () => 1, // the longest wait of each step: 1 s, 2 s, 4 s …
    log: { info: (m) => logs.push(m), error: (m) => logs.push(`ERROR ${m}`) },
    ...more,
  });
  return { worker, clock, webhook, email, logs };
}

const channels = (detail: { deliveries: { channel: HandoffChannel; status: string; attempts: number }[] }) =>
  Object.fromEntries(detail.deliveries.map((d) => [d.channel, [d.status, d.attempts]]));

describe('the delivery worker', () => {
  it('sends a due hand-off once on each channel, with its payload, and records the attempts', async () => {
    const store = freshStore();
    const { worker, webhook, email, logs } = setup(store);
    const made = handoff();
    await store.createHandoff(made);
    expect(await worker.tick()).toBe(2);
    expect(webhook.sent.map((d) => [d.handoffId, d.payload, d.attempt])).toEqual([[made.id, made.payload, 1]]);
    expect(email.sent.map((d) => d.handoffId)).toEqual([made.id]);
    expect(await worker.tick()).toBe(0); // nothing is sent twice
    const detail = (await store.getHandoff(made.id))!;
    expect(detail.status).toBe('sent');
    expect(detail.attempts.map((a) => [a.channel, a.attempt, a.ok, a.instance])).toEqual([
      ['email', 1, true, 'test:1'],
      ['webhook', 1, true, 'test:1'],
    ]);
    expect(logs).toContain(`[handoff] ${made.id} webhook, attempt 1: delivered to hooks.example.com`);
  });

  it('keeps a hand-off the receiver refuses, tries again with backoff, delivers it when the receiver is back', async () => {
    const store = freshStore();
    const { worker, clock, webhook } = setup(store);
    const made = handoff({ channels: ['webhook'] });
    await store.createHandoff(made);
    webhook.fail(() => new Error('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') }));
    await worker.tick(); // attempt 1 fails: next in 1 s
    clock.now += 999;
    expect(await worker.tick()).toBe(0); // not due yet
    clock.now += 1;
    await worker.tick(); // attempt 2 fails: next in 2 s
    expect(await store.getHandoff(made.id)).toMatchObject({
      status: 'pending',
      deliveries: [{ status: 'pending', attempts: 2, nextAttemptAt: new Date(T0 + 1000 + 2000).toISOString(), lastError: 'fetch failed ← connect ECONNREFUSED 127.0.0.1:9' }],
    });
    webhook.fail(undefined);
    clock.now += 2000;
    expect(await worker.tick()).toBe(1);
    expect(webhook.sent.map((d) => [d.handoffId, d.attempt])).toEqual([[made.id, 3]]);
    expect((await store.getHandoff(made.id))!.status).toBe('sent');
  });

  it('marks a delivery failed once the next attempt would fall past its deadline; "retry now" sends it again', async () => {
    const store = freshStore();
    const { worker, clock, webhook, email, logs } = setup(store);
    const made = handoff({ retryUntil: new Date(T0 + 10_000).toISOString() });
    await store.createHandoff(made);
    webhook.fail(() => new Error('HTTP 503: maintenance'));
    for (const wait of [0, 1000, 2000, 4000]) {
      clock.now += wait;
      await worker.tick();
    }
    // Attempts at T0, +1 s, +3 s, +7 s; the next would be at +15 s, past the deadline at +10 s.
    const failed = (await store.getHandoff(made.id))!;
    expect(channels(failed)).toEqual({ email: ['sent', 1], webhook: ['failed', 4] });
    expect(failed.status).toBe('failed');
    expect(failed.deliveries.find((d) => d.channel === 'webhook')!.lastError).toBe('HTTP 503: maintenance');
    expect(logs.filter((l) => l.startsWith('ERROR'))).toEqual([
      `ERROR [handoff] ${made.id} webhook, attempt 4 FAILED FOR GOOD: HTTP 503: maintenance (it shows on /debug/handoffs, where it can be retried)`,
    ]);
    clock.now += 3600_000;
    expect(await worker.tick()).toBe(0); // failed stays failed
    webhook.fail(undefined);
    await store.retryFailed(made.id, new Date(clock.now).toISOString(), new Date(clock.now + 3600_000).toISOString());
    expect(await worker.tick()).toBe(1);
    expect(channels((await store.getHandoff(made.id))!)).toEqual({ email: ['sent', 1], webhook: ['sent', 5] });
    expect(email.sent).toHaveLength(1); // the email went once
  });

  it('a worker that dies between sending and recording: the next one, after the lease, sends it again with the same id', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'handoff-crash-')), 'traces.db');
    const store = freshStore(file);
    const made = handoff({ channels: ['webhook'] });
    await store.createHandoff(made);
    // The first process sends, then cannot record (as if killed right after the receiver answered).
    const dying = setup(
      new Proxy(store, {
        get: (target, key) => (key === 'finishAttempt' ? async () => Promise.reject(new Error('SIGKILL')) : Reflect.get(target, key, target)),
      }),
    );
    await dying.worker.tick();
    expect(dying.webhook.sent.map((d) => d.handoffId)).toEqual([made.id]);
    // A restarted process on the same database: the claim is held for twice the timeout and 5 s.
    const restarted = setup(freshStore(file));
    restarted.clock.now = T0 + 6999;
    expect(await restarted.worker.tick()).toBe(0);
    restarted.clock.now = T0 + 7000;
    expect(await restarted.worker.tick()).toBe(1);
    expect(restarted.webhook.sent.map((d) => [d.handoffId, d.attempt])).toEqual([[made.id, 2]]); // same id: the receiver drops the repeat
    expect((await store.getHandoff(made.id))!.status).toBe('sent');
  });

  it('fails a delivery whose channel is no longer configured, saying which setting is missing', async () => {
    const store = freshStore();
    const { worker } = setup(store, { senders: {} });
    const made = handoff({ channels: ['email'] });
    await store.createHandoff(made);
    await worker.tick();
    expect((await store.getHandoff(made.id))!.deliveries[0]).toMatchObject({ status: 'failed', lastError: 'SMTP_URL is no longer set: the email cannot be sent' });
  });

  it('logs a store that cannot be read once, and again when it answers', async () => {
    let down = true;
    const store = freshStore();
    const flaky = new Proxy(store, {
      get: (target, key) => (key === 'claimDeliveries' && down ? async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) : Reflect.get(target, key, target)),
    });
    const { worker, logs } = setup(flaky);
    await worker.tick();
    await worker.tick();
    down = false;
    await worker.tick();
    expect(logs).toEqual([
      'ERROR [handoff] due deliveries could not be read: connect ECONNREFUSED 127.0.0.1:5432; trying again every 1 s',
      '[handoff] the store answers again: deliveries go on',
    ]);
  });

  it('makes one OpenTelemetry span per attempt, with the outcome, and no customer text', async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
    const store = freshStore();
    const { worker, clock, webhook } = setup(store, { telemetry: { enabled: true, captureContent: false, tracer } });
    const made = handoff({ channels: ['webhook'], reason: 'down-vote' });
    await store.createHandoff(made);
    webhook.fail(() => new Error('HTTP 500'));
    await worker.tick();
    webhook.fail(undefined);
    clock.now += 1000;
    await worker.tick();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.name, s.attributes['support_chat.handoff.attempt'], s.attributes['support_chat.handoff.outcome'], s.status.code])).toEqual([
      ['handoff delivery', 1, 'retry', SpanStatusCode.ERROR],
      ['handoff delivery', 2, 'sent', SpanStatusCode.UNSET],
    ]);
    expect(spans[0]!.status.message).toBe('HTTP 500');
    expect(spans[0]!.attributes).toMatchObject({
      'support_chat.handoff.id': made.id,
      'support_chat.handoff.channel': 'webhook',
      'support_chat.handoff.reason': 'down-vote',
      'gen_ai.conversation.id': made.conversationId,
      'server.address': 'hooks.example.com',
    });
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('kim@example.com');
  });
});
