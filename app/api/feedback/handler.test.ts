import { describe, expect, it } from 'vitest';
import { createConversationHandler } from '../conversations/[id]/handler';
import { chatRequest, cookieFrom, harness, TEST_VISITOR_SECRET, validBody } from '../chat/testing';
import { signVisitor } from '@/lib/chat/visitor';
import { exportCustomerData } from '@/lib/admin/customer-data';
import { createFeedbackHandler } from './handler';

/** Feedback on replies: the visitor's own replies only, one vote each, changeable; bad bodies say what is wrong. */
async function setUp() {
  const h = harness();
  const reply = await h.handle(chatRequest(validBody('can I get a refund?', 'conv-feedback-01')));
  await reply.text();
  const turnId = reply.headers.get('x-turn-id')!;
  const cookie = cookieFrom(reply);
  const vote = createFeedbackHandler({ traces: () => h.store, visitorSecret: () => TEST_VISITOR_SECRET, redactor: () => h.redactor, knowledge: () => h.knowledge });
  const post = async (body: unknown, headers: Record<string, string> = { cookie }) => {
    const response = await vote(new Request('http://127.0.0.1/api/feedback', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }));
    return { status: response.status, body: (await response.json()) as { error?: string; vote?: string } };
  };
  return { h, turnId, cookie, post };
}

describe('POST /api/feedback', () => {
  it('stores one vote per reply, changeable, with an optional reason, and the history gives it back', async () => {
    const { h, turnId, cookie, post } = await setUp();
    expect(await post({ turnId, vote: 'up' })).toEqual({ status: 200, body: { turnId, vote: 'up' } });
    expect((await h.store.getTurn(turnId))!.feedback).toMatchObject({ vote: 'up' });
    expect((await post({ turnId, vote: 'down', reason: '  the price was wrong ' })).status).toBe(200);
    expect((await h.store.getTurn(turnId))!.feedback).toMatchObject({ vote: 'down', reason: 'the price was wrong' });

    const history = createConversationHandler({ traces: () => h.store, visitorSecret: () => TEST_VISITOR_SECRET });
    const read = await history(new Request('http://127.0.0.1/api/conversations/conv-feedback-01', { headers: { cookie } }), 'conv-feedback-01');
    const { messages } = (await read.json()) as { messages: { role: string; feedback?: unknown; sources?: { page: string; url?: string }[] }[] };
    expect(messages[1]!.feedback).toEqual({ vote: 'down', reason: 'the price was wrong' });
    expect(messages[1]!.sources?.map((s) => s.page)).toContain('billing/refund-policy.md');
  });

  it('TRACE_REDACT=store: the reason is stored, exported and answered with its personal data redacted; the address the KB states stays', async () => {
    const { h, turnId, post } = await setUp();
    const reason = 'wrong — write to support@lumacast.com or me, jürgen@müller.de, +44 20 7946 0958';
    const stored = 'wrong — write to support@lumacast.com or me, [email], [phone]';
    expect(await post({ turnId, vote: 'down', reason })).toEqual({ status: 200, body: { turnId, vote: 'down', reason: stored } });
    expect((await h.store.getTurn(turnId))!.feedback).toMatchObject({ vote: 'down', reason: stored });
    const exported = await exportCustomerData(h.store, new Uint8Array(32), { actor: 'test', via: 'cli', source: 'cli' }, { kind: 'visitor', value: (await h.store.getTurn(turnId))!.visitorId! });
    expect(exported.turns[0]!.feedback).toEqual({ vote: 'down', reason: stored });
  });

  it('TRACE_REDACT=off: the reason is stored as written', async () => {
    const h = harness({ env: { TRACE_REDACT: 'off' } });
    const reply = await h.handle(chatRequest(validBody('can I get a refund?', 'conv-feedback-02')));
    await reply.text();
    const vote = createFeedbackHandler({ traces: () => h.store, visitorSecret: () => TEST_VISITOR_SECRET, redactor: () => h.redactor });
    const turnId = reply.headers.get('x-turn-id')!;
    const body = JSON.stringify({ turnId, vote: 'down', reason: 'mail me at jan@example.com' });
    await vote(new Request('http://127.0.0.1/api/feedback', { method: 'POST', headers: { 'content-type': 'application/json', cookie: cookieFrom(reply) }, body }));
    expect((await h.store.getTurn(turnId))!.feedback).toMatchObject({ reason: 'mail me at jan@example.com' });
  });

  it("refuses another visitor's reply (404, as for an unknown id) and a request without a visitor cookie (403)", async () => {
    const { h, turnId, post } = await setUp();
    const stranger = `support_visitor=${signVisitor(TEST_VISITOR_SECRET, 'BBBBBBBBBBBBBBBBBBBBBB')}`;
    expect(await post({ turnId, vote: 'down' }, { cookie: stranger })).toEqual({ status: 404, body: { error: 'no reply with this id in your conversations' } });
    expect((await post({ turnId: 'no-such-turn', vote: 'down' })).status).toBe(404);
    expect(await post({ turnId, vote: 'down' }, {})).toEqual({ status: 403, body: { error: 'no visitor cookie: vote from the chat the reply was shown in' } });
    expect((await h.store.getTurn(turnId))!.feedback).toBeUndefined();
  });

  const bad: [string, unknown, RegExp][] = [
    ['no vote', { turnId: 't1' }, /^vote: vote must be "up" or "down"$/],
    ['a wrong vote', { turnId: 't1', vote: 'meh' }, /^vote: vote must be "up" or "down"$/],
    ['a turn id of the wrong shape', { turnId: '../x', vote: 'up' }, /^turnId: turnId must be 1 to 64 letters/],
    ['a reason too long', { turnId: 't1', vote: 'up', reason: 'x'.repeat(301) }, /^reason: reason can be at most 300 characters$/],
    ['a reason with a control character', { turnId: 't1', vote: 'up', reason: 'a\u0007b' }, /^reason: reason contains a control character$/],
    ['an unknown field', { turnId: 't1', vote: 'up', score: 5 }, /unknown field "score"/],
    ['not an object', ['up'], /must be a JSON object/],
    ['not JSON', '{"turnId":', /^the body is not valid JSON$/],
  ];
  for (const [name, body, error] of bad) {
    it(`answers 400 for ${name}, saying what is wrong`, async () => {
      const { post } = await setUp();
      const result = await post(body);
      expect(result.status).toBe(400);
      expect(result.body.error).toMatch(error);
    });
  }
});
