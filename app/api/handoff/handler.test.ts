import { describe, expect, it, vi } from 'vitest';
import { pageRedaction } from '@/lib/chat/redaction';
import { createHandoffLimits } from '@/lib/handoff/limits';
import { createRedactor } from '@/lib/privacy/redact';
import type { HandoffPayload } from '@/lib/handoff/payload';
import { PEER_HEADER } from '@/lib/rate-limit/client';
import { chatRequest, cookieFrom, harness, TEST_VISITOR_SECRET, validBody } from '../chat/testing';
import { createHandoffHandlers } from './handler';

/**
 * POST and GET /api/handoff in-process, on the chat's own store: conversations are made by the
 * chat handler (offline model), hand-offs by the hand-off handler, and the store is read back.
 */

function setup(options: { channels?: ('webhook' | 'email')[]; perHour?: number; perSite?: number; trustProxy?: number } = {}) {
  const chat = harness();
  const written = vi.fn();
  const handlers = createHandoffHandlers({
    settings: () => ({ PUBLIC_URL: 'https://support.example.com', HANDOFF_RETRY_SECONDS: 86_400, TRUST_PROXY: options.trustProxy ?? 0 }),
    channels: () => options.channels ?? ['webhook', 'email'],
    store: () => chat.store,
    visitorSecret: () => TEST_VISITOR_SECRET,
    limits: () => limits,
    identity: () => chat.knowledge.kb.identity,
    pageAsStored: pageRedaction(createRedactor({ mode: 'store' }), chat.knowledge),
    written,
    now: () => new Date('2026-05-04T10:00:00.000Z'),
  });
  const limits = createHandoffLimits({ perVisitor: options.perHour ?? 100, perSite: options.perSite ?? 1000 });
  /** A conversation of a new visitor with one turn; its cookie. */
  async function conversation(id: string, question = 'can I get a refund?'): Promise<string> {
    const response = await chat.handle(chatRequest(validBody(question, id)));
    await response.text();
    return cookieFrom(response);
  }
  /** POST /api/handoff as the visitor with `cookie`, from the connection address `from` (peer.ts's stamp) with any other headers. */
  const post = (body: unknown, cookie?: string, from = '192.0.2.1', headers: Record<string, string> = {}) =>
    handlers.POST(
      new Request('http://127.0.0.1/api/handoff', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [PEER_HEADER]: from, ...headers, ...(cookie ? { cookie } : {}) },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
  const get = (conversationId: string, cookie?: string) =>
    handlers.GET(new Request(`http://127.0.0.1/api/handoff?conversation=${conversationId}`, { headers: cookie ? { cookie } : {} }));
  const count = async () => (await chat.store.listHandoffs({}, 1, 100)).total;
  return { chat, handlers, written, post, get, conversation, count };
}

const valid = (conversationId: string, more: Record<string, unknown> = {}) => ({ conversationId, email: 'kim@example.com', note: 'Charged twice.', reason: 'asked', ...more });

describe('POST /api/handoff', () => {
  it('stores and delivers the page it was asked from redacted, as a turn\'s page (TRACE_REDACT=store)', async () => {
    const t = setup();
    const cookie = await t.conversation('conv-handoff-page');
    const page = { url: 'https://lumacast.com/account/reset/6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b?email=kim%40example.com#x', title: 'Account of kim@example.com' };
    const response = await t.post(valid('conv-handoff-page', { page }), cookie);
    expect(response.status).toBe(201);
    const stored = (await t.chat.store.getHandoff((await response.json()).handoff.id))!;
    expect(stored.page).toEqual({ url: 'https://lumacast.com/account/reset/[token]', title: 'Account of [email]' });
    expect(JSON.stringify(stored)).not.toContain('kim%40example.com');
    expect(stored.payload).not.toContain('6f1c2a9e');
  });

  it('writes the hand-off with a delivery per channel before answering 201, and asks for it to be delivered', async () => {
    const t = setup();
    const cookie = await t.conversation('conv-handoff-ok');
    const response = await t.post(valid('conv-handoff-ok', { page: { url: 'https://lumacast.com/pricing', title: 'Pricing' } }), cookie);
    expect(response.status).toBe(201);
    const { handoff } = await response.json();
    expect(handoff).toEqual({ id: expect.stringMatching(/^ho_[0-9a-f]{32}$/), createdAt: '2026-05-04T10:00:00.000Z', email: 'kim@example.com', reason: 'asked' });
    expect(t.written).toHaveBeenCalledTimes(1);
    const stored = (await t.chat.store.getHandoff(handoff.id))!;
    expect(stored).toMatchObject({ conversationId: 'conv-handoff-ok', status: 'pending', note: 'Charged twice.', page: { url: 'https://lumacast.com/pricing', title: 'Pricing' } });
    expect(stored.deliveries.map((d) => [d.channel, d.status, d.retryUntil])).toEqual([
      ['email', 'pending', '2026-05-05T10:00:00.000Z'],
      ['webhook', 'pending', '2026-05-05T10:00:00.000Z'],
    ]);
    const payload = JSON.parse(stored.payload) as HandoffPayload;
    expect(payload.data.transcript.map((e) => e.role)).toEqual(['customer', 'assistant']);
    expect(payload.data.transcript[0]).toMatchObject({ text: 'can I get a refund?', debugUrl: expect.stringMatching(/^https:\/\/support\.example\.com\/debug\/turns\//) });
    expect(payload.data.links.handoff).toBe(`https://support.example.com/debug/handoffs/${handoff.id}`);
  });

  it('a second hand-off of the conversation writes nothing: 409 with the first', async () => {
    const t = setup();
    const cookie = await t.conversation('conv-handoff-twice');
    const first = await (await t.post(valid('conv-handoff-twice'), cookie)).json();
    const again = await t.post(valid('conv-handoff-twice', { email: 'other@example.com' }), cookie);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: 'this conversation has been handed to a person already', handoff: first.handoff });
    expect(await t.count()).toBe(1);
    expect(t.written).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a malformed email', { email: 'kim at example' }, 'email: email must be an email address such as name@example.com'],
    ['an email with a second address', { email: 'kim@example.com, victim@example.net' }, 'email: email must be an email address'],
    ['an email with a header in it', { email: 'kim@example.com\r\nBcc: victim@example.net' }, 'email: email must be an email address'],
    ['an email over 254 characters', { email: `${'k'.repeat(250)}@example.com` }, 'email: email can be at most 254 characters'],
    ['a note over 2000 characters', { note: 'n'.repeat(2001) }, 'note: note can be at most 2000 characters'],
    ['a note with a control character', { note: 'hi\u0007' }, 'note: note contains a control character'],
    ['an unknown reason', { reason: 'bored' }, 'reason: reason must be one of "asked", "thin-answers", "down-vote"'],
    ['a page that is not a web address', { page: { url: 'javascript:alert(1)' } }, 'page.url: page.url must be the http(s) address of the page'],
    ['an unknown field', { cc: 'victim@example.net' }, 'body: unknown field "cc": send conversationId, email, note, reason and page'],
  ])('refuses %s with 400 saying what is wrong, writing nothing', async (_what, change, error) => {
    const t = setup();
    const cookie = await t.conversation('conv-handoff-bad');
    const response = await t.post(valid('conv-handoff-bad', change), cookie);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toContain(error);
    expect(await t.count()).toBe(0);
    expect(t.written).not.toHaveBeenCalled();
  });

  it('refuses a 1 MB note with 413 while reading, naming the note limit', async () => {
    const t = setup();
    const cookie = await t.conversation('conv-handoff-huge');
    const response = await t.post(valid('conv-handoff-huge', { note: 'n'.repeat(1024 * 1024) }), cookie);
    expect(response.status).toBe(413);
    expect((await response.json()).error).toBe('the request is too large (at most 16384 bytes): the note can be at most 2000 characters');
    expect(await t.count()).toBe(0);
  });

  it("refuses another visitor's conversation (404) and a request without a visitor cookie (403)", async () => {
    const t = setup();
    await t.conversation('conv-handoff-theirs');
    const mine = await t.conversation('conv-handoff-mine');
    const theirs = await t.post(valid('conv-handoff-theirs'), mine);
    expect(theirs.status).toBe(404);
    expect((await theirs.json()).error).toMatch(/^no conversation with this id in this browser/);
    const anonymous = await t.post(valid('conv-handoff-theirs'));
    expect(anonymous.status).toBe(403);
    const forged = await t.post(valid('conv-handoff-theirs'), `support_visitor=${'a'.repeat(32)}.${'b'.repeat(43)}`);
    expect(forged.status).toBe(403);
    expect(await t.count()).toBe(0);
  });

  it('limits each visitor (every request counts, refused ones too): 429 with Retry-After; another visitor is not limited by it', async () => {
    const t = setup({ perHour: 3 });
    const cookie = await t.conversation('conv-handoff-flood-0');
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await t.post(valid(`conv-handoff-flood-${i}`, { note: `try ${i}` }), cookie)).status);
    // 1: the visitor's conversation; 2, 3: conversations nobody used, with a note; then the limit.
    expect(statuses.slice(0, 3)).toEqual([201, 201, 201]);
    expect(statuses.slice(3)).toEqual(Array(47).fill(429));
    const refused = await t.post(valid('conv-handoff-flood-9'), cookie);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await refused.json()).error).toMatch(/^Too many requests for a person from this browser\. Please wait \d+ minutes? and try again\.$/);
    expect(await t.count()).toBe(3);
    const other = await t.conversation('conv-handoff-other');
    expect((await t.post(valid('conv-handoff-other'), other)).status).toBe(201);
  });

  /** One hand-off from each of `visitors` new visitors (a chat turn each, as a flood makes them), from `from`; the statuses. */
  async function newVisitors(t: ReturnType<typeof setup>, name: string, visitors: number, from: string, headers: (i: number) => Record<string, string> = () => ({})): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < visitors; i++) {
      const id = `conv-${name}-${i}`;
      statuses.push((await t.post(valid(id), await t.conversation(id), from, headers(i))).status);
    }
    return statuses;
  }

  it('limits each client address to 4 visitors\' hand-offs: a new visitor per hand-off (and a forged X-Forwarded-For) does not get more', async () => {
    const t = setup({ perHour: 2 }); // 2 a visitor, 8 an address
    const statuses = await newVisitors(t, 'ho-address', 12, '203.0.113.7', (i) => ({ 'x-forwarded-for': `198.51.100.${i + 1}` }));
    expect(statuses).toEqual([...Array(8).fill(201), ...Array(4).fill(429)]);
    const cookie = await t.conversation('conv-ho-address-refused');
    const refused = await t.post(valid('conv-ho-address-refused'), cookie, '203.0.113.7');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await refused.json()).error).toMatch(/^Too many requests for a person from your network\. Please wait \d+ minutes? and try again\.$/);
    // Nothing of the refused ones is written or sent.
    expect(await t.count()).toBe(8);
    expect(t.written).toHaveBeenCalledTimes(8);
    // Another address is not limited by it; an IPv6 address is limited by its /64.
    expect(await newVisitors(t, 'ho-address-other', 1, '198.51.100.20')).toEqual([201]);
    expect(await newVisitors(t, 'ho-address-v6', 9, '2001:db8:1:2::1')).toEqual([...Array(8).fill(201), 429]);
    expect(await newVisitors(t, 'ho-address-v6-same-64', 1, '2001:db8:1:2:ffff::9')).toEqual([429]);
  });

  it('behind a trusted proxy (TRUST_PROXY=1) limits the address the proxy saw, not the proxy', async () => {
    const t = setup({ perHour: 1, trustProxy: 1 }); // 4 an address
    const through = (address: string) => () => ({ 'x-forwarded-for': `10.9.9.9, ${address}` }); // the client's own hop, then the proxy's
    expect(await newVisitors(t, 'ho-proxy-a', 5, '10.0.0.2', through('203.0.113.8'))).toEqual([201, 201, 201, 201, 429]);
    expect(await newVisitors(t, 'ho-proxy-b', 1, '10.0.0.2', through('203.0.113.9'))).toEqual([201]);
  });

  it("limits the whole site (HANDOFF_SITE_RATE_LIMIT_PER_HOUR) across addresses; one address over its own limit does not use up the site's", async () => {
    const t = setup({ perHour: 1, perSite: 6 }); // 4 an address
    // One address floods: four get through, the rest are refused for the address and do not count for the site.
    expect(await newVisitors(t, 'ho-site-flood', 10, '203.0.113.1')).toEqual([...Array(4).fill(201), ...Array(6).fill(429)]);
    // Many addresses: the site lets two more through, then refuses every address.
    const spread: number[] = [];
    for (let i = 0; i < 4; i++) spread.push(...(await newVisitors(t, `ho-site-spread-${i}`, 1, `198.51.100.${i + 1}`)));
    expect(spread).toEqual([201, 201, 429, 429]);
    const cookie = await t.conversation('conv-ho-site-refused');
    const refused = await t.post(valid('conv-ho-site-refused'), cookie, '192.0.2.200');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await refused.json()).error).toMatch(/^Too many requests for a person on this site right now\. Please wait \d+ minutes? and try again\.$/);
    expect(await t.count()).toBe(6);
    expect(t.written).toHaveBeenCalledTimes(6);
  });

  it('a conversation nobody has used yet can be handed off with a note (no question asked yet), not without one', async () => {
    const t = setup();
    const cookie = await t.conversation('conv-handoff-first');
    const empty = await t.post(valid('conv-handoff-empty-1', { note: '' }), cookie);
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toBe('note: tell us what you need help with (this conversation has no messages yet)');
    expect((await t.post(valid('conv-handoff-empty-1', { note: 'My invoice is wrong.' }), cookie)).status).toBe(201);
  });

  it('answers 503 with the contact text when no channel is set up', async () => {
    const t = setup({ channels: [] });
    const cookie = await t.conversation('conv-handoff-off');
    const response = await t.post(valid('conv-handoff-off'), cookie);
    expect(response.status).toBe(503);
    expect((await response.json()).error).toBe(`Hand-off to a person is not set up on this site: ${t.chat.knowledge.kb.identity.handoff}`);
  });
});

