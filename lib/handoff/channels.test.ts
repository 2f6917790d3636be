import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type SmtpTestServer } from '../testing/mail';
import { freePort } from '../testing/postgres';
import { startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver';
import type { ClaimedDelivery } from '../store/ports/handoffs';
import type { TurnTrace } from '../store/ports/turns';
import { errorChainText } from './channel';
import { createEmailSender } from './email';
import { buildPayload, payloadText, transcriptOf } from './payload';
import { createWebhookSender } from './webhook';

/** The two channels against real local receivers: an HTTP server that verifies signatures, an SMTP server. */

const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
const PUBLIC_URL = 'https://support.example.com';

function trace(id: string, question: string, reply: string, more: Partial<TurnTrace> = {}): TurnTrace {
  return { id, conversationId: 'conv-12345678', createdAt: `2026-05-04T09:0${id.length % 10}:00.000Z`, trigger: 'submit-message', question, reply, status: 'ok', finishedAt: '2026-05-04T09:09:09.000Z', ...more } as TurnTrace;
}

const turns = [
  trace('t1', 'can I get a refund?', 'Refunds are possible within 14 days (Billing FAQ › Can I get a refund?).'),
  trace('t2', 'I want to talk to a person', 'I am an automated assistant: use "Talk to a person" below.'),
];
const payload = buildPayload({
  id: 'ho_test_1',
  conversationId: 'conv-12345678',
  createdAt: '2026-05-04T09:10:00.000Z',
  reason: 'asked',
  email: 'kim@example.com',
  note: 'Order 4411, charged twice.\nPlease call back.',
  page: { url: 'https://lumacast.com/pricing', title: 'Pricing' },
  turns,
  publicUrl: PUBLIC_URL,
});
const delivery = (channel: 'webhook' | 'email', attempt = 1): ClaimedDelivery => ({
  handoffId: 'ho_test_1',
  conversationId: 'conv-12345678',
  reason: 'asked',
  channel,
  attempt,
  payload: JSON.stringify(payload),
  retryUntil: '2026-05-05T09:10:00.000Z',
});

describe('the payload', () => {
  it('carries the conversation as the customer saw it, with a /debug link per turn, and links to the conversation and the hand-off', () => {
    expect(payload.type).toBe('handoff.created');
    expect(payload.data).toMatchObject({
      id: 'ho_test_1',
      reason: 'asked',
      customer: { email: 'kim@example.com', note: 'Order 4411, charged twice.\nPlease call back.' },
      page: { url: 'https://lumacast.com/pricing', title: 'Pricing' },
      links: { conversation: 'https://support.example.com/debug?conversation=conv-12345678', handoff: 'https://support.example.com/debug/handoffs/ho_test_1' },
    });
    expect(payload.data.transcript.map((e) => [e.role, e.text, e.debugUrl])).toEqual([
      ['customer', 'can I get a refund?', 'https://support.example.com/debug/turns/t1'],
      ['assistant', 'Refunds are possible within 14 days (Billing FAQ › Can I get a refund?).', 'https://support.example.com/debug/turns/t1'],
      ['customer', 'I want to talk to a person', 'https://support.example.com/debug/turns/t2'],
      ['assistant', 'I am an automated assistant: use "Talk to a person" below.', 'https://support.example.com/debug/turns/t2'],
    ]);
  });

  it('a reply asked again replaces the one before; a reply that broke off says so', () => {
    const entries = transcriptOf(
      [
        trace('a', 'refund?', 'first answer'),
        trace('b', 'refund?', 'second answer', { trigger: 'regenerate-message' }),
        trace('c', 'and live?', 'Live strea', { status: 'aborted' }),
        trace('d', 'hello?', ''),
      ],
      'http://127.0.0.1:3000/',
    );
    expect(entries.map((e) => [e.role, e.text, e.turnId, e.status])).toEqual([
      ['customer', 'refund?', 'a', undefined],
      ['assistant', 'second answer', 'b', undefined],
      ['customer', 'and live?', 'c', undefined],
      ['assistant', 'Live strea', 'c', 'aborted'],
      ['customer', 'hello?', 'd', undefined],
    ]);
    expect(entries[0]!.debugUrl).toBe('http://127.0.0.1:3000/debug/turns/a');
  });

  it('as text: the customer, the note, every message with its link', () => {
    const text = payloadText(payload);
    expect(text).toContain('Customer: kim@example.com');
    expect(text).toContain('  Order 4411, charged twice.\n  Please call back.');
    expect(text).toContain('Page: Pricing — https://lumacast.com/pricing');
    expect(text).toMatch(/Customer, 2026-05-04T09:02:00.000Z:\n {2}can I get a refund\?\n {2}→ https:\/\/support.example.com\/debug\/turns\/t1/);
    expect(text).toContain('https://support.example.com/debug/handoffs/ho_test_1');
  });
});

describe('the webhook', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver(SECRET);
  });
  afterAll(() => receiver.down());

  it('POSTs the payload signed per Standard Webhooks; every attempt carries the same webhook id', async () => {
    const sender = createWebhookSender({ url: receiver.url, secret: SECRET, timeoutMs: 2000 });
    await sender.send(delivery('webhook'));
    await sender.send(delivery('webhook', 2));
    expect(receiver.refused).toBe(0);
    expect(receiver.received.map((r) => r.id)).toEqual(['ho_test_1', 'ho_test_1']);
    expect(receiver.received[0]!.body).toEqual(payload);
    expect(Math.abs(Number(receiver.received[0]!.timestamp) - Date.now() / 1000)).toBeLessThan(5);
    expect(sender.target).toBe(`127.0.0.1:${receiver.port}`);
  });

  it('a signature made with another secret does not verify (the receiver refuses it, and the sender sees why)', async () => {
    const other = createWebhookSender({ url: receiver.url, secret: `whsec_${Buffer.alloc(32, 9).toString('base64')}`, timeoutMs: 2000 });
    await expect(other.send(delivery('webhook'))).rejects.toThrow('HTTP 401: bad signature');
    expect(receiver.refused).toBe(1);
    expect(() => new Webhook(SECRET).verify(JSON.stringify(payload), { 'webhook-id': 'x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' })).toThrow();
  });

  it('anything but 2xx is a failed attempt that says why: an error status, a redirect (not followed), no answer, no server', async () => {
    const port = await freePort();
    const answers: Record<string, (res: import('node:http').ServerResponse) => void> = {
      '/500': (res) => res.writeHead(500).end('receiver down for maintenance'),
      '/302': (res) => res.writeHead(302, { location: 'https://elsewhere.example.com/' }).end(),
      '/hang': () => {},
    };
    const server = createServer((req, res) => answers[req.url!]?.(res)).listen(port, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const at = (p: string, timeoutMs = 2000) => createWebhookSender({ url: `${base}${p}`, secret: SECRET, timeoutMs }).send(delivery('webhook'));
    await expect(at('/500')).rejects.toThrow('HTTP 500: receiver down for maintenance');
    await expect(at('/302')).rejects.toThrow(/^HTTP 302$/);
    await expect(at('/hang', 300)).rejects.toThrow('no answer within 300 ms');
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    const nobody = createWebhookSender({ url: `http://127.0.0.1:${await freePort()}/hooks`, secret: SECRET, timeoutMs: 2000 });
    const refused = await nobody.send(delivery('webhook')).catch((e: unknown) => errorChainText(e));
    expect(refused).toMatch(/^fetch failed ← connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
  });
});

