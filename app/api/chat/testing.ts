import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { CallOptions, LanguageModelV3, StreamPart } from '@/lib/ai/model-types';
import { OfflineModel } from '@/lib/ai/offline-model';
import type { ChatModel } from '@/lib/ai/providers';
import { withRetry } from '@/lib/ai/retry';
import { withSilenceTimeout } from '@/lib/ai/timeout';
import { parseEnv } from '@/lib/env';
import { loadKnowledge, type Knowledge } from '@/lib/knowledge/load';
import { createRedactor, type TraceRedactor } from '@/lib/privacy/redact';
import { createRateLimiter, type RateLimiter } from '@/lib/rate-limit/index';
import { SqliteStore } from '@/lib/store/sqlite';
import { createChatHandler, type ChatDependencies } from './handler';

/**
 * The chat handler in-process, for tests: the demo KB, a trace store in a temp folder, the
 * offline model streaming without pauses (or any model), no rate limit unless asked.
 */

let demo: Knowledge | undefined;
/** The demo KB (content/), loaded once per test file. */
export function demoKnowledge(): Knowledge {
  demo ??= loadKnowledge(path.join(import.meta.dirname, '..', '..', '..', 'content'));
  return demo;
}

export function chatModel(model: LanguageModelV3): ChatModel {
  return {
    model: withRetry(withSilenceTimeout(model, 5000), { maxRetries: 0, maxWaitMs: 0 }),
    provider: model.provider,
    modelId: model.modelId,
  };
}

/** The AI SDK's mock model, answering `reply` ("Noted.") to every call; `prompts` are the prompts it received. */
export function recordingModel(reply = 'Noted.'): MockLanguageModelV3 & { readonly prompts: CallOptions['prompt'][] } {
  const parts: StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: reply },
    { type: 'text-end', id: 't' },
    {
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
    },
  ];
  const model = new MockLanguageModelV3({
    provider: 'recording',
    modelId: 'recording-1',
    doStream: async () => ({ stream: simulateReadableStream({ chunks: parts }) }),
  });
  return Object.defineProperty(model, 'prompts', { get: () => model.doStreamCalls.map((call) => call.prompt) }) as MockLanguageModelV3 & {
    readonly prompts: CallOptions['prompt'][];
  };
}

export interface Harness {
  handle: (request: Request) => Promise<Response>;
  store: SqliteStore;
  knowledge: Knowledge;
  /** TRACE_REDACT as the handler applies it (the default: store). */
  redactor: TraceRedactor;
}

export function harness(
  options: {
    env?: Record<string, string>;
    model?: LanguageModelV3;
    limiter?: RateLimiter;
    knowledge?: ChatDependencies['knowledge'];
    identitySecret?: string;
    /** What the handler sees of the trace store (e.g. one whose writes fail); default: the store itself. */
    traces?: (store: SqliteStore) => ReturnType<ChatDependencies['traces']>;
  } = {},
): Harness {
  const settings = parseEnv({ CHAT_RATE_LIMIT_PER_MINUTE: '0', ...options.env });
  const store = new SqliteStore(path.join(mkdtempSync(path.join(tmpdir(), 'chat-handler-')), 'traces.db'));
  const chat = chatModel(options.model ?? new OfflineModel({ chunkDelayMs: 0 }));
  const limiter =
    options.limiter ?? createRateLimiter({ perMinute: settings.CHAT_RATE_LIMIT_PER_MINUTE, burst: settings.CHAT_RATE_LIMIT_BURST });
  const knowledge = demoKnowledge();
  const traces = options.traces?.(store) ?? store;
  const redactor = createRedactor({ mode: settings.TRACE_REDACT, phoneRegion: settings.TRACE_REDACT_PHONE_REGION });
  const handle = createChatHandler({
    settings: () => settings,
    limiter: () => limiter,
    knowledge: options.knowledge ?? (() => knowledge),
    chat: () => chat,
    traces: () => traces,
    visitorSecret: () => TEST_VISITOR_SECRET,
    identitySecret: () => options.identitySecret,
    redactor: () => redactor,
  });
  return { handle, store, knowledge, redactor };
}

export const TEST_VISITOR_SECRET = new Uint8Array(32).fill(7);

/** The Cookie header that the Set-Cookie of `response` asks for (the visitor credential). */
export function cookieFrom(response: Response): string {
  const setCookie = response.headers.get('set-cookie');
  if (!setCookie) throw new Error('the response set no cookie');
  return setCookie.split(';')[0]!;
}

/** A POST /api/chat request. `body` as a string or bytes is sent as is; anything else as JSON. */
export function chatRequest(body: unknown, headers: Record<string, string> = {}): Request {
  const raw = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
  return new Request('http://127.0.0.1/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: raw as BodyInit,
  });
}

let messageCount = 0;

/** A UI message as useChat makes it: one text part. */
export const uiMessage = (role: 'user' | 'assistant', text: string) => ({ id: `msg-${++messageCount}`, role, parts: [{ type: 'text', text }] });

/** The standard DefaultChatTransport body: the whole conversation. */
export const chatBody = (messages: { role: 'user' | 'assistant'; text: string }[], id = 'conv-12345678', trigger = 'submit-message') => ({
  id,
  messages: messages.map((m) => uiMessage(m.role, m.text)),
  trigger,
});

/** One new customer message, in the standard body. */
export const validBody = (text = 'can I get a refund?', conversationId = 'conv-12345678') => chatBody([{ role: 'user', text }], conversationId);
