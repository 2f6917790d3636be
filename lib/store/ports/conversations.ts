import type { TurnTrace } from './turns';

/** A visitor's own conversations: what the chat's model history and GET /api/conversations/:id are built from. */
export interface ConversationStore {
  /** The turns of `conversationId` sent by `visitorId`, oldest first. Empty for any other pair. */
  listVisitorConversation(conversationId: string, visitorId: string): Promise<TurnTrace[]>;
  /** The conversation `visitorId` sent their newest turn in (the embed resumes it, on any device of a verified user); undefined if none. */
  latestVisitorConversation(visitorId: string): Promise<string | undefined>;
}
