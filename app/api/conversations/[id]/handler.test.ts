import { describe, expect, it } from 'vitest';
import { chatRequest, cookieFrom, harness, TEST_VISITOR_SECRET, validBody } from '../../chat/testing';
import { signVisitor } from '@/lib/chat/visitor';
import { createConversationHandler } from './handler';

/** A conversation is read with its id and the visitor cookie it was started with (issue 11, finding 3). */
describe('GET /api/conversations/:id', () => {
  it('needs the id and the cookie: any other pair is an empty conversation, the same answer as an unknown id', async () => {
    const h = harness();
    const reply = await h.handle(chatRequest(validBody('can I get a refund?', 'conv-owned-0001')));
    await reply.text();
    const cookie = cookieFrom(reply);
    const read = createConversationHandler({ traces: () => h.store, visitorSecret: () => TEST_VISITOR_SECRET });
    const get = async (id: string, headers: Record<string, string> = {}) => {
      const response = await read(new Request(`http://127.0.0.1/api/conversations/${id}`, { headers }), id);
      expect(response.status).toBe(200);
      return (await response.json()) as { conversationId: string; messages: { role: string; text: string }[] };
    };

    const own = await get('conv-owned-0001', { cookie });
    expect(own.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(own.messages[0]!.text).toBe('can I get a refund?');

    const empty = { conversationId: 'conv-owned-0001', messages: [] };
    expect(await get('conv-owned-0001')).toEqual(empty); // the id alone (a screenshot, a log)
    expect(await get('conv-owned-0001', { cookie: `support_visitor=${signVisitor(TEST_VISITOR_SECRET, 'AAAAAAAAAAAAAAAAAAAAAA')}` })).toEqual(empty); // another visitor
    expect(await get('conv-owned-0001', { cookie: `${cookie.slice(0, -3)}abc` })).toEqual(empty); // a forged signature
    expect(await get('conv-nobody-0001', { cookie })).toEqual({ conversationId: 'conv-nobody-0001', messages: [] }); // an unknown id: the same

    // Continuing needs the cookie too: without it the turn starts a conversation of its own.
    const other = await h.handle(chatRequest(validBody('and live streaming?', 'conv-owned-0001')));
    await other.text();
    expect((await get('conv-owned-0001', { cookie })).messages.map((m) => m.text)[0]).toBe('can I get a refund?');
    expect((await get('conv-owned-0001', { cookie })).messages).toHaveLength(2);
    expect((await get('conv-owned-0001', { cookie: cookieFrom(other) })).messages[0]!.text).toBe('and live streaming?');
  });

  it('refuses a malformed id with 400', async () => {
    const h = harness();
    const read = createConversationHandler({ traces: () => h.store, visitorSecret: () => TEST_VISITOR_SECRET });
    expect((await read(new Request('http://127.0.0.1/api/conversations/x'), '../x')).status).toBe(400);
  });
});
