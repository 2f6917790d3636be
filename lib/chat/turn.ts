import type { ModelMessage } from 'ai';
import { ASSISTANT_INSTRUCTIONS, buildSystemPrompt } from '../ai/prompt';
import { selectContext, type Explanation, type RetrievalIndex } from '../retrieval/index';

/**
 * The selection step of a turn: what the selector sends for this conversation, how long
 * it took, and the exact system prompt built from it.
 */

export interface ChatText {
  role: 'user' | 'assistant';
  text: string;
}

export interface TurnSelection {
  /** Every customer message, oldest first (the selector reads the last two). */
  customerMessages: string[];
  explanation: Explanation;
  systemPrompt: string;
  /** Time the selector took, µs. */
  selectionUs: number;
}

/** `instructions`: the assistant's instructions for the KB in service (lib/ai/prompt.ts `assistantInstructions`). */
export function selectForTurn(index: RetrievalIndex, messages: readonly ChatText[], instructions = ASSISTANT_INSTRUCTIONS): TurnSelection {
  const customerMessages = messages.filter((m) => m.role === 'user').map((m) => m.text);
  const started = process.hrtime.bigint();
  const explanation = selectContext(index, customerMessages);
  const selectionUs = Number(process.hrtime.bigint() - started) / 1000;
  return { customerMessages, explanation, selectionUs, systemPrompt: buildSystemPrompt(explanation, index.pinnedContext, instructions) };
}

/** The conversation for the model: customer and assistant text only, empty messages left out. */
export function toModelMessages(messages: readonly ChatText[]): ModelMessage[] {
  return messages
    .filter((m) => m.text.trim().length > 0)
    .map((m) => (m.role === 'user' ? { role: 'user', content: m.text } : { role: 'assistant', content: m.text }));
}
