import { randomUUID } from 'node:crypto';
import { streamText } from 'ai';
import { describeModelError } from '@/lib/ai/errors';
import { groundingFor, groundingProviderOptions } from '@/lib/ai/grounding';
import { getChatModel } from '@/lib/ai/providers';
import type { ChatMessageMetadata } from '@/lib/chat/message';
import { TurnRecorder } from '@/lib/chat/recorder';
import { selectForTurn, toModelMessages } from '@/lib/chat/turn';
import { env } from '@/lib/env';
import { jsonError } from '@/lib/http';
import { getKnowledge } from '@/lib/knowledge';
import { getTraceStore } from '@/lib/traces';
import { parseChatRequest } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** A setup failure (environment, knowledge base, trace store): loud in the log, a 503 for the client. */
function unavailable(what: string, error: unknown): Response {
  console.error(`[chat] ${what}:`, error);
  return jsonError(503, `${what}: ${error instanceof Error ? error.message : String(error)}`);
}

/** One chat turn: parse → select → record → stream → record how it ended. */
export async function POST(request: Request): Promise<Response> {
  const startedAt = performance.now();
  let settings, knowledge;
  try {
    settings = env();
    knowledge = getKnowledge();
  } catch (error) {
    return unavailable('The knowledge base could not be loaded', error);
  }

  // 1. Parse: a bounded conversation of customer and assistant text, nothing else.
  const parsed = await parseChatRequest(request, {
    maxMessages: settings.CHAT_MAX_MESSAGES,
    maxMessageChars: settings.CHAT_MAX_MESSAGE_CHARS,
  });
  if (!parsed.ok) return jsonError(parsed.status, parsed.error);
  const { conversationId, trigger, messages } = parsed.data;

  // 2. Select: the knowledge for this question, and the system prompt built from it.
  const selection = selectForTurn(knowledge.index, messages);
  const chat = getChatModel();

  // 3. Record the turn before the model is called, so even a crash mid-stream leaves a trace.
  const turnId = randomUUID();
  let recorder: TurnRecorder;
  try {
    const traces = getTraceStore();
    await traces.startTurn({
      id: turnId,
      conversationId,
      createdAt: new Date().toISOString(),
      trigger,
      customerMessages: selection.customerMessages,
      question: selection.explanation.query.question,
      explanation: selection.explanation,
      systemPrompt: selection.systemPrompt,
      provider: chat.provider,
      modelId: chat.modelId,
      selectionUs: selection.selectionUs,
    });
    recorder = new TurnRecorder(traces, turnId, startedAt);
  } catch (error) {
    return unavailable('The turn could not be recorded', error);
  }
  recorder.watch(request.signal);

  // 4. Stream the reply. The recorder completes the trace however the stream ends.
  const result = streamText({
    model: chat.model,
    system: selection.systemPrompt,
    messages: toModelMessages(messages),
    allowSystemInMessages: false,
    maxRetries: chat.maxRetries,
    abortSignal: request.signal,
    // Read by the offline model only (it quotes these sections); other providers ignore it.
    providerOptions: groundingProviderOptions(groundingFor(knowledge.index, selection.explanation)),
    ...recorder.callbacks,
  });
  const metadata: ChatMessageMetadata = { turnId, conversationId };
  return result.toUIMessageStreamResponse({
    headers: { 'x-turn-id': turnId, 'cache-control': 'no-store' },
    messageMetadata: ({ part }) => (part.type === 'start' || part.type === 'finish' ? metadata : undefined),
    onError: (error) => describeModelError(error).customer,
  });
}
