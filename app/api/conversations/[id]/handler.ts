import { conversationFromTurns } from '@/lib/chat/history';
import { conversationOwner, ownerKey } from '@/lib/chat/owner';
import { json, jsonError } from '@/lib/http';
import type { ConversationStore } from '@/lib/store/ports/conversations';
import { CONVERSATION_ID } from '../../chat/schema';

export interface ConversationDependencies {
  traces: () => ConversationStore;
  visitorSecret: () => Uint8Array;
  /** EMBED_IDENTITY_SECRET (lib/chat/identity.ts): a verified user reads their conversations from any device. */
  identitySecret?: () => string | undefined;
}

/**
 * GET /api/conversations/:id — the customer's own conversation, to show it again after a
 * page reload: `{ conversationId, messages: [{ id, role, text }] }`. Only what the customer
 * typed and the replies they were shown; never knowledge, prompts or other trace fields.
 * It takes the id *and* the visitor cookie the conversation was started with (or the embed's
 * own credential, or a verified user: lib/chat/owner.ts): for any other pair (no cookie, another
 * browser's cookie, an id nobody used) the conversation is empty, so the answer never says
 * whether an id exists. A claimed user whose signature does not verify gets 401, saying why.
 */
export function createConversationHandler(deps: ConversationDependencies) {
  return async function handle(request: Request, id: string): Promise<Response> {
    if (!CONVERSATION_ID.test(id)) return jsonError(400, 'conversation id must be 8 to 64 letters, digits, "-" or "_"');
    let turns;
    try {
      const who = conversationOwner(request, { visitor: deps.visitorSecret(), identity: deps.identitySecret?.() });
      if (!who.ok) return jsonError(who.status, who.error);
      const owner = ownerKey(who.owner);
      turns = owner ? await deps.traces().listVisitorConversation(id, owner) : [];
    } catch (error) {
      console.error('[conversations] the trace store could not be read:', error);
      return jsonError(503, 'The conversation history is not available right now.');
    }
    return json({ conversationId: id, messages: conversationFromTurns(turns) });
  };
}
