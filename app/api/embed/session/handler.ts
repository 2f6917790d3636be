import { conversationOwner, ownerKey } from '@/lib/chat/owner';
import { json, jsonError } from '@/lib/http';
import type { ConversationStore } from '@/lib/store/ports/conversations';

export interface EmbedSessionDependencies {
  traces: () => Pick<ConversationStore, 'latestVisitorConversation'>;
  visitorSecret: () => Uint8Array;
  identitySecret: () => string | undefined;
}

/**
 * GET /api/embed/session — what the embed frame asks when it starts (components/chat/embed/):
 * whose chat this is and which conversation to show.
 *
 * 200 `{ conversationId, user }`: the conversation the requester (a verified user, or the visitor
 * of the cookie or of the frame's own credential: lib/chat/owner.ts) last spoke in, or null — so a
 * reload resumes it even where the browser lets a third-party frame keep no storage, and a
 * signed-in customer finds it on another device; `user` is `{ id }` for a verified user, else null.
 * 401 `{ error }` when a claimed identity does not verify, saying why: the frame shows it and
 * continues anonymously. 503 when the store cannot be read.
 */
export function createEmbedSessionHandler(deps: EmbedSessionDependencies) {
  return async function handle(request: Request): Promise<Response> {
    try {
      const who = conversationOwner(request, { visitor: deps.visitorSecret(), identity: deps.identitySecret() });
      if (!who.ok) return jsonError(who.status, who.error);
      const owner = ownerKey(who.owner);
      const conversationId = owner ? ((await deps.traces().latestVisitorConversation(owner)) ?? null) : null;
      return json({ conversationId, user: who.owner.kind === 'user' ? { id: who.owner.userId } : null });
    } catch (error) {
      console.error('[embed] the session could not be read:', error);
      return jsonError(503, 'The chat is not available right now. Please try again later.');
    }
  };
}
