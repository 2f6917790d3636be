/**
 * bench:kb-test — how long the KB's tests take: the demo KB's own cases (content/tests), and
 * 1,000 generated cases on the 10,000-section corpus (../shared/corpora, bench/corpus.ts), each
 * through runKbTests in this process (parse, then run; the median of a few runs).
 *
 *   npm run bench:kb-test [-- --runs N]
 */
import type { KbTestReport, KbTestSuite } from '@/lib/kb-test/index';
import type { TurnKnowledge } from '@/lib/knowledge/retrieve';
import { parseCommandLineOrExit, wholeNumberFlag, type Cli } from './cli';

const cli: Cli = {
  name: 'bench:kb-test',
  usage: `usage: npm run bench:kb-test [-- --runs N]

  --runs N     timed runs of each suite, after one warm-up (default: 5); the median is printed
  -h, --help   this text`,
};
const { values } = parseCommandLineOrExit(cli, { runs: { type: 'string' } });
const runs = wholeNumberFlag(cli, 'runs', values.runs ?? '5', 1);

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { stringify } = await import('yaml');
const { checkCorporaPresent, corpusQuestions, DEMO_KB_DIR, loadCorpus, sectionsFromDocs } = await import('@/bench/corpus');
const { assistantInstructions } = await import('@/lib/ai/prompt');
const { parseTestFile, readKbTests, runKbTests } = await import('@/lib/kb-test/index');
const { retrieveForTurn, turnKnowledgeOf } = await import('@/lib/knowledge/retrieve');
const { createRetrievalIndex, defaultIdentity, documentFormat, kbPages, loadKnowledgeBase } = await import('@/lib/retrieval/index');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(knowledge: TurnKnowledge, suite: KbTestSuite): Promise<{ ms: number; report: KbTestReport }> {
  let report = await runKbTests(knowledge, suite, { root: '.' });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    report = await runKbTests(knowledge, suite, { root: '.' });
    times.push(performance.now() - started);
  }
  return { ms: median(times), report };
}

function line(label: string, suite: KbTestSuite, parseMs: number, { ms, report }: { ms: number; report: KbTestReport }): string {
  const { cases, failed, expectations } = report.summary;
  return `${label}: ${cases} cases (${expectations} expectations, ${failed} failing) — parse ${parseMs.toFixed(1)} ms, run ${ms.toFixed(1)} ms (${((ms / cases) * 1000).toFixed(0)} µs per case), median of ${runs}`;
}

// The demo KB's own tests.
{
  const kb = loadKnowledgeBase(DEMO_KB_DIR);
  const knowledge = turnKnowledgeOf(kb);
  const started = performance.now();
  const suite = await readKbTests(DEMO_KB_DIR);
  const parseMs = performance.now() - started;
  console.log(line(`demo KB (${knowledge.index.sections.length} sections)`, suite, parseMs, await timed(knowledge, suite)));
}

// 1,000 cases on the 10,000-section corpus: the corpus questions, the later ones as follow-ups of
// another question, each expecting what the selector does for it today (the top section first,
// the top three sent, the second within the top 5, the first's page among the sources, no floor,
// and an unrelated section not sent); then the same with one case in ten expecting a section
// that is not sent, so the failure explanations are timed too.
checkCorporaPresent([10000]);
const sections = sectionsFromDocs(await loadCorpus(10000));
let started = performance.now();
const index = createRetrievalIndex({ sections, synonyms: [] });
const knowledge: TurnKnowledge = { index, instructions: assistantInstructions(defaultIdentity()), pages: kbPages(sections, {}, undefined) };
console.log(`\n10,000-section corpus: index built in ${(performance.now() - started).toFixed(0)} ms`);
const questions = corpusQuestions();

async function generatedCases(failingEvery: number): Promise<string> {
  const cases = [];
  for (let i = 0; i < 1000; i++) {
    const question = questions[i % questions.length]!;
    const history = i < questions.length ? [] : [questions[(i * 7 + 3) % questions.length]!];
    const e = (await retrieveForTurn(knowledge, [...history, question])).explanation;
    // Sections a test can name by id (some corpus ids have no "#"), sent, best first.
    const ranked = e.sections.filter((v) => v.sent && v.rank !== undefined && v.id.includes('#')).sort((a, b) => a.rank! - b.rank!);
    const unrelated = index.pool.filter((s) => s.id.includes('#'))[(i * 7919) % 5000]!;
    const top = e.sections.find((v) => v.rank === 1)!;
    const page = documentFormat(top.source) ? top.source : undefined; // a page can be named when its file is a document
    const expect: Record<string, unknown> = { sends: ranked.slice(0, 3).map((v) => v.id), floor: e.floorUsed, ...(page ? { first: page, sources: [page] } : {}) };
    if (ranked[1]) expect.top = { n: 5, sections: [ranked[1].path.replace(/ \(part \d+ of \d+\)$/, '')] };
    if (!e.sentIds.includes(unrelated.id)) expect.not_sends = unrelated.id;
    if (failingEvery && i % failingEvery === 0) expect.sends = [...(expect.sends as string[]), unrelated.id];
    cases.push({ name: `case ${i}`, question, ...(history.length ? { history } : {}), expect });
  }
  return stringify({ cases }, { lineWidth: 0 });
}

for (const failingEvery of [0, 10]) {
  const yaml = await generatedCases(failingEvery);
  started = performance.now();
  const suite: KbTestSuite = { files: ['tests/generated.yaml'], cases: parseTestFile('tests/generated.yaml', yaml) };
  const parseMs = performance.now() - started;
  console.log(line(failingEvery ? `1,000 cases, one in ${failingEvery} failing` : '1,000 cases, all passing', suite, parseMs, await timed(knowledge, suite)));
}
