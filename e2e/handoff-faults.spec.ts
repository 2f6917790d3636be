import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { startPostgres, type PostgresCluster } from '@/lib/testing/postgres';
import { startWebhookReceiver, type WebhookReceiver } from '@/lib/testing/webhook-receiver';
import { ADMIN_TOKEN, EXTRA_PORT } from './env';
import { admin, chatTurn, debugHandoff, postHandoff, WEBHOOK_SECRET } from './handoff-helpers';
import { startApp, type Server } from './spawn';

/**
 * Nothing is lost (issue 24): hand-offs live in the store until delivered, whatever happens to
 * the receiver or the server. A webhook receiver on loopback that this spec takes down and
 * brings back; the production server killed with SIGKILL and started again on the same SQLite
 * file; two instances on one throwaway PostgreSQL cluster sharing the deliveries.
 */

test.describe.configure({ mode: 'serial' });

const SQLITE_PORT = EXTRA_PORT + 43;
const RECEIVER_PORT = EXTRA_PORT + 44;
const A_PORT = EXTRA_PORT + 45;
const B_PORT = EXTRA_PORT + 46;

let receiver: WebhookReceiver;
let root: string;
const servers = new Set<Server>();
let postgres: PostgresCluster | undefined;

/** Deliveries retried every second at most; an attempt may take 1.5 s, so a claim is held for 8 s (twice that and 5 s). */
const DELIVERY = {
  OPENAI_API_KEY: '',
  OPENAI_BASE_URL: '',
  ADMIN_TOKEN,
  HANDOFF_RETRY_MAX_INTERVAL_SECONDS: '1',
  HANDOFF_DELIVERY_TIMEOUT_MS: '1500',
  CHAT_RATE_LIMIT_PER_MINUTE: '6000',
  CHAT_RATE_LIMIT_BURST: '1000',
};

async function start(port: number, env: Record<string, string>): Promise<Server> {
  const server = await startApp(port, {
    ...DELIVERY,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    HANDOFF_WEBHOOK_URL: receiver.url,
    HANDOFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
    ...env,
  });
  servers.add(server);
  return server;
}

async function stop(server: Server, signal?: NodeJS.Signals): Promise<void> {
  await server.stop(signal);
  servers.delete(server);
}

const sqliteApp = () => start(SQLITE_PORT, { TRACE_DB_PATH: path.join(root, 'sqlite', 'traces.db'), KB_CACHE_PATH: path.join(root, 'sqlite', 'kb-cache') });
/** The SQLite server the first test leaves running, for the second (same settings, same database); started afresh when the second runs alone. */
let sqliteLeft: Server | undefined;

test.beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'e2e-handoff-faults-'));
  receiver = await startWebhookReceiver(WEBHOOK_SECRET, RECEIVER_PORT);
});

test.afterAll(async () => {
  for (const server of servers) await server.stop();
  await postgres?.stop();
  await receiver?.down();
  rmSync(root, { recursive: true, force: true });
});

test('receiver down: the hand-off is kept and retried; SIGKILLed while pending and restarted; delivered exactly once, with its webhook id, when the receiver is back', async () => {
  test.setTimeout(90_000);
  await receiver.down();
  let app = await sqliteApp();
  const { cookie } = await chatTurn(app, 'conv-fault-kill-001', 'can I get a refund?');
  const created = await postHandoff(app, { conversationId: 'conv-fault-kill-001', email: 'kim@example.com', reason: 'asked' }, cookie);
  expect(created.status).toBe(201); // written before the answer: "sent" for the customer
  const { handoff } = (await created.json()) as { handoff: { id: string } };

  // Kept, and tried again and again while the receiver is down.
  await expect.poll(async () => (await debugHandoff(app, handoff.id)).attempts.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  const pending = await debugHandoff(app, handoff.id);
  expect(pending.status).toBe('pending');
  expect(pending.deliveries[0]!.lastError).toMatch(/^fetch failed ← .*(ECONNREFUSED|other side closed)/);

  // The server dies without a word, and starts again on the same database.
  await stop(app, 'SIGKILL');
  app = await sqliteApp();
  await expect.poll(async () => (await debugHandoff(app, handoff.id)).attempts.length, { timeout: 15_000 }).toBeGreaterThan(pending.attempts.length);
  const retried = await debugHandoff(app, handoff.id);
  expect(retried.status).toBe('pending');
  expect(new Set(retried.attempts.map((a) => a.instance)).size).toBe(2); // the killed process's attempts, then the new one's
  expect(receiver.received).toHaveLength(0);

  await receiver.up();
  await expect.poll(async () => (await debugHandoff(app, handoff.id)).status, { timeout: 15_000 }).toBe('sent');
  await new Promise((r) => setTimeout(r, 2500)); // time for any repeat to show
  expect(receiver.received.map((r) => r.id)).toEqual([handoff.id]);
  const delivered = receiver.received[0]!;
  expect((new Webhook(WEBHOOK_SECRET).verify(delivered.raw, delivered.headers) as { data: { id: string } }).data.id).toBe(handoff.id);
  const done = await debugHandoff(app, handoff.id);
  // Attempts are numbered as they are claimed. The SIGKILL may land after a claim and before its
  // outcome is written: that number then has no row (no process lived to record it). So the
  // numbers rise, at most one is missing, and only the last attempt succeeded.
  const numbers = done.attempts.map((a) => a.attempt);
  expect(numbers).toEqual([...new Set(numbers)].sort((x, y) => x - y));
  expect(numbers.at(-1)! - numbers.length).toBeLessThanOrEqual(1);
  expect(done.attempts.at(-1)).toMatchObject({ ok: true });
  expect(done.attempts.slice(0, -1).every((a) => !a.ok)).toBe(true);
  sqliteLeft = app;
});

test('SIGKILLed after the receiver got the hand-off but before recording it: the next process sends it again with the same webhook id, so the receiver drops the repeat', async () => {
  test.setTimeout(60_000);
  receiver.received.length = 0;
  receiver.answer.delayMs = 1200; // the receiver records the delivery, then takes 1.2 s to answer
  let app = sqliteLeft ?? (await sqliteApp());
  sqliteLeft = undefined;
  const { cookie } = await chatTurn(app, 'conv-fault-kill-002', 'how do I start a live stream?');
  const created = await postHandoff(app, { conversationId: 'conv-fault-kill-002', email: 'kim@example.com', reason: 'asked' }, cookie);
  const { handoff } = (await created.json()) as { handoff: { id: string } };
  await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
  await stop(app, 'SIGKILL'); // before the answer came back: the attempt is not recorded
  receiver.answer.delayMs = 0;
  app = await sqliteApp();
  // Claimed again once the dead process's claim runs out (8 s): the same hand-off, the same id.
  await expect.poll(async () => (await debugHandoff(app, handoff.id)).status, { timeout: 20_000 }).toBe('sent');
  expect(receiver.received.map((r) => r.id)).toEqual([handoff.id, handoff.id]);
  expect(receiver.received[0]!.raw).toBe(receiver.received[1]!.raw); // byte for byte: the payload is frozen when written
  expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1); // de-duplicated by webhook-id: one hand-off
  const done = await debugHandoff(app, handoff.id);
  expect(done.attempts.map((a) => [a.attempt, a.ok])).toEqual([[2, true]]); // attempt 1 died with its process
  await stop(app);
});

