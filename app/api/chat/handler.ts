import { randomUUID } from 'node:crypto';
import { createUIMessageStream, createUIMessageStreamResponse, streamText } from 'ai';
import { describeModelError } from '../../../lib/ai/errors';
import { groundingFor, groundingProviderOptions } from '../../../lib/ai/grounding';
import type { ChatModel } from '../../../lib/ai/providers';
import type { Env } from '../../../lib/env';
import { bodyFailureResponse, jsonError, viaHttps } from '../../../lib/http';
import type { Knowledge } from '../../../lib/knowledge/load';
import type { RateLimiter } from '../../../lib/rate-limit/index';
import { clientKey } from '../../../lib/rate-limit/client';
import { kbVersionOf } from '../../../lib/traces/compact';
import type { TraceStore } from '../../../lib/traces/types';
import { conversationFromTurns, historyForTurn, type TurnHistory } from '../../../lib/chat/history';
import type { ChatMessageMetadata, ChatUIMessage } from '../../../lib/chat/message';
import { checkNumbers } from '../../../lib/chat/numbers';
import { TurnRecorder } from '../../../lib/chat/recorder';
import { semanticQueryFor } from '../../../lib/chat/semantic';
import { replySources, sourcePart } from '../../../lib/chat/sources';
import { customerMessagesOf, selectForTurn, toModelMessages } from '../../../lib/chat/turn';
import { newVisitorId, visitorOf, visitorSetCookie } from '../../../lib/chat/visitor';
import { startTurnTelemetry } from '../../../lib/telemetry/turn';
import { parseChatRequest, type ChatRequest } from './schema';

/**
 * The chat turn behind POST /api/chat, with its dependencies passed in, so tests (the
 * fuzz test, the handler tests) run it in-process with a temporary trace store, the offline
 * model and their own limiter. route.ts wires in the server's own.
 *
 * Anything but the reply stream is JSON `{ "error": … }` with a status that says whose fault it is: 4xx for a request that
 * cannot be served as sent (429 with Retry-After when the client sends too fast), 503 when
 * the app cannot serve any chat (knowledge base or trace store unavailable), and, as a last
 * resort, 500 for a bug — never an HTML error page, never a crashed process.
 */

export type ChatSettings = Pick<Env, 'CHAT_MAX_MESSAGES' | 'CHAT_MAX_MESSAGE_CHARS' | 'CHAT_MAX_BODY_BYTES' | 'TRUST_PROXY'>;

export interface ChatDependencies {
  settings: () => ChatSettings;
  limiter: () => RateLimiter;
  knowledge: () => Knowledge;
  chat: () => ChatModel;
  traces: () => TraceStore;
  /** The key that signs visitor cookies (lib/chat/visitor.ts). */
  visitorSecret: () => Uint8Array;
}

export const UNAVAILABLE_MESSAGE = 'The assistant is not available right now. Please try again later.';

/** A setup failure: the details in the server log, a plain 503 for the client. */
function unavailable(what: string, error: unknown): Response {
  console.error(`[chat] ${what}: ${error instanceof Error ? error.message : String(error)}`);
  return jsonError(503, UNAVAILABLE_MESSAGE);
}

interface VisitorConversation {
  visitorId: string;
  /** The visitor's new credential, when the request carried none (or a forged one). */
  setCookie: string | undefined;
  history: TurnHistory;
}

/**
 * Whose conversation this is, and the model's history for the turn: the server's record of
 * (conversation id, visitor) — empty for a visitor without a valid cookie — then the
 * question. Nothing but the question comes from the request body.
 */
async function visitorConversation(request: Request, traces: TraceStore, secret: Uint8Array, data: ChatRequest): Promise<VisitorConversation> {
  const known = visitorOf(request, secret);
  const visitorId = known ?? newVisitorId();
  const past = known ? conversationFromTurns(await traces.listVisitorConversation(data.conversationId, known)) : [];
  return {
    visitorId,
    setCookie: known ? undefined : visitorSetCookie(secret, visitorId, viaHttps(request)),
    history: historyForTurn(past, data.trigger, data.question),
  };
}

