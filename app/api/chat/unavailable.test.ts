import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OfflineModel } from '@/lib/ai/offline-model';
import { newVisitorId, signVisitor, VISITOR_COOKIE } from '@/lib/chat/visitor';
import { USER_HEADER } from '@/lib/chat/embed-headers';
import { parseEnv } from '@/lib/env';
import { createRedactor } from '@/lib/privacy/redact';
import { createRateLimiter } from '@/lib/rate-limit/index';
import { PEER_HEADER } from '@/lib/rate-limit/client';
import { SqliteStore } from '@/lib/store/sqlite';
import { createChatHandler, UNAVAILABLE_MESSAGE, type ChatDependencies } from './handler';
import { chatModel, chatRequest, demoKnowledge, TEST_VISITOR_SECRET, validBody } from './testing';

/**
 * Each step of a turn that cannot be served answers a plain 503 and logs which step and why;
 * a bug answers 500; the steps keep their order (a 429 or 401 before a later step's 503).
 */

afterEach(() => vi.restoreAllMocks());

function handler(overrides: Partial<ChatDependencies> = {}) {
  const settings = parseEnv({ CHAT_RATE_LIMIT_PER_MINUTE: '0' });
  const store = new SqliteStore(path.join(mkdtempSync(path.join(tmpdir(), 'chat-unavailable-')), 'traces.db'));
  const chat = chatModel(new OfflineModel({ chunkDelayMs: 0 }));
  const limiter = createRateLimiter({ perMinute: 0, burst: 0 });
  const redactor = createRedactor({ mode: settings.TRACE_REDACT, phoneRegion: settings.TRACE_REDACT_PHONE_REGION });
  return createChatHandler({
    settings: () => settings,
    limiter: () => limiter,
    knowledge: () => demoKnowledge(),
    chat: () => chat,
    traces: () => store,
    visitorSecret: () => TEST_VISITOR_SECRET,
    redactor: () => redactor,
    ...overrides,
  });
}

const fails = (message: string) => () => {
  throw new Error(message);
};

/** The request of a returning visitor (its signed cookie): its conversation is read from the store. */
const returning = () => chatRequest(validBody(), { cookie: `${VISITOR_COOKIE}=${signVisitor(TEST_VISITOR_SECRET, newVisitorId())}` });

describe('chat handler: a step that cannot be served', () => {
  const steps: { name: string; overrides: Partial<ChatDependencies>; log: string; request?: () => Request }[] = [
    { name: 'the settings', overrides: { settings: fails('CHAT_MAX_MESSAGES: too big') }, log: '[chat] the environment is invalid: CHAT_MAX_MESSAGES: too big' },
    { name: 'the rate limiter', overrides: { limiter: fails('no limiter') }, log: '[chat] the environment is invalid: no limiter' },
    { name: 'the knowledge base', overrides: { knowledge: () => Promise.reject(new Error('b.md:3: bad')) }, log: '[chat] the knowledge base is not available: b.md:3: bad' },
    { name: 'the visitor secret', overrides: { visitorSecret: fails('data/ is not writable') }, log: '[chat] the visitor secret is not available: data/ is not writable' },
    { name: 'the store', overrides: { traces: fails('database is locked') }, log: '[chat] the conversation could not be read: database is locked' },
    {
      name: "the visitor's conversation",
      // What the handler sees of the store: its read of the conversation fails (with a thrown string, not an Error).
      overrides: { traces: () => ({ listVisitorConversation: () => Promise.reject('connection reset') }) as unknown as ReturnType<ChatDependencies['traces']> },
      log: '[chat] the conversation could not be read: connection reset',
      request: returning,
    },
  ];

  for (const { name, overrides, log, request } of steps) {
    it(`${name}: 503 with the plain message, and the step and its error in the log`, async () => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      const response = await handler(overrides)((request ?? (() => chatRequest(validBody())))());
      expect(response.status).toBe(503);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({ error: UNAVAILABLE_MESSAGE });
      expect(logged.mock.calls).toEqual([[log]]);
    });
  }

  it('a bug (a throw outside those steps): 500, the error logged as is', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const bug = new TypeError('chat is not a function');
    const response = await handler({
      chat: () => {
        throw bug;
      },
    })(chatRequest(validBody()));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Something went wrong on our side. Please try again.' });
    expect(logged.mock.calls).toEqual([['[chat] unexpected error:', bug]]);
  });
});

describe('chat handler: the steps keep their order', () => {
  it('the rate limit comes before the knowledge base: 429 while the KB is unavailable', async () => {
    const limiter = createRateLimiter({ perMinute: 1, burst: 1 });
    const handle = handler({ limiter: () => limiter, knowledge: fails('not loaded') });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const from = { [PEER_HEADER]: '203.0.113.7' };
    expect((await handle(chatRequest(validBody(), from))).status).toBe(503);
    expect((await handle(chatRequest(validBody(), from))).status).toBe(429);
  });

  it('the knowledge base comes before the body: 503 for a body that is not JSON', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect((await handler({ knowledge: fails('not loaded') })(chatRequest('{"id":'))).status).toBe(503);
  });

  it('the body comes before the visitor secret: 400 while the secret is unavailable', async () => {
    expect((await handler({ visitorSecret: fails('no secret') })(chatRequest('{"id":'))).status).toBe(400);
  });

  it('whose conversation comes before the store: 401 for a claimed user without a signature while the store is unavailable', async () => {
    const response = await handler({ traces: fails('database is locked') })(chatRequest(validBody(), { [USER_HEADER]: 'u-1' }));
    expect(response.status).toBe(401);
  });
});
