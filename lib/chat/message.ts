import type { UIMessage } from 'ai';

/** Metadata on each assistant message of the chat stream: which turn (trace) produced it. */
export type ChatMessageMetadata = {
  turnId: string;
  conversationId: string;
  /** The visitor's own vote on the reply (set from the conversation history). */
  feedback?: { vote: 'up' | 'down'; reason?: string };
  /** The turn offers the hand-off to a person: the customer asked for one, or the answers were thin (lib/handoff/offer.ts). */
  handoffOffer?: 'asked' | 'thin-answers';
};

export type ChatUIMessage = UIMessage<ChatMessageMetadata>;

/** A conversation id as the browser makes it and the server accepts it (8–64 letters, digits, `-` or `_`). */
export const CONVERSATION_ID = /^[A-Za-z0-9_-]{8,64}$/;
