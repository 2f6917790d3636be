import type { ConversationSignals, HandoffReason } from '../store/ports/handoffs';
import type { PersonMatcher } from './phrases';

/**
 * When a chat turn offers the hand-off (docs/handoff.md "When the chat offers it"): the customer asked for a
 * person in their own words (phrases.ts), or this is the N-th thin turn of the conversation —
 * the floor filled in, or BM25's confidence (lib/retrieval/select/score.ts) was under the
 * threshold. Never once the conversation has been handed off. The offer travels with the reply
 * (message metadata `handoffOffer`); the widget shows it under the reply. A down-vote's offer is
 * the widget's own (components/chat/handoff-state.ts).
 */

/** What a turn can offer the hand-off for (a down-vote's offer is the widget's own). */
export type TurnOfferReason = Exclude<HandoffReason, 'down-vote'>;

/**
 * BM25 confidence (the best section's score over the most any section could score) under which
 * a turn is thin: under a fifth, the best match shares little of the question. The same bar the
 * semantic stage uses by default to say BM25 found little (EMBEDDING_FUSE_BELOW). What a site
 * tunes is how many thin turns come before the offer (HANDOFF_OFFER_AFTER_THIN_TURNS); moving
 * the bar itself would need an eval of real conversations, which no deployment has to do.
 */
export const THIN_CONFIDENCE = 0.2;

export interface OfferSettings {
  /** Thin turns in a conversation before the offer (HANDOFF_OFFER_AFTER_THIN_TURNS); 0: never for thin turns. */
  afterThinTurns: number;
  /** BM25 confidence under which a turn is thin (the server's: THIN_CONFIDENCE). */
  thinConfidence: number;
}

/** What the turn's retrieval found. */
export interface TurnMatch {
  floorUsed: boolean;
  confidence: number;
}

export function isThinTurn(match: TurnMatch, thinConfidence: number): boolean {
  return match.floorUsed || match.confidence < thinConfidence;
}

export async function handoffOfferFor(turn: {
  question: string;
  /** `regenerate-message` asks the same question again: it is not another thin turn. */
  trigger: 'submit-message' | 'regenerate-message';
  match: TurnMatch;
  asks: PersonMatcher;
  settings: OfferSettings;
  /** The conversation so far (this turn not yet recorded); read only when an offer is possible. */
  signals: () => Promise<ConversationSignals>;
}): Promise<TurnOfferReason | undefined> {
  const asked = turn.asks.match(turn.question) !== undefined;
  const thin = turn.settings.afterThinTurns > 0 && isThinTurn(turn.match, turn.settings.thinConfidence);
  if (!asked && !thin) return undefined;
  const signals = await turn.signals();
  if (signals.handedOff) return undefined;
  if (asked) return 'asked';
  const thinTurns = signals.thinTurns + (turn.trigger === 'submit-message' ? 1 : 0);
  return thinTurns >= turn.settings.afterThinTurns ? 'thin-answers' : undefined;
}
