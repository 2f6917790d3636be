import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { SectionEmbedder } from '../knowledge/embeddings';
import { turnKnowledgeOf, type TurnKnowledge } from '../knowledge/retrieve';
import { loadKnowledgeBase } from '../retrieval/index';
import { testEmbedder } from '../testing/embeddings';
import { writeFolder } from '../testing/folders';
import { TEST_SOURCES } from '../testing/kb';
import { readKbTests } from './files';
import { formatKbTestReport } from './format';
import { parseTestFile } from './parse';
import { modelReplier } from './reply';
import { runKbTests, type RunOptions } from './run';
import type { CaseResult } from './types';

/**
 * The expectation kinds against a real (small) KB loaded from files: each passes when the turn
 * does what it says, and fails with the selector's own reasons when not.
 */

const LONG = Array.from({ length: 24 }, (_, i) => `Refund rule of thumb number ${i + 1}: a refund request for a duplicate charge is reviewed by the billing team within a week.`).join(' ');
const KB_FILES = {
  ...Object.fromEntries(TEST_SOURCES.map((s) => [s.file, s.text])),
  'billing/duplicate-charges.md': `# Duplicate charges\n${LONG}`,
  'assistant.md': '---\ncompany: Acme\n---\n',
};

function knowledge(files: Record<string, string> = KB_FILES): TurnKnowledge & { root: string } {
  const root = writeFolder(files, 'kb-test-');
  return { ...turnKnowledgeOf(loadKnowledgeBase(root), { budget: 400, floor: 60 }), root };
}

const k = knowledge();

async function run(yaml: string, options: RunOptions = {}, on: TurnKnowledge & { root: string } = k) {
  return runKbTests(on, { files: ['tests/t.yaml'], cases: parseTestFile('tests/t.yaml', yaml) }, { root: on.root }, options);
}

/** One case's result, for a question and its `expect:` lines. */
async function oneCase(question: string, expectYaml: string, options?: RunOptions): Promise<CaseResult> {
  const report = await run(`cases:\n  - question: ${JSON.stringify(question)}\n    expect:\n${expectYaml.replace(/^/gm, '      ')}\n`, options);
  return report.cases[0]!;
}

const why = (c: CaseResult) => c.expectations.flatMap((e) => e.why).join('\n');

