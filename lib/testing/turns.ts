import { buildSystemPrompt } from '../ai/prompt';
import { selectContext } from '../retrieval/index';
import { kbVersionOf } from '../traces/compact';
import type { TurnStart } from '../traces/types';
import { testIndex } from './kb';

/** A turn's start on the unit tests' small KB (kb.ts), as the chat route records it. */

const index = testIndex();
const INSTRUCTIONS = 'Answer from the knowledge below.';
const kb = kbVersionOf(index, INSTRUCTIONS);
let n = 0;

export function testTurnStart(question: string, overrides: Partial<TurnStart> = {}): TurnStart {
  n++;
  const explanation = selectContext(index, [question]);
  return {
    id: `turn-${n}`,
    conversationId: 'conv-aaaaaaaa',
    createdAt: new Date().toISOString(),
    trigger: 'submit-message',
    customerMessages: [question],
    question,
    explanation,
    systemPrompt: buildSystemPrompt(explanation, index.pinnedContext, INSTRUCTIONS),
    kb,
    provider: 'offline',
    modelId: 'extractive-v1',
    selectionUs: 42,
    ...overrides,
  };
}
