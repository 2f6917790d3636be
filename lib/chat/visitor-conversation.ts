import type { ConversationStore } from '../store/ports/conversations';
import type { TurnTrigger } from '../store/ports/turns';
import { conversationFromTurns, historyForTurn, type TurnHistory } from './history';
import { ownerKey, type Owner } from './owner';
import type { TurnRequest } from './request';
import { newVisitorId, signVisitor, visitorSetCookie } from './visitor';

/**
 * Whose conversation this is, and the model's history for the turn: the server's record of
 * (conversation id, owner) — a verified user, or the anonymous visitor (owner.ts); empty for a
 * request with neither — then the question. Nothing but the question comes from the request body.
 */

export interface VisitorConversation {
  /** The owner key the turn is recorded under: `user:<id>`, or the visitor id (a new one for a new visitor). */
  visitorId: string;
  /** The verified user, if any. */
  userId: string | undefined;
  /** The visitor's credential cookie, when the request carried none (or a forged one). */
  setCookie: string | undefined;
  /** In the embed: the signed visitor credential, which the frame keeps and sends when no cookie comes back (owner.ts VISITOR_HEADER). */
  credential: string | undefined;
  history: TurnHistory;
}

export async function visitorConversation(
  request: Pick<TurnRequest, 'https'>,
  traces: ConversationStore,
  secret: Uint8Array,
  who: { owner: Owner; embed: boolean },
  asked: { conversationId: string; trigger: TurnTrigger; question: string },
): Promise<VisitorConversation> {
  const { owner, embed } = who;
  const known = ownerKey(owner);
  const visitorId = known ?? newVisitorId();
  const past = known ? conversationFromTurns(await traces.listVisitorConversation(asked.conversationId, known)) : [];
  // A frame whose cookie did not come back (it sent the credential itself) is offered the cookie again.
  const needsCookie = owner.kind === 'none' || (embed && owner.kind === 'visitor' && owner.via === 'header');
  return {
    visitorId,
    userId: owner.kind === 'user' ? owner.userId : undefined,
    setCookie: needsCookie ? visitorSetCookie(secret, visitorId, request.https, embed) : undefined,
    credential: embed && owner.kind !== 'user' ? signVisitor(secret, visitorId) : undefined,
    history: historyForTurn(past, asked.trigger, asked.question),
  };
}