describe('runKbTests: each expectation kind', () => {
  it('sends: passes for sent sections (by heading path, id or page), fails naming the verdict of one that was not', async () => {
    expect((await oneCase('how long until my refund arrives?', 'sends: [Refund policy › Refund timelines, "billing/refund-policy.md#refund-policy", billing/refund-policy.md]')).status).toBe('passed');
    const failed = await oneCase('how long until my refund arrives?', 'sends: account/settings.md');
    expect(failed.status).toBe('failed');
    expect(why(failed)).toMatch(/^the page account\/settings\.md: its best section, Account settings \[account\/settings\.md#account-settings\], not sent: no match \(none of the query's terms — [^)]*refund[^)]* — occur in it\)$/m);
    expect(why(failed)).toMatch(/^sent for this question: Refund policy › Refund timelines; /m);
  });

  it('sends: a split section is named by its id (any part), and a part that did not fit says so', async () => {
    const c = await oneCase('duplicate refund charge', 'sends: billing/duplicate-charges.md#duplicate-charges\nnot_sends: [billing/duplicate-charges.md#duplicate-charges]');
    expect(c.expectations.map((e) => e.status)).toEqual(['passed', 'failed']);
    expect(why(c)).toMatch(/^Duplicate charges \(part 1 of 4\) \[billing\/duplicate-charges\.md#duplicate-charges~1\]: sent: scored, ranked 1 of 6 matched \(score \d+\.\d\d\)$/m);
    const unsent = await oneCase('duplicate refund charge', 'sends: "billing/duplicate-charges.md#duplicate-charges~4"');
    expect(why(unsent)).toMatch(
      /^Duplicate charges \(part 4 of 4\) \[billing\/duplicate-charges\.md#duplicate-charges~4\]: not sent: ranked 4 of 6 matched \(score \d+\.\d\d\) but did not fit: 161 tokens, 7 left of the budget$/m,
    );
  });

  it('not_sends: fails with the rank and score of a section that was sent', async () => {
    expect((await oneCase('can I get a refund?', 'not_sends: product/live.md')).status).toBe('passed');
    const failed = await oneCase('can I get a refund?', 'not_sends: Refund policy › Refund timelines');
    expect(why(failed)).toMatch(/^Refund policy › Refund timelines \[billing\/refund-policy\.md#refund-timelines\]: sent: scored, ranked 1 of 6 matched \(score \d+\.\d\d\)$/m);
  });

  it('first and top: pass on the rank; fail naming what ranked above', async () => {
    expect((await oneCase('how do I start a live stream with OBS?', 'first: product/live.md\ntop: { n: 1, sections: Live streaming }')).status).toBe('passed');
    const failed = await oneCase('how do I start a live stream with OBS?', 'first: Account settings\ntop: { n: 1, sections: [Live streaming › Stream latency] }');
    expect(failed.expectations.map((e) => e.status)).toEqual(['failed', 'failed']);
    expect(why(failed)).toMatch(/^ranked first instead: 1\. Live streaming \(\d+\.\d\d, sent\)$/m);
    expect(why(failed)).toMatch(/^Live streaming › Stream latency \[product\/live\.md#stream-latency\]: sent: scored, ranked 2 of \d+ matched/m);
    expect(why(failed)).toMatch(/^the top 1: 1\. Live streaming \(/m);
  });

  it('pinned: passes for a pinned rule; fails for a section that is sent but not pinned', async () => {
    expect((await oneCase('how do I start a live stream?', 'pinned: rules.md#refunds')).status).toBe('passed');
    const failed = await oneCase('can I get a refund?', 'pinned: Refund policy');
    expect(why(failed)).toMatch(/^NOT PINNED: Refund policy \[billing\/refund-policy\.md#refund-policy\]: sent: scored, ranked 6 of 6 matched/m);
  });

  it('floor: true when nothing matched, false when something did, each failing with the numbers', async () => {
    expect((await oneCase('hi there', 'floor: true\nsources: []')).status).toBe('passed');
    const failed = await oneCase('hi there', 'floor: false');
    expect(why(failed)).toMatch(/^the floor was used: the scored sections came to 0 tokens, under the floor of 60; \d+ sections added in file order$/m);
    const notUsed = await oneCase('can I get a refund?', 'floor: true');
    expect(why(notUsed)).toMatch(/^the floor was not used: \d+ sections scored \(\d+ tokens\): 1\. Refund policy/m);
  });

  it('sources: the pages of the sections that scored; [] for none', async () => {
    expect((await oneCase('can I get a refund?', 'sources: billing/refund-policy.md')).status).toBe('passed');
    const failed = await oneCase('can I get a refund?', 'sources: product/live.md');
    expect(why(failed)).toMatch(/^the sources: billing\/refund-policy\.md/m);
    expect(why(await oneCase('can I get a refund?', 'sources: []'))).toMatch(/^the sources: billing\/refund-policy\.md/m);
  });

  it('semantic: skipped with a notice while the stage is off; fused or skipped as the stage decided when it is on', async () => {
    const off = await run('cases:\n  - question: can I get a refund?\n    expect: { semantic: fused }\n');
    expect(off.cases[0]!.status).toBe('skipped');
    expect(off.notices).toEqual(['1 expectation skipped: semantic expectations: the semantic stage is off (EMBEDDING_MODEL is not set)']);

    const withStage = knowledge();
    const embeddings = new SectionEmbedder(testEmbedder(200, 1).embedder, { info() {}, error() {} }).attach(withStage.index);
    await embeddings.done;
    withStage.embeddings = embeddings;
    const fused = await run('cases:\n  - question: can I get a refund?\n    expect: { semantic: fused }\n  - question: money back?\n    expect: { semantic: skipped }\n', {}, withStage);
    expect(fused.cases.map((c) => c.status)).toEqual(['passed', 'failed']);
    expect(why(fused.cases[1]!)).toMatch(/^the stage fused: \d+ sections in the semantic list/);
  });

  it('reply: skipped with a notice without a model; checked against the reply a model writes; a failing model fails them', async () => {
    const expectYaml = 'reply: { mentions: billing team, not_mentions: guaranteed, cites: billing/refund-policy.md }';
    const skipped = await oneCase('can I get a refund?', expectYaml, { noReplier: 'run kb:test --with-model' });
    expect(skipped.status).toBe('skipped');
    expect(skipped.expectations.map((e) => e.why[0])).toEqual(Array(3).fill('reply expectations: run kb:test --with-model'));

    const prompts: string[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        prompts.push(JSON.stringify(prompt));
        return {
          content: [{ type: 'text', text: 'The billing team decides refunds (Refund policy). A refund is guaranteed!' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
          warnings: [],
        };
      },
    });
    const replied = await oneCase('can I get a refund?', expectYaml, { replier: modelReplier({ model, provider: 'mock', modelId: 'mock' }) });
    expect(replied.expectations.map((e) => [e.kind, e.status])).toEqual([
      ['reply.mentions', 'passed'],
      ['reply.not_mentions', 'failed'],
      ['reply.cites', 'passed'],
    ]);
    expect(why(replied)).toContain('mentions "guaranteed"');
    expect(replied.reply).toContain('The billing team decides refunds');
    // The turn's own system prompt, with the pinned rule, and the question as the user's message.
    expect(prompts[0]).toContain('Never promise a refund');
    expect(prompts[0]).toContain('"role":"user","content":[{"type":"text","text":"can I get a refund?"}]');

    const broken = await oneCase('can I get a refund?', expectYaml, { replier: { reply: () => Promise.reject(new Error('HTTP 500 from the provider')) } });
    expect(broken.expectations.map((e) => e.why[0])).toEqual(Array(3).fill('the model failed: HTTP 500 from the provider'));
  });
});

describe('runKbTests: references and the report', () => {
  it('fails an unknown id, page or heading path with "did you mean", and shows what the nearest one did', async () => {
    const c = await oneCase('how long until my refund arrives?', 'sends: [billing/refund-policy.md#refund-timeline, billing/refund-polcy.md, Refund polices › Refund timelines]');
    expect(c.status).toBe('failed');
    const lines = c.expectations[0]!.why;
    expect(lines[0]).toBe('no section has the id billing/refund-policy.md#refund-timeline; did you mean billing/refund-policy.md#refund-timelines?');
    expect(lines[1]).toMatch(/^the nearest, Refund policy › Refund timelines \[billing\/refund-policy\.md#refund-timelines\]: sent: scored, ranked \d/);
    expect(lines).toContain('the knowledge base has no page billing/refund-polcy.md; did you mean billing/refund-policy.md?');
    expect(lines).toContain('no section has the heading path "Refund polices › Refund timelines"; did you mean "Refund policy › Refund timelines"?');
  });

  it('suggests the same heading under a renamed parent, and nothing far-fetched', async () => {
    const c = await oneCase('refund', 'first: Refund rules › Refund timelines\nsends: "nothing/like/this.md#at-all"');
    expect(c.expectations[0]!.why[0]).toBe('no section has the heading path "Refund rules › Refund timelines"; did you mean "Refund policy › Refund timelines"?');
    expect(c.expectations[1]!.why[0]).toBe('no section has the id nothing/like/this.md#at-all');
  });

  it('looks for the nearest names of the first 20 unknown references of a run only: the rest are named without, and a notice says how many', async () => {
    const unknown = (c: number) => Array.from({ length: 10 }, (_, i) => `"Refund polices › Refund timelines ${c}-${i}"`).join(', ');
    const report = await run(`cases:\n${[0, 1, 2].map((c) => `  - name: case ${c}\n    question: refund\n    expect:\n      sends: [${unknown(c)}]\n`).join('')}`);
    const lines = report.cases.flatMap((c) => c.expectations.flatMap((e) => e.why)).filter((line) => line.startsWith('no section has'));
    expect(lines).toHaveLength(30);
    expect(lines.slice(0, 20).every((line) => line.endsWith('did you mean "Refund policy › Refund timelines"?'))).toBe(true);
    expect(lines.slice(20)).toEqual(Array.from({ length: 10 }, (_, i) => `no section has the heading path "Refund polices › Refund timelines 2-${i}"`));
    expect(report.notices).toContain('10 more unknown section references without "did you mean": the nearest names are looked for the first 20 of a run');
  });

  it('reports a KB the server would refuse as a failed case of its own, first', async () => {
    const report = await runKbTests(k, { files: [], cases: [] }, { root: k.root, refusal: { file: 'assistant.md', line: 5, message: 'assistant.md:5: rules.md#refunds is not pinned' } });
    expect(report.summary).toMatchObject({ cases: 1, failed: 1 });
    expect(report.cases[0]).toMatchObject({ file: 'assistant.md', line: 5, status: 'failed' });
    expect(report.refusal).toBe('assistant.md:5: rules.md#refunds is not pinned');
  });

  it('says where tests go when the KB has none, and only then', async () => {
    const none = formatKbTestReport(await runKbTests(k, { files: [], cases: [] }, { root: k.root }), 'kb');
    expect(none).toContain('note: no tests: add cases to kb/tests/*.yaml (docs/kb-tests.md)');
    const some = formatKbTestReport(await run('cases:\n  - question: hi\n    expect: { floor: true }\n'), 'kb');
    expect(some).not.toContain('no tests');
  });

  it('reads the tests of a KB folder (tests/*.yaml) and counts cases, passes, failures and skips', async () => {
    const root = writeFolder({
      ...KB_FILES,
      'tests/a.yaml': 'cases:\n  - question: can I get a refund?\n    expect: { first: billing/refund-policy.md }\n',
      'tests/b.yml': 'cases:\n  - question: hi\n    expect: { floor: false }\n  - question: hello\n    expect: { reply: { mentions: hi } }\n',
    });
    const on = turnKnowledgeOf(loadKnowledgeBase(root), { budget: 400, floor: 60 });
    const suite = await readKbTests(root);
    expect(suite.files).toEqual(['tests/a.yaml', 'tests/b.yml']);
    const report = await runKbTests(on, suite, { root });
    expect(report.summary).toEqual({ cases: 3, passed: 1, failed: 1, skipped: 1, expectations: 3, skippedExpectations: 1 });
    expect(report.cases.map((c) => `${c.file}:${c.line} ${c.status}`)).toEqual(['tests/a.yaml:2 passed', 'tests/b.yml:2 failed', 'tests/b.yml:4 skipped']);
  });
});
