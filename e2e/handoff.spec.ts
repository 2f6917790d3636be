import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { formatPercent } from '@/lib/format';
import type { HandoffPayload } from '@/lib/handoff/payload';
import { startSmtpServer, type SmtpTestServer } from '@/lib/testing/mail';
import { startWebhookReceiver, type WebhookReceiver } from '@/lib/testing/webhook-receiver';
import { ADMIN_TOKEN, EXTRA_PORT } from './env';
import { admin, chatTurn, debugHandoff, postHandoff, SUPPORT_INBOX, WEBHOOK_SECRET } from './handoff-helpers';
import { ask, lastReply, openChat, replies } from './helpers';
import { startApp, type Server } from './spawn';

/**
 * Hand-off to a person (issue 24), end to end: the production server (offline model, SQLite)
 * delivering to a webhook receiver and an SMTP server this spec starts on loopback — the
 * receiver checks every Standard Webhooks signature with the `standardwebhooks` package, the
 * SMTP server (`smtp-server`) keeps every message with the recipients it was asked to deliver
 * to. One server for the whole spec.
 */

test.describe.configure({ mode: 'serial' });

const APP_PORT = EXTRA_PORT + 40;
const RECEIVER_PORT = EXTRA_PORT + 41;
const SMTP_PORT = EXTRA_PORT + 42;
const CUSTOMERS = ['kim@example.com', 'lee@example.net', 'flood@example.org', 'dana@example.com'];

let app: Server;
let receiver: WebhookReceiver;
let smtp: SmtpTestServer;
let root: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  root = mkdtempSync(path.join(tmpdir(), 'e2e-handoff-'));
  receiver = await startWebhookReceiver(WEBHOOK_SECRET, RECEIVER_PORT);
  smtp = await startSmtpServer(SMTP_PORT);
  app = await startApp(APP_PORT, {
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
    TRACE_DB_PATH: path.join(root, 'traces.db'),
    KB_CACHE_PATH: path.join(root, 'kb-cache'),
    ADMIN_TOKEN,
    PUBLIC_URL: `http://127.0.0.1:${APP_PORT}`,
    HANDOFF_WEBHOOK_URL: receiver.url,
    HANDOFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
    SMTP_URL: smtp.url,
    HANDOFF_EMAIL_TO: SUPPORT_INBOX,
    HANDOFF_EMAIL_FROM: 'chat@lumacast.example',
    // Short enough to see a delivery fail for good (and be retried from /debug) within a test.
    HANDOFF_RETRY_SECONDS: '3',
    HANDOFF_RETRY_MAX_INTERVAL_SECONDS: '1',
    HANDOFF_DELIVERY_TIMEOUT_MS: '2000',
    HANDOFF_RATE_LIMIT_PER_HOUR: '5',
    CHAT_RATE_LIMIT_PER_MINUTE: '6000',
    CHAT_RATE_LIMIT_BURST: '1000',
  });
});

test.afterAll(async () => {
  await app?.stop();
  await receiver?.down();
  await smtp?.stop();
  // The customer's address is never a recipient, whatever the test did.
  for (const mail of smtp?.mails ?? []) expect(mail.envelope.to).toEqual([SUPPORT_INBOX]);
  rmSync(root, { recursive: true, force: true });
});

/** The conversation's turns as the store recorded them (the reply as sent, Markdown and all). */
function recordedTurns(conversationId: string): { id: string; question: string; reply: string }[] {
  const db = new Database(path.join(root, 'traces.db'), { readonly: true });
  try {
    return db.prepare('SELECT id, question, reply FROM turns WHERE conversation_id = ? ORDER BY seq').all(conversationId) as { id: string; question: string; reply: string }[];
  } finally {
    db.close();
  }
}

