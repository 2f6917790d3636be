import type { TurnTrace } from '../traces/types';

/**
 * A conversation as the customer saw it, rebuilt from its turn traces: their messages and
 * the assistant's replies, nothing else (no knowledge, prompts or timings: this is what
 * the customer-facing history endpoint returns).
 */
export interface ConversationMessage {
  id: string;
  role: 'user' | 'assistant';
  text: string;
}

/**
 * Turns oldest first. A `submit-message` turn adds the customer's question and, when any
 * text came back, the reply. A `regenerate-message` turn (Retry) answers the same question
 * again: its reply replaces the previous reply, if there was one.
 */
export function conversationFromTurns(turns: readonly TurnTrace[]): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  for (const turn of turns) {
    if (turn.trigger === 'regenerate-message' && messages.at(-1)?.role === 'assistant') messages.pop();
    const last = messages.at(-1);
    const asked = turn.trigger === 'regenerate-message' && last?.role === 'user' && last.text === turn.question;
    if (!asked) messages.push({ id: `${turn.id}:question`, role: 'user', text: turn.question });
    if (turn.reply.trim()) messages.push({ id: turn.id, role: 'assistant', text: turn.reply });
  }
  return messages;
}