describe('GET /api/handoff', () => {
  it("says whether hand-offs are on and when a person answers, and the visitor's own hand-off of the conversation", async () => {
    const t = setup();
    const cookie = await t.conversation('conv-handoff-get');
    const before = await (await t.get('conv-handoff-get', cookie)).json();
    expect(before).toEqual({ enabled: true, company: 'Lumacast', replyTime: 'within two business days', contact: expect.stringContaining('support@lumacast.com'), noteMaxChars: 2000, handoff: null });
    const { handoff } = await (await t.post(valid('conv-handoff-get'), cookie)).json();
    expect((await (await t.get('conv-handoff-get', cookie)).json()).handoff).toEqual(handoff);
    expect((await (await t.get('conv-handoff-get')).json()).handoff).toBeNull(); // no cookie: no hand-off
    const other = await t.conversation('conv-handoff-get-2');
    expect((await (await t.get('conv-handoff-get', other)).json()).handoff).toBeNull(); // another visitor's
    expect((await (await setup({ channels: [] }).get('conv-handoff-get')).json()).enabled).toBe(false);
  });
});

describe('the chat offers the hand-off', () => {
  const offerOf = async (response: Response) => {
    const text = await response.text();
    return /"handoffOffer":"([a-z-]+)"/.exec(text)?.[1];
  };

  it('when the customer asks for a person, and on the second thin turn (and after); never once handed off', async () => {
    const t = setup();
    const first = await t.chat.handle(chatRequest(validBody('can I get a refund?', 'conv-offer-1')));
    expect(await offerOf(first)).toBeUndefined();
    const cookie = cookieFrom(first);
    const ask = (text: string, conversation = 'conv-offer-1') => t.chat.handle(chatRequest(validBody(text, conversation), { cookie })).then(offerOf);
    expect(await ask('I want to talk to a person')).toBe('asked');
    // Thin: words the KB does not have, so the floor fills in (the query reads the last two messages).
    expect(await ask('xyzzy?', 'conv-offer-2')).toBeUndefined(); // the first thin turn
    expect(await ask('plugh plover?', 'conv-offer-2')).toBe('thin-answers'); // the second
    expect(await ask('frobnicate?', 'conv-offer-3')).toBeUndefined(); // thin turns count per conversation: its first
    expect((await t.post(valid('conv-offer-2'), cookie)).status).toBe(201);
    expect(await ask('I want to talk to a person', 'conv-offer-2')).toBeUndefined();
    expect(await ask('quux?', 'conv-offer-2')).toBeUndefined();
  });
});
