import type { ReplySource } from '../../knowledge/sources';
import type { RedactionCounts } from '../../privacy/redact';
import type { Explanation, KbVersion, TurnRecord } from '../../retrieval/index';
import type { PageContext } from '../page';
import type { TurnFeedback } from './feedback';

export type { PageContext };

/**
 * Turn traces: one record per chat request, written when the turn starts and completed
 * when it ends, so a turn that dies mid-stream still leaves its row (status `pending`).
 *
 * Storage sits behind `TurnStore`; the route and the conversation endpoint only use
 * this interface: SQLite by default (sqlite.ts), PostgreSQL with DATABASE_URL (postgres.ts).
 */

/**
 * `pending` while the reply streams (and while a failed write of its ending is retried); a turn
 * whose server died mid-turn stays pending until the sweep (stale.ts) marks it `error`.
 */
export type TurnStatus = 'pending' | 'ok' | 'error' | 'aborted';

/** What the client asked for: a new customer message, or another reply to the last one. */
export type TurnTrigger = 'submit-message' | 'regenerate-message';

/** Token usage as the provider reported it (AI SDK's LanguageModelUsage, JSON-safe). */
export interface TurnUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  /** Anything else the provider reported (cache and reasoning details, raw usage). */
  [detail: string]: unknown;
}

/**
 * The owner key a verified user's turns and hand-offs are recorded under (`TurnStart.visitorId`,
 * lib/chat/owner.ts): the same on every device. Anonymous visitor ids never contain `:`.
 */
export function userOwnerKey(userId: string): string {
  return `user:${userId}`;
}

/** Everything known when the turn starts, before the model is called. */
export interface TurnStart {
  id: string;
  conversationId: string;
  /** The owner the turn came from: the anonymous visitor (lib/chat/visitor.ts), or a verified user's userOwnerKey; the conversation is theirs. */
  visitorId?: string;
  /** ISO 8601, UTC, ms precision. */
  createdAt: string;
  trigger: TurnTrigger;
  /** Every customer message of the conversation so far, oldest first (the last is the question). */
  customerMessages: string[];
  /** The latest customer message. */
  question: string;
  /**
   * The selector's explanation and the exact system prompt, as the store keeps them (a
   * `TurnRecord`): from the selection itself for a chat turn (`turnRecordOf`), or from an
   * explanation (`explainedRecordOf`). Read back, they give the explanation and the prompt
   * exactly (`TurnTrace.explanation`, `.systemPrompt`).
   */
  record: TurnRecord;
  /**
   * The KB version the turn was selected on (`kbVersionOf(index, instructions)`):
   * stored once per version, so the turn's record keeps only what is specific to it.
   */
  kb: KbVersion;
  /** AI SDK provider id, e.g. `openai.chat`, `openai.responses`, `offline`. */
  provider: string;
  modelId: string;
  /** Time the selector took, in microseconds. */
  selectionUs: number;
  /** The help pages the reply is grounded in (lib/knowledge/sources.ts), as streamed with it. */
  sources?: ReplySource[];
  /**
   * The page of the company's site the chat was embedded in, as the embed reported it: untrusted
   * input (any page script can say anything), shown in /debug, never sent to the model.
   */
  page?: PageContext;
  /**
   * The signed-in customer the embed verified (EMBED_IDENTITY_SECRET): their conversations are
   * bound to them, and `data:delete --user` finds them by it.
   */
  userId?: string;
  /** BM25's confidence for the question, 0–1 (lib/retrieval/select/score.ts): with the floor, what makes a turn thin (lib/handoff/offer.ts). */
  confidence?: number;
  /** Personal data replaced in the customer's messages before they were stored (TRACE_REDACT, lib/privacy/redact.ts). */
  redactions?: RedactionCounts;
}

/** How the turn ended. */
export interface TurnEnd {
  status: Exclude<TurnStatus, 'pending'>;
  /** The reply text streamed to the customer (partial on error or abort). */
  reply: string;
  usage?: TurnUsage;
  finishReason?: string;
  /** From the start of the request to the first reply text, ms. Absent if no text came. */
  firstTokenMs?: number;
  /** From the start of the request to the end of the turn, ms. */
  totalMs: number;
  /** Why the turn failed or was aborted (technical; never shown to customers). */
  error?: string;
  /** The reply's numbers checked against the knowledge sent (lib/chat/numbers.ts). */
  numbers?: NumberCheck;
  /** Personal data replaced in the reply before it was stored. */
  replyRedactions?: RedactionCounts;
}

export interface TurnTrace extends Omit<TurnStart, 'kb' | 'record'> {
  /** The full selector explanation: query with expanded terms, verdicts, token split, context. */
  explanation: Explanation;
  /** The exact system prompt sent to the model. */
  systemPrompt: string;
  /** The content hash of the KB version the turn was selected on (absent for turns recorded before KB versions were). */
  kbVersion?: string;
  status: TurnStatus;
  reply: string;
  usage?: TurnUsage;
  finishReason?: string;
  firstTokenMs?: number;
  totalMs?: number;
  error?: string;
  /** ISO 8601 time the turn ended. */
  finishedAt?: string;
  /** Absent for turns recorded before sources were. */
  sources?: ReplySource[];
  /** Absent until the turn ended (and for turns recorded before the check). */
  numbers?: NumberCheck;
  feedback?: TurnFeedback;
  replyRedactions?: RedactionCounts;
}

/** The reply's number check (lib/chat/numbers.ts), as stored with the turn. */
export type NumberKind = 'price' | 'percent' | 'duration' | 'amount';

export interface NumberMention {
  /** As written, with its unit: `$1,299.00`, `14-day`, `20%`. */
  text: string;
  kind: NumberKind;
  value: number;
  /** Normalised: `USD`, `%`, `day`, `gb`, `user`, … */
  unit: string;
}

export interface NumberCheck {
  /** Numbers with a unit the reply states (distinct by kind, unit and value). */
  checked: number;
  /** Those the sent knowledge does not state, in reply order. */
  unverified: NumberMention[];
}

/** The turn log: every turn written as it starts and completed as it ends (the chat route, retention, the pending-turn sweep). */
export interface TurnStore {
  /** Records a turn as `pending`. Throws if the id exists. */
  startTurn(turn: TurnStart): Promise<void>;
  /** Completes a pending turn. Returns false (and changes nothing) if it is unknown or already finished. */
  finishTurn(id: string, end: TurnEnd): Promise<boolean>;
  getTurn(id: string): Promise<TurnTrace | undefined>;
  /** The conversation's turns, oldest first, whoever sent them (for the inspector). */
  listTurnsByConversation(conversationId: string): Promise<TurnTrace[]>;
  /**
   * Retention: deletes up to `batchSize` turns made before `cutoff` (ISO 8601), oldest first,
   * with everything stored for them alone, in one short transaction. Returns how many went
   * (0 when none are left, or another instance is deleting).
   */
  deleteTurnsBefore(cutoff: string, batchSize: number): Promise<number>;
  /**
   * The pending-turn sweep (stale.ts): up to `batchSize` turns made before `cutoff` (ISO 8601)
   * and still `pending`, oldest first, become `error` with `reason` (their reply and usage left
   * as they are). Returns how many. A turn another instance is finishing at that moment is left
   * to it: exactly one ending wins.
   */
  closePendingTurnsBefore(cutoff: string, reason: string, batchSize: number): Promise<number>;
  /** Resolves when the store can serve (schema up to date, database answering); rejects with why not. */
  ready(): Promise<void>;
  close(): Promise<void>;
}
