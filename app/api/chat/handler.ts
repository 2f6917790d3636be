import type { ChatModel } from '@/lib/ai/providers';
import type { Env } from '@/lib/env';
import { errorText } from '@/lib/errors';
import { bodyFailureResponse, jsonError, UnavailableError } from '@/lib/http';
import type { Knowledge } from '@/lib/knowledge/load';
import { retrieveForTurn } from '@/lib/knowledge/retrieve';
import { acceptedLanguages, identityTexts } from '@/lib/retrieval/index';
import type { RateLimiter } from '@/lib/rate-limit/index';
import type { ConversationStore } from '@/lib/store/ports/conversations';
import type { HandoffStore } from '@/lib/store/ports/handoffs';
import type { TurnStore } from '@/lib/store/ports/turns';
import { handoffOfferFor, THIN_CONFIDENCE } from '@/lib/handoff/offer';
import { personMatcherOf } from '@/lib/handoff/phrases';
import { createRateGuard } from '@/lib/chat/rate-guard';
import { recordTurn } from '@/lib/chat/record-turn';
import { streamReply } from '@/lib/chat/stream-reply';
import { ownerOf, VISITOR_HEADER } from '@/lib/chat/owner';
import { readTurnRequest } from '@/lib/chat/request';
import { customerMessagesOf } from '@/lib/chat/turn';
import { turnRedaction } from '@/lib/chat/redaction';
import { visitorConversation } from '@/lib/chat/visitor-conversation';
import type { TraceRedactor } from '@/lib/privacy/redact';
import { startTurnTelemetry, telemetryOptions } from '@/lib/telemetry/turn';
import { parseChatRequest } from './schema';

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

export type ChatSettings = Pick<Env, 'CHAT_MAX_MESSAGES' | 'CHAT_MAX_MESSAGE_CHARS' | 'CHAT_MAX_BODY_BYTES' | 'TRUST_PROXY' | 'HANDOFF_OFFER_AFTER_THIN_TURNS'>;

export interface ChatDependencies {
  settings: () => ChatSettings;
  limiter: () => RateLimiter;
  /** The KB to answer from (a promise while the first load runs: the turn waits for it). */
  knowledge: () => Knowledge | Promise<Knowledge>;
  chat: () => ChatModel;
  /** The turn log and the visitor's conversations (the server's store), and what the hand-off offer reads of them. */
  traces: () => TurnStore & ConversationStore & Pick<HandoffStore, 'conversationSignals'>;
  /** The key that signs visitor cookies (lib/chat/visitor.ts). */
  visitorSecret: () => Uint8Array;
  /** EMBED_IDENTITY_SECRET: verifies the embed's signed-in users (lib/chat/identity.ts); undefined: none accepted. */
  identitySecret?: () => string | undefined;
  /** Personal data out of the trace (TRACE_REDACT): lib/chat/redaction.ts. */
  redactor: () => TraceRedactor;
}

export const UNAVAILABLE_MESSAGE = 'The assistant is not available right now. Please try again later.';

/** Runs `step`; a throw becomes an UnavailableError: a plain 503 for the client, and for the server log which step could not be served, and why. */
async function orUnavailable<T>(what: string, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new UnavailableError(UNAVAILABLE_MESSAGE, `${what}: ${errorText(error)}`, { cause: error });
  }
}

/**
 * Whether this turn offers the hand-off (lib/handoff/offer.ts): the customer asked for a person,
 * or the conversation's answers were thin. A store that cannot say leaves the offer out, never the reply.
 */
async function offerFor(
  settings: ChatSettings,
  knowledge: Knowledge,
  traces: Pick<HandoffStore, 'conversationSignals'>,
  turn: { conversationId: string; visitorId: string; trigger: 'submit-message' | 'regenerate-message'; question: string; retrieval: { selection: { floorUsed: boolean }; confidence: number } },
) {
  try {
    return await handoffOfferFor({
      question: turn.question,
      trigger: turn.trigger,
      match: { floorUsed: turn.retrieval.selection.floorUsed, confidence: turn.retrieval.confidence },
      asks: personMatcherOf(knowledge.kb.identity),
      settings: { afterThinTurns: settings.HANDOFF_OFFER_AFTER_THIN_TURNS, thinConfidence: THIN_CONFIDENCE },
      signals: () => traces.conversationSignals(turn.conversationId, turn.visitorId, THIN_CONFIDENCE),
    });
  } catch (error) {
    console.error(`[chat] the hand-off offer could not be decided: ${errorText(error)}`);
    return undefined;
  }
}

