import type { ModelMessage } from 'ai';

/** The messages of a turn: the customer's (what the query is built from) and the model's conversation. */

export interface ChatText {
  role: 'user' | 'assistant';
  text: string;
}

/** The customer's messages of a conversation, oldest first. */
export function customerMessagesOf(messages: readonly ChatText[]): string[] {
  return messages.filter((m) => m.role === 'user').map((m) => m.text);
}

/** The conversation for the model: customer and assistant text only, empty messages left out. */
export function toModelMessages(messages: readonly ChatText[]): ModelMessage[] {
  return messages
    .filter((m) => m.text.trim().length > 0)
    .map((m) => (m.role === 'user' ? { role: 'user', content: m.text } : { role: 'assistant', content: m.text }));
}