test('two instances on one PostgreSQL deliver a batch of hand-offs, each exactly once', async () => {
  test.setTimeout(120_000);
  postgres = await startPostgres();
  const shared = { DATABASE_URL: postgres.url, VISITOR_SECRET: 'e2e-visitor-secret-shared-by-both-handoff-instances', TRUST_PROXY: '1' };
  const [a, b] = await Promise.all([
    start(A_PORT, { ...shared, TRACE_DB_PATH: path.join(root, 'a', 'traces.db'), KB_CACHE_PATH: path.join(root, 'a', 'kb-cache') }),
    start(B_PORT, { ...shared, TRACE_DB_PATH: path.join(root, 'b', 'traces.db'), KB_CACHE_PATH: path.join(root, 'b', 'kb-cache') }),
  ]);
  await receiver.down();
  receiver.received.length = 0;
  receiver.answer.delayMs = 50;

  // A batch, written half on each instance while the receiver is down: both instances try them.
  // The twelve customers' turns run at once (an offline reply streams for about 2 s, mostly
  // pauses between words); the hand-offs are then written one by one, alternating instances.
  const customers = Array.from({ length: 12 }, (_, i) => ({ server: i % 2 ? b : a, conversationId: `conv-fault-batch-${String(i).padStart(2, '0')}` }));
  const cookies = await Promise.all(customers.map(async ({ server, conversationId }, i) => (await chatTurn(server, conversationId, 'can I get a refund?', undefined, `198.51.100.${i + 1}`)).cookie));
  const ids: string[] = [];
  for (const [i, { server, conversationId }] of customers.entries()) {
    const response = await postHandoff(server, { conversationId, email: `customer${i}@example.com`, reason: 'asked' }, cookies[i]);
    expect(response.status).toBe(201);
    ids.push(((await response.json()) as { handoff: { id: string } }).handoff.id);
  }
  await expect.poll(async () => Promise.all(ids.map(async (id) => (await debugHandoff(a, id)).attempts.length > 0)).then((tried) => tried.every(Boolean)), { timeout: 15_000 }).toBe(true);

  await receiver.up();
  const sent = async () => ((await (await fetch(`${b.url}/api/debug/handoffs?status=sent&pageSize=50`, { headers: admin })).json()) as { total: number }).total;
  await expect.poll(sent, { timeout: 30_000 }).toBe(12);
  await new Promise((r) => setTimeout(r, 2500)); // time for any repeat to show

  // Each exactly once at the receiver.
  expect(receiver.received.map((r) => r.id).sort()).toEqual([...ids].sort());
  // No attempt was made twice, and both instances made attempts.
  const instances = new Set<string>();
  for (const id of ids) {
    const detail = await debugHandoff(a, id);
    expect(detail.attempts.map((x) => x.attempt)).toEqual(detail.attempts.map((_, i) => i + 1));
    expect(detail.attempts.filter((x) => x.ok)).toHaveLength(1);
    for (const attempt of detail.attempts) instances.add(attempt.instance);
  }
  expect(instances.size).toBe(2);
  const deliveredBy = new Map<string, number>();
  for (const id of ids) {
    const winner = (await debugHandoff(a, id)).attempts.find((x) => x.ok)!.instance;
    deliveredBy.set(winner, (deliveredBy.get(winner) ?? 0) + 1);
  }
  console.log(`[handoff-faults] 12 hand-offs delivered once each; by instance: ${[...deliveredBy.values()].join(' + ')}`);
});