export function createChatHandler(deps: ChatDependencies): (request: Request) => Promise<Response> {
  let warnedAboutForwardedFor = false;

  /** One chat turn: limit → parse → visitor → history → select → record → stream → record how it ended. */
  async function turn(request: Request): Promise<Response> {
    const startedAt = performance.now();
    let settings: ChatSettings, limiter: RateLimiter, knowledge: Knowledge;
    try {
      settings = deps.settings();
      limiter = deps.limiter();
    } catch (error) {
      return unavailable('the environment is invalid', error);
    }

    // 1. Rate limit, before reading anything: per client address (see rate-limit/client.ts).
    const client = clientKey(request.headers, settings.TRUST_PROXY);
    if (client.ignoredForwardedFor && !warnedAboutForwardedFor) {
      warnedAboutForwardedFor = true;
      console.warn(
        '[chat] requests carry X-Forwarded-For but TRUST_PROXY=0, so rate limits apply per connection address. ' +
          'If the app runs behind a reverse proxy, set TRUST_PROXY to the number of proxies.',
      );
    }
    const decision = await limiter.take(client.key);
    if (!decision.allowed) {
      const seconds = decision.retryAfterSeconds;
      return jsonError(429, `Too many messages in a short time. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`, {
        'retry-after': String(seconds),
      });
    }

    try {
      knowledge = deps.knowledge();
    } catch (error) {
      return unavailable('the knowledge base is not available', error);
    }

    // 2. Parse: the standard chat body; only the newest customer message's text is used.
    const parsed = await parseChatRequest(request, {
      maxMessages: settings.CHAT_MAX_MESSAGES,
      maxMessageChars: settings.CHAT_MAX_MESSAGE_CHARS,
      maxBodyBytes: settings.CHAT_MAX_BODY_BYTES,
    });
    if (!parsed.ok) return bodyFailureResponse(parsed);
    const { conversationId } = parsed.data;

    // 3–4. The visitor (their signed cookie, or a new one sent with the reply) and the history:
    //      the server's own record of this visitor's conversation, then the question.
    let traces: TraceStore, conversation: VisitorConversation;
    try {
      traces = deps.traces();
      conversation = await visitorConversation(request, traces, deps.visitorSecret(), parsed.data);
    } catch (error) {
      return unavailable('the conversation could not be read', error);
    }
    const { visitorId, setCookie, history } = conversation;
    if (history.messages.length > settings.CHAT_MAX_MESSAGES) {
      return jsonError(400, `a conversation can have at most ${settings.CHAT_MAX_MESSAGES} messages: start a new conversation`);
    }
    const { messages, trigger } = history;

    // 5. Select: the knowledge for this question, and the system prompt built from it.
    //    With the semantic stage on, the query is embedded first (never fails the turn: BM25 alone, and the trace says why).
    //    Traced as the retrieval span of the turn when OpenTelemetry export is on (lib/telemetry).
    const telemetry = startTurnTelemetry(conversationId);
    const semantic = await semanticQueryFor(knowledge, customerMessagesOf(messages), request.signal);
    const selection = telemetry.select(knowledge, () => selectForTurn(knowledge.index, messages, knowledge.instructions, semantic));
    const sources = replySources(selection.selection, knowledge.pages);
    const chat = deps.chat();

    // 6. Record the turn before the model is called, so even a crash mid-stream leaves a trace.
    const turnId = randomUUID();
    let recorder: TurnRecorder;
    try {
      await traces.startTurn({
        id: turnId,
        conversationId,
        visitorId,
        createdAt: new Date().toISOString(),
        trigger,
        customerMessages: selection.customerMessages,
        question: selection.explanation.query.question,
        explanation: selection.explanation,
        systemPrompt: selection.systemPrompt,
        kb: kbVersionOf(knowledge.index, knowledge.instructions),
        provider: chat.provider,
        modelId: chat.modelId,
        selectionUs: selection.selectionUs,
        sources,
      });
      // When the reply ends, its numbers are checked against the knowledge sent (lib/chat/numbers.ts).
      recorder = new TurnRecorder(traces, turnId, startedAt, { checkReply: (reply) => checkNumbers(reply, selection.selection.context) });
    } catch (error) {
      telemetry.end(error);
      return unavailable('the turn could not be recorded', error);
    }
    recorder.watch(request.signal);

    // 7. Stream the reply. The recorder completes the trace however the stream ends.
    //    Retries (before the first token only) happen inside chat.model (lib/ai/retry.ts).
    const result = telemetry.run(() => streamText({
      model: chat.model,
      // The company's text only: instructions, pinned knowledge, reference material.
      system: selection.systemPrompt,
      // The customer's text only ever travels as user messages; assistant turns are the
      // replies this server streamed (the trace store), never text a client sent.
      messages: toModelMessages(messages),
      allowSystemInMessages: false,
      maxRetries: 0,
      abortSignal: request.signal,
      // Read by the offline model only (it quotes these sections); other providers ignore it.
      providerOptions: groundingProviderOptions(groundingFor(selection.selection, knowledge.kb.identity.company)),
      experimental_telemetry: telemetry.model,
      ...telemetry.track(turnId, recorder.callbacks),
    }));
    // The response starts now, with the turn id and the reply's sources (the AI SDK's source
    // parts), while the model is still being asked: the first byte does not wait for the provider's.
    const metadata: ChatMessageMetadata = { turnId, conversationId };
    const customerError = (error: unknown) => describeModelError(error).customer;
    const stream = createUIMessageStream<ChatUIMessage>({
      execute: ({ writer }) => {
        writer.write({ type: 'start', messageMetadata: metadata });
        for (const source of sources) writer.write(sourcePart(source));
        writer.merge(
          result.toUIMessageStream<ChatUIMessage>({
            sendStart: false,
            messageMetadata: ({ part }) => (part.type === 'finish' ? metadata : undefined),
            onError: customerError,
          }),
        );
      },
      onError: customerError,
    });
    return createUIMessageStreamResponse({
      stream,
      headers: { 'x-turn-id': turnId, 'cache-control': 'no-store', ...(setCookie ? { 'set-cookie': setCookie } : {}) },
    });
  }

  return async function handle(request: Request): Promise<Response> {
    try {
      return await turn(request);
    } catch (error) {
      console.error('[chat] unexpected error:', error);
      return jsonError(500, 'Something went wrong on our side. Please try again.');
    }
  };
}