test('"I want to talk to a person" offers the form; sending it delivers one signed webhook and one email with the transcript and the /debug links', async ({ page }) => {
  await page.goto(app.url);
  const panel = await openChat(page);
  const conversationId = (await panel.getAttribute('data-conversation-id'))!;
  await expect(page.getByTestId('handoff-open')).toBeVisible(); // the action is always there
  await ask(page, 'can I get a refund?');
  await lastReply(page, 1);
  await expect(page.getByTestId('handoff-offer')).toHaveCount(0);
  await ask(page, 'I want to talk to a person');
  await lastReply(page, 2);

  // The assistant says it is not a person; the hand-off is offered under the reply.
  await expect(replies(page).nth(1).getByTestId('chat-message-text')).toContainText('I am the automated assistant, not a person.');
  const offer = replies(page).nth(1).getByTestId('handoff-offer');
  await expect(offer).toHaveAttribute('data-reason', 'asked');
  await expect(offer).toContainText('I am an automated assistant');
  await offer.getByTestId('handoff-offer-open').click();
  await expect(page.getByTestId('handoff-email')).toBeFocused();
  await expect(page.getByTestId('handoff-statement')).toHaveText(
    'A person from the Lumacast support team will read this conversation and answer you by email within two business days. We send them the whole conversation above, your email address and your note, and nothing else.',
  );

  // A malformed address is refused in the form, and said where a screen reader hears it.
  await page.getByTestId('handoff-email').fill('kim at example');
  await page.getByTestId('handoff-submit').click();
  await expect(page.getByTestId('handoff-error')).toHaveText('Enter your email address, such as name@example.com, so a person can answer you.');
  await expect(page.getByTestId('handoff-error')).toHaveAttribute('role', 'alert');
  await expect(page.getByTestId('handoff-email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('handoff-email')).toBeFocused();

  await page.getByTestId('handoff-email').fill('kim@example.com');
  await page.getByTestId('handoff-note').fill('I was charged twice for order 4411.');
  await page.getByTestId('handoff-submit').click();
  const sent = page.getByTestId('handoff-sent');
  await expect(sent).toHaveText(
    'Sent to the Lumacast support team. A person will answer you by email at kim@example.com within two business days. They have this conversation. You can keep asking me meanwhile: I am the automated assistant, not the person who will answer.',
  );
  await expect(sent).toBeFocused();
  await expect(page.getByTestId('handoff-form')).toHaveCount(0);
  const handoffId = (await sent.getAttribute('data-handoff-id'))!;

  // One webhook: its signature verified with the standardwebhooks package, its id the hand-off's.
  await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
  const hook = receiver.received[0]!;
  const payload = new Webhook(WEBHOOK_SECRET).verify(hook.raw, hook.headers) as HandoffPayload;
  expect(hook.id).toBe(handoffId);
  expect(receiver.refused).toBe(0);
  const turns = recordedTurns(conversationId);
  expect(turns.map((t) => t.question)).toEqual(['can I get a refund?', 'I want to talk to a person']);
  const debugTurn = (id: string) => `${app.url}/debug/turns/${id}`;
  expect(payload).toMatchObject({
    type: 'handoff.created',
    data: {
      id: handoffId,
      conversationId,
      reason: 'asked',
      customer: { email: 'kim@example.com', note: 'I was charged twice for order 4411.' },
      page: { url: `${app.url}/`, title: expect.any(String) },
      links: { conversation: `${app.url}/debug?conversation=${conversationId}`, handoff: `${app.url}/debug/handoffs/${handoffId}` },
    },
  });
  expect(payload.data.transcript.map((e) => [e.role, e.text, e.debugUrl])).toEqual(
    turns.flatMap((t) => [
      ['customer', t.question, debugTurn(t.id)],
      ['assistant', t.reply, debugTurn(t.id)],
    ]),
  );

  // One email, to the support inbox only, the customer as Reply-To, with the same transcript and links.
  await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(1);
  const mail = smtp.mails[0]!;
  expect(mail.envelope).toEqual({ from: 'chat@lumacast.example', to: [SUPPORT_INBOX] });
  expect(mail.headers.get('to')).toBe(SUPPORT_INBOX);
  expect(mail.headers.get('reply-to')).toBe('kim@example.com');
  expect(mail.headers.get('message-id')).toBe(`<${handoffId}@lumacast.example>`);
  for (const t of turns) {
    expect(mail.text).toContain(t.question);
    for (const line of t.reply.split('\n')) expect(mail.text).toContain(line);
    expect(mail.text).toContain(debugTurn(t.id));
  }
  expect(mail.text).toContain(`${app.url}/debug/handoffs/${handoffId}`);
  expect(mail.text).toContain('I was charged twice for order 4411.');

  // The links open the turns on /debug, for an admin.
  const linked = await fetch(payload.data.transcript[0]!.debugUrl, { headers: admin });
  expect(linked.status).toBe(200);
  expect(await linked.text()).toContain('can I get a refund?');

  // The conversation stays handed off: after a reload, and in the turns after it.
  await page.reload();
  await expect(page.getByTestId('handoff-sent')).toContainText('A person will answer you by email at kim@example.com');
  await expect(page.getByTestId('handoff-open')).toHaveCount(0);
  await ask(page, 'I want to talk to a person');
  await lastReply(page, 3);
  await expect(page.getByTestId('handoff-offer')).toHaveCount(0); // handed off already: not offered again
  await expect(page.getByTestId('handoff-sent')).toBeVisible();
  await page.waitForTimeout(1500);
  expect(receiver.received).toHaveLength(1);
  expect(smtp.mails).toHaveLength(1);
});

test('the hand-off is offered after thin answers and after a thumbs-down; with no question asked yet the form wants a note', async ({ page }) => {
  await page.goto(app.url);
  await openChat(page);
  await page.getByTestId('chat-new').click();
  await page.getByTestId('handoff-open').click();
  await expect(page.getByTestId('handoff-form')).toContainText('What do you need help with?');
  await page.getByTestId('handoff-email').fill('lee@example.net');
  await page.getByTestId('handoff-submit').click();
  await expect(page.getByTestId('handoff-error')).toHaveText('Tell us what you need help with: this conversation has no messages yet.');
  await expect(page.getByTestId('handoff-note')).toBeFocused();
  await page.getByTestId('handoff-note').press('Escape'); // closes the form, not the chat
  await expect(page.getByTestId('handoff-form')).toHaveCount(0);
  await expect(page.getByTestId('handoff-open')).toBeFocused();
  await expect(page.getByTestId('chat-panel')).toBeVisible();

  await ask(page, 'xyzzy?'); // nothing in the KB: the floor fills in
  await lastReply(page, 1);
  await expect(page.getByTestId('handoff-offer')).toHaveCount(0);
  await ask(page, 'plugh plover?');
  await lastReply(page, 2);
  await expect(replies(page).nth(1).getByTestId('handoff-offer')).toHaveAttribute('data-reason', 'thin-answers');

  await ask(page, 'how do I start a live stream?');
  await lastReply(page, 3);
  await expect(replies(page).nth(2).getByTestId('handoff-offer')).toHaveCount(0);
  await replies(page).nth(2).getByTestId('chat-vote-down').click();
  const offer = replies(page).nth(2).getByTestId('handoff-offer');
  await expect(offer).toHaveAttribute('data-reason', 'down-vote');
  await offer.getByTestId('handoff-offer-open').click();
  await page.getByTestId('handoff-cancel').click();
  expect(receiver.received).toHaveLength(1); // nothing sent
});

test('bad input gets a clear 4xx and sends nothing: a malformed email, a 1 MB note, another visitor\'s conversation, 50 in a minute', async () => {
  const before = { hooks: receiver.received.length, mails: smtp.mails.length };
  // Three visitors' first turns, at once (an offline reply streams for about 2 s, mostly pauses between words).
  const [lee, , flood] = await Promise.all([
    chatTurn(app, 'conv-e2e-lee-0001', 'can I get a refund?'),
    chatTurn(app, 'conv-e2e-other-001', 'how do I start a live stream?'), // another visitor's
    chatTurn(app, 'conv-e2e-flood-000', 'can I get a refund?'),
  ]);
  const body = (conversationId: string, more: Record<string, unknown> = {}) => ({ conversationId, email: 'lee@example.net', reason: 'asked', ...more });
  const refusals: [string, Response, number, RegExp][] = [
    ['a malformed email', await postHandoff(app, body('conv-e2e-lee-0001', { email: 'lee(at)example.net' }), lee.cookie), 400, /^email: email must be an email address/],
    ['an email carrying a second header', await postHandoff(app, body('conv-e2e-lee-0001', { email: 'lee@example.net\r\nBcc: victim@example.org' }), lee.cookie), 400, /^email: /],
    ['a 1 MB note', await postHandoff(app, body('conv-e2e-lee-0001', { note: 'x'.repeat(1024 * 1024) }), lee.cookie), 413, /the note can be at most 2000 characters/],
    ["another visitor's conversation", await postHandoff(app, body('conv-e2e-other-001'), lee.cookie), 404, /^no conversation with this id in this browser/],
    ['no visitor cookie', await postHandoff(app, body('conv-e2e-other-001')), 403, /^no visitor cookie/],
  ];
  for (const [what, response, status, error] of refusals) {
    expect(response.status, what).toBe(status);
    expect(((await response.json()) as { error: string }).error, what).toMatch(error);
  }

  // 50 in a minute from one visitor: the limit (5 an hour) lets five through, then 429 with Retry-After.
  const statuses: number[] = [];
  let retryAfter: string | null = null;
  for (let i = 0; i < 50; i++) {
    const response = await postHandoff(app, { conversationId: `conv-e2e-flood-${String(i).padStart(3, '0')}`, email: 'flood@example.org', note: `spam ${i}`, reason: 'asked' }, flood.cookie);
    statuses.push(response.status);
    if (response.status === 429) {
      retryAfter = response.headers.get('retry-after');
      expect(((await response.json()) as { error: string }).error).toMatch(/^Too many requests for a person from this browser/);
    } else await response.body?.cancel();
  }
  expect(statuses.filter((s) => s === 201)).toHaveLength(5);
  expect(statuses.slice(5)).toEqual(Array(45).fill(429));
  expect(Number(retryAfter)).toBeGreaterThan(0);

  // Only the five accepted ones are delivered; nothing of the refused; no mail ever to a customer.
  await expect.poll(() => receiver.received.length - before.hooks, { timeout: 15_000 }).toBe(5);
  await expect.poll(() => smtp.mails.length - before.mails, { timeout: 15_000 }).toBe(5);
  await new Promise((r) => setTimeout(r, 1500));
  const delivered = receiver.received.slice(before.hooks).map((r) => (r.body as HandoffPayload).data.conversationId);
  expect(delivered.sort()).toEqual(['conv-e2e-flood-000', 'conv-e2e-flood-001', 'conv-e2e-flood-002', 'conv-e2e-flood-003', 'conv-e2e-flood-004']);
  expect(smtp.mails).toHaveLength(before.mails + 5);
  for (const mail of smtp.mails) {
    expect(mail.envelope.to).toEqual([SUPPORT_INBOX]);
    for (const customer of CUSTOMERS) expect(mail.envelope.to).not.toContain(customer);
    expect(mail.raw).not.toMatch(/^(cc|bcc):/im);
  }
});

test('/debug shows the hand-off, its attempts and the deflection rate; a failed delivery is retried from there', async ({ page }) => {
  test.setTimeout(60_000);
  // A hand-off whose webhook cannot be delivered within its 3 s: failed, and visible.
  await receiver.down();
  const dana = await chatTurn(app, 'conv-e2e-dana-0001', 'why does my video keep buffering?');
  const created = await postHandoff(app, { conversationId: 'conv-e2e-dana-0001', email: 'dana@example.com', reason: 'thin-answers' }, dana.cookie);
  expect(created.status).toBe(201);
  const { handoff } = (await created.json()) as { handoff: { id: string } };
  await expect.poll(async () => (await debugHandoff(app, handoff.id)).status, { timeout: 15_000 }).toBe('failed');

  await page.setExtraHTTPHeaders(admin);
  await page.goto(`${app.url}/debug/handoffs`);
  const row = page.locator(`[data-testid="handoff-row"][data-handoff-id="${handoff.id}"]`);
  await expect(row).toHaveAttribute('data-status', 'failed');
  await expect(row.locator('[data-testid="handoff-delivery"][data-channel="webhook"]')).toContainText(/webhook: failed, \d+ attempts/);
  await expect(row.locator('[data-testid="handoff-delivery"][data-channel="webhook"]')).toContainText('fetch failed');
  await expect(row.locator('[data-testid="handoff-delivery"][data-channel="email"]')).toContainText('email: sent, 1 attempt');
  const first = page.locator('[data-testid="handoff-row"]').last();
  await expect(first).toHaveAttribute('data-status', 'sent'); // the browser test's hand-off, oldest

  // "Retry now", with the receiver back: delivered.
  await receiver.up();
  await row.getByTestId('handoff-retry').click();
  await expect(page).toHaveURL(`${app.url}/debug/handoffs/${handoff.id}`);
  await expect.poll(async () => (await debugHandoff(app, handoff.id)).status, { timeout: 15_000 }).toBe('sent');
  await page.reload();
  const detail = page.getByTestId('handoff-detail');
  await expect(detail).toHaveAttribute('data-status', 'sent');
  const attempts = page.locator('[data-testid="handoff-attempt"][data-channel="webhook"]');
  expect(await attempts.count()).toBeGreaterThanOrEqual(3);
  await expect(attempts.first()).toHaveAttribute('data-ok', 'false');
  await expect(attempts.first()).toContainText('fetch failed');
  await expect(attempts.last()).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('handoff-transcript')).toContainText('why does my video keep buffering?');
  expect(receiver.received.filter((r) => r.id === handoff.id)).toHaveLength(1);

  // The deflection rate: conversations with a turn that have no hand-off, over all of them.
  const db = new Database(path.join(root, 'traces.db'), { readonly: true });
  const conversations = db.prepare('SELECT COUNT(DISTINCT conversation_id) FROM turns').pluck().get() as number;
  const handedOff = db.prepare('SELECT COUNT(DISTINCT conversation_id) FROM turns WHERE conversation_id IN (SELECT conversation_id FROM handoffs)').pluck().get() as number;
  db.close();
  expect(handedOff).toBe(3); // the browser's, the flood's own conversation, dana's
  await page.goto(`${app.url}/debug/health`);
  const rate = formatPercent((conversations - handedOff) / conversations);
  await expect(page.getByTestId('deflection-rate')).toHaveText(rate);
  await expect(page.getByTestId('deflection-summary')).toContainText(`${conversations - handedOff} of ${conversations} conversations`);
  await expect(page.getByTestId('deflection-day')).toHaveCount(1);
  await expect(page.locator('[data-testid="handoff-reason"][data-reason="asked"]')).toContainText('6');
  await expect(page.locator('[data-testid="handoff-reason"][data-reason="thin-answers"]')).toContainText('1');
  await expect(page.getByTestId('section-before-handoff').first()).toBeVisible();
});