export function createChatHandler(deps: ChatDependencies): (request: Request) => Promise<Response> {
  const rateRefusal = createRateGuard();

  /** One chat turn: guard → parse → history → retrieve → stream → record (the start once the reply streams, then how it ended). */
  async function turn(request: Request): Promise<Response> {
    const startedAt = performance.now();
    const { settings, limiter } = await orUnavailable('the environment is invalid', () => ({ settings: deps.settings(), limiter: deps.limiter() }));
    // What the steps use of the request's head, read once; the body is read by step 2.
    const incoming = readTurnRequest(request, settings.TRUST_PROXY);

    // 1. Guard: the rate limit, before reading the body; then a KB to answer from.
    const refused = await rateRefusal(incoming.client, limiter);
    if (refused) return refused;
    const knowledge = await orUnavailable('the knowledge base is not available', deps.knowledge);

    // 2. Parse: the standard chat body; only the newest customer message's text is used.
    const parsed = await parseChatRequest(request, {
      maxMessages: settings.CHAT_MAX_MESSAGES,
      maxMessageChars: settings.CHAT_MAX_MESSAGE_CHARS,
      maxBodyBytes: settings.CHAT_MAX_BODY_BYTES,
    });
    if (!parsed.ok) return bodyFailureResponse(parsed);
    const { conversationId } = parsed.data;
    // Personal data in the question is replaced before anything is built from it (TRACE_REDACT).
    const redactor = deps.redactor();
    const redaction = turnRedaction(redactor, parsed.data.question, knowledge);

    // 3. History: whose conversation (a verified user, the visitor's signed cookie or the embed's
    //    own credential, or a new visitor sent with the reply: lib/chat/owner.ts) and the server's
    //    own record of it, then the question.
    const secret = await orUnavailable('the visitor secret is not available', deps.visitorSecret);
    const who = ownerOf(incoming.credentials, { visitor: secret, identity: deps.identitySecret?.() });
    if (!who.ok) return jsonError(who.status, who.error);
    const traces = await orUnavailable('the conversation could not be read', deps.traces);
    const { visitorId, userId, setCookie, credential, history } = await orUnavailable('the conversation could not be read', () =>
      visitorConversation(incoming, traces, secret, who, { ...parsed.data, question: redaction.question.text }),
    );
    if (history.messages.length > settings.CHAT_MAX_MESSAGES) {
      return jsonError(400, `a conversation can have at most ${settings.CHAT_MAX_MESSAGES} messages: start a new conversation`);
    }

    // 4. Retrieve: the knowledge for this question (lib/knowledge/retrieve.ts), traced as the
    //    turn's retrieval span when OpenTelemetry export is on (lib/telemetry).
    const telemetry = startTurnTelemetry(conversationId, {
      ...telemetryOptions(),
      ...(redactor.mode === 'off' ? {} : { redact: (text: string) => redaction.reply(text).text }),
    });
    const retrieval = await telemetry.retrieval(knowledge, () =>
      retrieveForTurn(knowledge, customerMessagesOf(history.messages), {
        signal: incoming.signal,
        languages: { widget: parsed.data.lang, accepted: acceptedLanguages(incoming.acceptLanguage) },
      }),
    );
    const chat = deps.chat();
    // Read after the first byte (stream-reply.ts): the offer goes with the reply's end.
    const handoffOffer = () => offerFor(settings, knowledge, traces, { conversationId, visitorId, trigger: history.trigger, question: parsed.data.question, retrieval });

    // 5. Stream the reply, and record the turn: its start row once the reply is on its way (so
    //    even a crash mid-stream leaves a trace), its ending however the stream ends, after the start.
    const page = parsed.data.page && redaction.page(parsed.data.page);
    const recorder = recordTurn(traces, { conversationId, visitorId, userId, page, trigger: history.trigger, retrieval, knowledge, chat, startedAt, redaction });
    recorder.watch(incoming.signal);
    const response = streamReply({
      chat,
      retrieval,
      messages: redaction.forModel(history.messages),
      company: knowledge.kb.identity.company,
      offlineTexts: identityTexts(knowledge.kb.identity, retrieval.selection.query.language?.customer).offline,
      conversationId,
      recorder,
      telemetry,
      signal: incoming.signal,
      headers: { ...(setCookie ? { 'set-cookie': setCookie } : {}), ...(credential ? { [VISITOR_HEADER]: credential } : {}) },
      handoffOffer,
    });
    recorder.begin();
    return response;
  }

  return async function handle(request: Request): Promise<Response> {
    try {
      return await turn(request);
    } catch (error) {
      if (error instanceof UnavailableError) {
        console.error(`[chat] ${error.reason}`);
        return error.toResponse();
      }
      console.error('[chat] unexpected error:', error);
      return jsonError(500, 'Something went wrong on our side. Please try again.');
    }
  };
}
