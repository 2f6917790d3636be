import type { TurnTrace } from '../store/ports/turns';
import type { Vote } from '../store/ports/feedback';
import type { ReplySource } from '../knowledge/sources';

/**
 * A conversation as the customer saw it, rebuilt from its turn traces: their messages and
 * the assistant's replies, nothing else (no knowledge, prompts or timings: this is what
 * the customer-facing history endpoint returns).
 */
export interface ConversationMessage {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  /** A reply's sources, as streamed with it (absent for replies recorded before sources were). */
  sources?: ReplySource[];
  /** The customer's own vote on a reply, if any. */
  feedback?: { vote: Vote; reason?: string };
}

function reply(turn: TurnTrace): ConversationMessage {
  return {
    id: turn.id,
    role: 'assistant',
    text: turn.reply,
    ...(turn.sources ? { sources: turn.sources } : {}),
    ...(turn.feedback ? { feedback: { vote: turn.feedback.vote, ...(turn.feedback.reason ? { reason: turn.feedback.reason } : {}) } } : {}),
  };
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
    if (turn.reply.trim()) messages.push(reply(turn));
  }
  return messages;
}

/** The conversation a turn sends to the model, and what the turn does. */
export interface TurnHistory {
  /** The server's record of the conversation, then the question (oldest first). */
  messages: ConversationMessage[];
  /**
   * `regenerate-message` only when the question is the server's own last question: the
   * server's last reply to it (if any) is left out and replaced. Otherwise the question is
   * a new one (e.g. the client retried a request the server refused before recording it).
   */
  trigger: TurnTrace['trigger'];
}

/**
 * The model's history for a turn, from the server's record (`past`, conversationFromTurns)
 * and the one thing taken from the client: the text of its newest customer message.
 */
export function historyForTurn(past: readonly ConversationMessage[], trigger: TurnTrace['trigger'], question: string): TurnHistory {
  if (trigger === 'regenerate-message') {
    const last = past.at(-1);
    if (last?.role === 'user' && last.text === question) return { messages: [...past], trigger };
    const asked = past.at(-2);
    if (last?.role === 'assistant' && asked?.role === 'user' && asked.text === question) return { messages: past.slice(0, -1), trigger };
  }
  return { messages: [...past, { id: 'question', role: 'user', text: question }], trigger: 'submit-message' };
}
