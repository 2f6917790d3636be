import { buildSystemPrompt } from '../ai/prompt';
import { explainedRecordOf, kbVersionOf, selectContext, type Explanation } from '../retrieval/index';
import type { TurnStart } from '../store/ports/turns';
import { testIndex } from './kb';

/** A turn's start on the unit tests' small KB (kb.ts), as the chat route records it. */

/** A turn's start with the explanation and prompt its record was made from, for tests to compare what is read back with. */
export type TestTurnStart = TurnStart & { explanation: Explanation; systemPrompt: string };

/** `turn` with its record: `explainedRecordOf(explanation, systemPrompt, kb)`, as the store keeps it. */
export function withRecord(turn: Omit<TestTurnStart, 'record'>): TestTurnStart {
  return { ...turn, record: explainedRecordOf(turn.explanation, turn.systemPrompt, turn.kb) };
}

const index = testIndex();
const INSTRUCTIONS = 'Answer from the knowledge below.';
const kb = kbVersionOf(index, INSTRUCTIONS);
let n = 0;

export function testTurnStart(question: string, overrides: Partial<Omit<TestTurnStart, 'record'>> = {}): TestTurnStart {
  n++;
  const explanation = selectContext(index, [question]);
  return withRecord({
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
  });
}
