import { createUIMessageStream, createUIMessageStreamResponse, streamText } from 'ai';
import { describeModelError } from '../ai/errors';
import { groundingFor, groundingProviderOptions } from '../ai/grounding';
import type { ChatModel } from '../ai/providers';
import type { TurnRetrieval } from '../knowledge/retrieve';
import type { OfflineText } from '../retrieval/index';
import type { TurnTelemetry } from '../telemetry/turn';
import type { ChatMessageMetadata, ChatUIMessage } from './message';
import type { TurnRecorder } from './recorder';
import { sourcePart } from './source-parts';
import { toModelMessages, type ChatText } from './turn';

/**
 * The reply, streamed in the AI SDK's UI message stream protocol. The response starts at once,
 * with the turn id and the reply's sources (source parts); the hand-off offer is decided and
 * the model is called on the event loop's next turn, once those first bytes are on their way,
 * so the first byte waits for neither (nor for the provider's). The offer travels with the
 * finish part's metadata (the widget shows it when the reply has ended). The recorder completes
 * the trace however the stream ends; retries (before the first token only) happen inside
 * `chat.model` (lib/ai/retry.ts).
 */
/** Resolves on the event loop's next turn (after I/O callbacks: a response's first bytes written). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function streamReply(reply: {
  chat: ChatModel;
  retrieval: TurnRetrieval;
  /** The server's record of the conversation, then the question. */
  messages: readonly ChatText[];
  company: string | undefined;
  /** The offline model's phrases in the customer's language. */
  offlineTexts?: OfflineText;
  conversationId: string;
  recorder: TurnRecorder;
  telemetry: TurnTelemetry;
  signal: AbortSignal;
  headers: Record<string, string>;
  /** The hand-off this reply offers (lib/handoff/offer.ts), shown by the widget under it; decided after the first byte. */
  handoffOffer?: () => Promise<ChatMessageMetadata['handoffOffer']>;
}): Response {
  const { chat, retrieval, recorder, telemetry } = reply;
  const metadata: ChatMessageMetadata = { turnId: recorder.turnId, conversationId: reply.conversationId };
  const customerError = (error: unknown) => describeModelError(error).customer;
  const stream = createUIMessageStream<ChatUIMessage>({
    execute: async ({ writer }) => {
      writer.write({ type: 'start', messageMetadata: metadata });
      for (const source of retrieval.sources) writer.write(sourcePart(source));
      await nextTurn(); // the first bytes go out before the rest is set up
      const handoffOffer = await reply.handoffOffer?.();
      const result = telemetry.run(() =>
        streamText({
          model: chat.model,
          // The company's text only: instructions, pinned knowledge, reference material.
          system: retrieval.systemPrompt,
          // The customer's text only ever travels as user messages; assistant turns are the
          // replies this server streamed (the trace store), never text a client sent.
          messages: toModelMessages(reply.messages),
          allowSystemInMessages: false,
          maxRetries: 0,
          abortSignal: reply.signal,
          // Read by the offline model only (it quotes these sections); other providers ignore it.
          providerOptions: groundingProviderOptions(groundingFor(retrieval.selection, reply.company, { texts: reply.offlineTexts, personAsked: handoffOffer === 'asked' })),
          experimental_telemetry: telemetry.model,
          ...telemetry.track(recorder.turnId, recorder.callbacks),
        }),
      );
      const finished: ChatMessageMetadata = { ...metadata, ...(handoffOffer ? { handoffOffer } : {}) };
      writer.merge(
        result.toUIMessageStream<ChatUIMessage>({
          sendStart: false,
          messageMetadata: ({ part }) => (part.type === 'finish' ? finished : undefined),
          onError: customerError,
        }),
      );
    },
    onError: customerError,
  });
  return createUIMessageStreamResponse({
    stream,
    headers: { 'x-turn-id': recorder.turnId, 'cache-control': 'no-store', ...reply.headers },
  });
}
