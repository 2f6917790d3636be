import { conversationFromTurns } from '@/lib/chat/history';
import { json, jsonError } from '@/lib/http';
import { getTraceStore } from '@/lib/traces';
import { CONVERSATION_ID } from '../../chat/schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The customer's own conversation, to show it again after a page reload:
 * `{ conversationId, messages: [{ id, role, text }] }`. Only what the customer typed and
 * the replies they were shown; never knowledge, prompts or other trace fields.
 * The id is a random value the browser created and kept; an unknown id is an empty conversation.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  if (!CONVERSATION_ID.test(id)) return jsonError(400, 'conversation id must be 8 to 64 letters, digits, "-" or "_"');
  let turns;
  try {
    turns = await getTraceStore().listTurnsByConversation(id);
  } catch (error) {
    console.error('[conversations] the trace store could not be read:', error);
    return jsonError(503, 'The conversation history is not available right now.');
  }
  return json({ conversationId: id, messages: conversationFromTurns(turns) });
}
