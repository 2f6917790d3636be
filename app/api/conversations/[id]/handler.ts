import { conversationFromTurns } from '@/lib/chat/history';
import { visitorOf } from '@/lib/chat/visitor';
import { json, jsonError } from '@/lib/http';
import type { ConversationStore } from '@/lib/traces/types';
import { CONVERSATION_ID } from '../../chat/schema';

export interface ConversationDependencies {
  traces: () => ConversationStore;
  visitorSecret: () => Uint8Array;
}

/**
 * GET /api/conversations/:id — the customer's own conversation, to show it again after a
 * page reload: `{ conversationId, messages: [{ id, role, text }] }`. Only what the customer
 * typed and the replies they were shown; never knowledge, prompts or other trace fields.
 * It takes the id *and* the visitor cookie the conversation was started with: for any other
 * pair (no cookie, another browser's cookie, an id nobody used) the conversation is empty,
 * so the answer never says whether an id exists.
 */
export function createConversationHandler(deps: ConversationDependencies) {
  return async function handle(request: Request, id: string): Promise<Response> {
    if (!CONVERSATION_ID.test(id)) return jsonError(400, 'conversation id must be 8 to 64 letters, digits, "-" or "_"');
    let turns;
    try {
      const visitor = visitorOf(request, deps.visitorSecret());
      turns = visitor ? await deps.traces().listVisitorConversation(id, visitor) : [];
    } catch (error) {
      console.error('[conversations] the trace store could not be read:', error);
      return jsonError(503, 'The conversation history is not available right now.');
    }
    return json({ conversationId: id, messages: conversationFromTurns(turns) });
  };
}
