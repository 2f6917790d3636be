import { randomUUID } from 'node:crypto';
import type { ChatModel } from '../ai/providers';
import { errorText } from '../errors';
import type { Knowledge } from '../knowledge/load';
import type { TurnRetrieval } from '../knowledge/retrieve';
import { explainedRecordOf, kbVersionOf, turnRecordOf, type KbVersion, type TurnRecord } from '../retrieval/index';
import type { FinishRetryOptions } from '../store/finish';
import { TurnStartWrite } from '../store/start';
import type { PageContext } from '../store/page';
import type { TurnStore, TurnStart, TurnTrigger } from '../store/ports/turns';
import { checkNumbers } from './numbers';
import type { TurnRedaction } from './redaction';
import { TurnRecorder } from './recorder';

/** What a turn's record is made of (the customer's messages in `retrieval` arrive redacted: redaction.ts). */
export interface TurnToRecord {
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
  /** What of the turn's text is stored redacted (its question, its reply). */
  redaction?: Pick<TurnRedaction, 'question' | 'reply'>;
  /** How a failed write is retried (lib/store/finish.ts; tests shorten it). */
  retry?: FinishRetryOptions;
}

/**
 * A turn's recorder, made before the reply streams and writing nothing yet: its start row (status
 * `pending`, with the explanation's record: lib/retrieval/explain/record/to-record.ts) is built and written once
 * the reply has started (`recorder.begin()`), and its ending after that row, however the reply
 * ends; so even a crash mid-stream leaves a trace. The recorder checks the reply's numbers against
 * the knowledge sent (numbers.ts); the reply is redacted as it is stored.
 */
export function recordTurn(traces: TurnStore, turn: TurnToRecord): TurnRecorder {
  const id = randomUUID();
  const createdAt = new Date().toISOString();
  const start = new TurnStartWrite(traces, id, () => turnStart(id, createdAt, turn));
  return new TurnRecorder(traces, id, turn.startedAt, {
    start,
    checkReply: (reply) => checkNumbers(reply, turn.retrieval.selection.context),
    ...(turn.redaction ? { redactReply: turn.redaction.reply } : {}),
    ...(turn.retry ? { retry: turn.retry } : {}),
  });
}

/** The turn's record, straight from its selection; through its explanation should that fail (a bug: logged), so the turn is still stored. */
function recordOf(retrieval: TurnRetrieval, kb: KbVersion): TurnRecord {
  try {
    return turnRecordOf(retrieval.selection, retrieval.systemPrompt, kb, retrieval.promptLayout);
  } catch (error) {
    console.error(`[traces] the turn's record could not be made from its selection (${errorText(error)}); storing it from its explanation`);
    return explainedRecordOf(retrieval.explanation, retrieval.systemPrompt, kb);
  }
}

/** The start row: built when it is first written, after the reply started. */
function turnStart(id: string, createdAt: string, turn: TurnToRecord): TurnStart {
  const { retrieval, knowledge, chat } = turn;
  const kb = kbVersionOf(knowledge.index, knowledge.instructions);
  return {
    id,
    conversationId: turn.conversationId,
    visitorId: turn.visitorId,
    createdAt,
    trigger: turn.trigger,
    customerMessages: retrieval.customerMessages,
    question: retrieval.selection.query.question,
    record: recordOf(retrieval, kb),
    kb,
    provider: chat.provider,
    modelId: chat.modelId,
    selectionUs: retrieval.selectionUs,
    sources: retrieval.sources,
    ...(turn.page ? { page: turn.page } : {}),
    ...(turn.userId ? { userId: turn.userId } : {}),
    confidence: retrieval.confidence,
    ...(turn.redaction && Object.keys(turn.redaction.question.counts).length ? { redactions: turn.redaction.question.counts } : {}),
  };
}
