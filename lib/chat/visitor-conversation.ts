import { viaHttps } from '../http';
import type { ConversationStore, TurnTrigger } from '../traces/types';
import { conversationFromTurns, historyForTurn, type TurnHistory } from './history';
import { newVisitorId, visitorOf, visitorSetCookie } from './visitor';

/**
 * Whose conversation this is, and the model's history for the turn: the server's record of
 * (conversation id, visitor) — empty for a visitor without a valid cookie — then the
 * question. Nothing but the question comes from the request body.
 */

export interface VisitorConversation {
  visitorId: string;
  /** The visitor's new credential, when the request carried none (or a forged one). */
  setCookie: string | undefined;
  history: TurnHistory;
}

export async function visitorConversation(
  request: Request,
  traces: ConversationStore,
  secret: Uint8Array,
  asked: { conversationId: string; trigger: TurnTrigger; question: string },
): Promise<VisitorConversation> {
  const known = visitorOf(request, secret);
  const visitorId = known ?? newVisitorId();
  const past = known ? conversationFromTurns(await traces.listVisitorConversation(asked.conversationId, known)) : [];
  return {
    visitorId,
    setCookie: known ? undefined : visitorSetCookie(secret, visitorId, viaHttps(request)),
    history: historyForTurn(past, asked.trigger, asked.question),
  };
}
