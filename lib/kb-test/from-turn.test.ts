import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { retrieveForTurn, turnKnowledgeOf } from '../knowledge/retrieve';
import { loadKnowledgeBase } from '../retrieval/index';
import { testCaseFromTurn, type TurnForTest } from './from-turn';
import { parseTestFile } from './parse';
import { runKbTests } from './run';

const demo = turnKnowledgeOf(loadKnowledgeBase(path.resolve(import.meta.dirname, '../../content')));

async function turn(messages: string[]): Promise<TurnForTest> {
  const r = await retrieveForTurn(demo, messages);
  return { id: 'f3a1c2d4-0000-4000-8000-000000000000', createdAt: '2026-05-01T10:00:00.000Z', question: messages.at(-1)!, customerMessages: r.customerMessages, explanation: r.explanation, sources: r.sources };
}

describe('testCaseFromTurn ("Make a test")', () => {
  it('makes a case of a follow-up: question, history, the best sections that scored, the floor, the turn’s own sources', async () => {
    const made = testCaseFromTurn(await turn(['Can I get a refund?', 'and for annual plans?']));
    const [testCase] = parseTestFile('tests/from-turns.yaml', made);
    expect(testCase).toMatchObject({ name: 'and for annual plans? (turn f3a1c2d4)', question: 'and for annual plans?', history: ['Can I get a refund?'] });
    expect(testCase!.expectations.map((e) => e.kind)).toEqual(['sends', 'floor', 'sources']);
    expect(testCase!.expectations[0]!.value).toHaveLength(5);
    expect(made).toContain('- billing/refund-policy.md#annual-plans-are-pro-rated # Refund policy › Annual plans are pro-rated');
    expect(made).toContain('# pinned: [rules/assistant-rules.md#assistant-rules, rules/assistant-rules.md#refunds,');
  });

  it('passes when pasted into the KB the turn ran on', async () => {
    for (const messages of [['Can I get a refund?', 'and for annual plans?'], ['hi, can you help me?'], ['my vidoe keeps bufering']]) {
      const cases = parseTestFile('tests/from-turns.yaml', testCaseFromTurn(await turn(messages)));
      const report = await runKbTests(demo, { files: ['tests/from-turns.yaml'], cases }, { root: 'content' });
      expect(report.cases.map((c) => [c.question, c.status, c.expectations.flatMap((e) => e.why)])).toEqual([[messages.at(-1), 'passed', []]]);
    }
  });

  it('a turn that took the floor makes a case with no sends and no sources', async () => {
    const [testCase] = parseTestFile('t.yaml', testCaseFromTurn(await turn(['hi, can you help me?'])));
    expect(testCase!.expectations.map((e) => [e.kind, e.value])).toEqual([
      ['floor', true],
      ['sources', []],
    ]);
  });
});
