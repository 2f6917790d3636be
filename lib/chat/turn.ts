import type { ModelMessage } from 'ai';
import { ASSISTANT_INSTRUCTIONS, buildSystemPrompt } from '../ai/prompt';
import { explain, select, type Explanation, type RetrievalIndex, type Selection, type SemanticQuery } from '../retrieval/index';

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
  /** What is sent (packer.ts): all the model call needs. */
  selection: Selection;
  /** The explanation of every decision, built on first use (for the trace and telemetry), not before. */
  readonly explanation: Explanation;
  systemPrompt: string;
  /** Time the selector took, µs. */
  selectionUs: number;
}

/** The customer's messages of a conversation, oldest first. */
export function customerMessagesOf(messages: readonly ChatText[]): string[] {
  return messages.filter((m) => m.role === 'user').map((m) => m.text);
}

/**
 * `instructions`: the assistant's instructions for the KB in service (lib/ai/prompt.ts
 * `assistantInstructions`); `semantic`: the semantic stage's query for this turn (lib/chat/semantic.ts), when it is on.
 */
export function selectForTurn(index: RetrievalIndex, messages: readonly ChatText[], instructions = ASSISTANT_INSTRUCTIONS, semantic?: SemanticQuery): TurnSelection {
  const customerMessages = customerMessagesOf(messages);
  const started = process.hrtime.bigint();
  const selection = select(index, customerMessages, semantic);
  const selectionUs = Number(process.hrtime.bigint() - started) / 1000;
  let explanation: Explanation | undefined;
  return {
    customerMessages,
    selection,
    get explanation() {
      return (explanation ??= explain(selection));
    },
    selectionUs,
    systemPrompt: buildSystemPrompt(selection, index.pinnedContext, instructions),
  };
}

/** The conversation for the model: customer and assistant text only, empty messages left out. */
export function toModelMessages(messages: readonly ChatText[]): ModelMessage[] {
  return messages
    .filter((m) => m.text.trim().length > 0)
    .map((m) => (m.role === 'user' ? { role: 'user', content: m.text } : { role: 'assistant', content: m.text }));
}
