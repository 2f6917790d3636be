import type { UIMessage } from 'ai';

/** Metadata on each assistant message of the chat stream: which turn (trace) produced it. */
export type ChatMessageMetadata = {
  turnId: string;
  conversationId: string;
};

export type ChatUIMessage = UIMessage<ChatMessageMetadata>;
