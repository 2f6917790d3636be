import { randomUUID } from 'node:crypto';
import type { ChatModel } from '../ai/providers';
import type { Knowledge } from '../knowledge/load';
import type { TurnRetrieval } from '../knowledge/retrieve';
import { kbVersionOf } from '../traces/compact';
import type { PageContext, TraceStore, TurnTrigger } from '../traces/types';
import { checkNumbers } from './numbers';
import { TurnRecorder } from './recorder';

/**
 * A turn's trace, written before the model is called (status `pending`), so even a crash
 * mid-stream leaves a trace; the returned recorder completes it however the reply ends, and
 * checks the reply's numbers against the knowledge sent (numbers.ts).
 */
export async function recordTurnStart(
  traces: TraceStore,
  turn: {
    conversationId: string;
    visitorId: string;
    /** The verified signed-in user (lib/chat/identity.ts), if any. */
    userId?: string;
    /** The embedding page, as the embed reported it (untrusted: stored and shown, never sent to the model). */
    page?: PageContext;
    trigger: TurnTrigger;
    retrieval: TurnRetrieval;
    knowledge: Pick<Knowledge, 'index' | 'instructions'>;
    chat: Pick<ChatModel, 'provider' | 'modelId'>;
    /** performance.now() when the request arrived. */
    startedAt: number;
  },
): Promise<TurnRecorder> {
  const { retrieval, knowledge, chat } = turn;
  const id = randomUUID();
  await traces.startTurn({
    id,
    conversationId: turn.conversationId,
    visitorId: turn.visitorId,
    createdAt: new Date().toISOString(),
    trigger: turn.trigger,
    customerMessages: retrieval.customerMessages,
    question: retrieval.explanation.query.question,
    explanation: retrieval.explanation,
    systemPrompt: retrieval.systemPrompt,
    kb: kbVersionOf(knowledge.index, knowledge.instructions),
    provider: chat.provider,
    modelId: chat.modelId,
    selectionUs: retrieval.selectionUs,
    sources: retrieval.sources,
    ...(turn.page ? { page: turn.page } : {}),
    ...(turn.userId ? { userId: turn.userId } : {}),
  });
  return new TurnRecorder(traces, id, turn.startedAt, { checkReply: (reply) => checkNumbers(reply, retrieval.selection.context) });
}