describe('the email', () => {
  let smtp: SmtpTestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp.stop());

  it('goes to the support inbox only, with the customer as Reply-To and the hand-off as its Message-ID', async () => {
    const sender = createEmailSender({ smtpUrl: smtp.url, to: 'support@lumacast.example', from: 'chat@lumacast.example', timeoutMs: 2000 });
    await sender.send(delivery('email'));
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.envelope).toEqual({ from: 'chat@lumacast.example', to: ['support@lumacast.example'] });
    expect(mail.headers.get('to')).toBe('support@lumacast.example');
    expect(mail.headers.get('reply-to')).toBe('kim@example.com');
    expect(mail.headers.has('cc')).toBe(false);
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.headers.get('message-id')).toBe('<ho_test_1@lumacast.example>');
    expect(mail.headers.get('subject')).toContain('a customer asks for a person');
    expect(mail.text.trimEnd()).toBe(payloadText(payload));
    expect(mail.text).toContain('I want to talk to a person');
    expect(mail.text).toContain('https://support.example.com/debug/turns/t2');
  });

  it('a customer address that tries to add recipients is still only the Reply-To', async () => {
    const sender = createEmailSender({ smtpUrl: smtp.url, to: 'support@lumacast.example', timeoutMs: 2000 });
    const hostile = { ...payload, data: { ...payload.data, customer: { email: 'kim@example.com, victim@example.net\r\nBcc: other@example.net', note: null } } };
    await sender.send({ ...delivery('email'), payload: JSON.stringify(hostile) });
    const mail = smtp.mails.at(-1)!;
    expect(mail.envelope.to).toEqual(['support@lumacast.example']);
    expect(mail.headers.has('bcc')).toBe(false);
    const head = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'));
    expect(head).not.toMatch(/^(bcc|cc):/im);
    expect(mail.headers.get('reply-to')).toMatch(/^<".*"@example\.net>$/); // one quoted address, not three
  });

  it('no SMTP server: a failed attempt that says why', async () => {
    const port = await freePort();
    const sender = createEmailSender({ smtpUrl: `smtp://127.0.0.1:${port}`, to: 'support@lumacast.example', timeoutMs: 1000 });
    await expect(sender.send(delivery('email'))).rejects.toThrow(/ECONNREFUSED/);
  });
});
