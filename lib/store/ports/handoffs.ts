import type { PageContext } from '../page';

/**
 * Hand-offs to a person (issue 24): what the store keeps of them and the ports that read and
 * write them. A hand-off is written with one delivery per channel (webhook, email) before the
 * customer is told it was sent; the delivery worker (lib/handoff/worker.ts) claims due
 * deliveries, sends them and records every attempt. Design: docs/handoff.md "When delivery fails".
 */

/** Why the customer was offered the hand-off: they asked (the button, or in their own words), thin answers in a row, or a down-vote. */
export type HandoffReason = 'asked' | 'thin-answers' | 'down-vote';
export const HANDOFF_REASONS: readonly HandoffReason[] = ['asked', 'thin-answers', 'down-vote'];

export type HandoffChannel = 'webhook' | 'email';

/** `pending` until sent (or retried until its deadline), then `sent` or `failed`. A hand-off's own status: failed if a delivery failed, sent when all were sent. */
export type DeliveryStatus = 'pending' | 'sent' | 'failed';

/** A new hand-off, as the handler writes it. */
export interface HandoffStart {
  /** Also the webhook id (`webhook-id`): the same on every attempt, so a receiver can drop a repeat. */
  id: string;
  conversationId: string;
  visitorId: string;
  /** ISO 8601. */
  createdAt: string;
  reason: HandoffReason;
  email: string;
  note?: string;
  /** The page the customer was on when they sent the form (untrusted). */
  page?: PageContext;
  /** The JSON document delivered (lib/handoff/payload.ts), frozen now: every attempt sends these bytes. */
  payload: string;
  /** The channels to deliver to; each gets a pending delivery, due at `createdAt`. */
  channels: HandoffChannel[];
  /** Deliveries are retried until then (ISO 8601), then marked failed. */
  retryUntil: string;
}

export interface DeliveryState {
  channel: HandoffChannel;
  status: DeliveryStatus;
  /** Attempts made (or in flight). */
  attempts: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt?: string;
  retryUntil: string;
  lastError?: string;
  sentAt?: string;
}

/** A hand-off as the widget and /debug see it. */
export interface HandoffRecord {
  id: string;
  conversationId: string;
  visitorId: string;
  createdAt: string;
  reason: HandoffReason;
  email: string;
  note?: string;
  page?: PageContext;
  status: DeliveryStatus;
  deliveries: DeliveryState[];
}

/** One attempt at delivering one channel. */
export interface DeliveryAttempt {
  channel: HandoffChannel;
  /** 1, 2, … per channel. */
  attempt: number;
  startedAt: string;
  durationMs: number;
  ok: boolean;
  error?: string;
  /** The process that made it (host:pid), so /debug shows which instance delivered. */
  instance: string;
}

/** A delivery the worker claimed: what it sends, and which attempt this is. */
export interface ClaimedDelivery {
  handoffId: string;
  conversationId: string;
  reason: HandoffReason;
  channel: HandoffChannel;
  attempt: number;
  payload: string;
  retryUntil: string;
}

/** How a claimed attempt went, as the worker records it. */
export interface AttemptResult {
  handoffId: string;
  channel: HandoffChannel;
  attempt: number;
  startedAt: string;
  durationMs: number;
  instance: string;
  /** `sent`; or `retry` at `nextAttemptAt`; or `failed` (its deadline passed). */
  outcome: { status: 'sent' } | { status: 'retry'; nextAttemptAt: string; error: string } | { status: 'failed'; error: string };
}

/** What a turn needs to know about its conversation to offer the hand-off (lib/handoff/offer.ts). */
export interface ConversationSignals {
  /** Turns of the conversation (this visitor's) whose floor filled in or whose BM25 confidence was under the threshold. */
  thinTurns: number;
  handedOff: boolean;
}

/** The chat, the hand-off API and the delivery worker. */
export interface HandoffStore {
  /**
   * Writes the hand-off and its deliveries in one transaction. A conversation (of one visitor)
   * has at most one hand-off: for a second, nothing is written and the first is returned.
   */
  createHandoff(handoff: HandoffStart): Promise<{ created: boolean; handoff: HandoffRecord }>;
  /** The visitor's hand-off of this conversation, if any. */
  conversationHandoff(conversationId: string, visitorId: string): Promise<HandoffRecord | undefined>;
  /** Thin turns so far and whether it was handed off, for the visitor's conversation (a turn whose confidence is not recorded counts by its floor alone). */
  conversationSignals(conversationId: string, visitorId: string, thinBelowConfidence: number): Promise<ConversationSignals>;
  /**
   * Claims up to `limit` pending deliveries due at `now` whose lease (if any) has run out:
   * each gets the next attempt number and a lease until `leaseUntil`. With several instances
   * on one PostgreSQL database, a delivery is claimed by one of them (FOR UPDATE SKIP LOCKED).
   */
  claimDeliveries(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt, and — unless another worker has claimed the delivery since — its outcome (and the hand-off's status). */
  finishAttempt(result: AttemptResult): Promise<void>;
  /** /debug "retry now": the hand-off's failed deliveries are due again at `now`, retried until `retryUntil`. Returns how many. */
  retryFailed(handoffId: string, now: string, retryUntil: string): Promise<number>;
}
