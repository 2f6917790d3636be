/**
 * bench:quick — p50 / p99 of one selection on the demo KB, without (select) and with the
 * full explanation (selectContext), in a few seconds, in this process. For a quick check while changing the selector; the full,
 * comparative benchmark is `npm run bench`.
 *
 *   npm run bench:quick
 *   npm run bench:quick -- --against wordVariants=false   also the same selections with one setting changed,
 *                                                         alternating in this run, and the ratio of the medians
 *   npm run bench:quick -- --tree ../before               also the same selections through another checkout's
 *                                                         selector (a refactor against the commit before it)
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RetrievalIndex } from '@/lib/retrieval/index';
import { parseCommandLineOrExit, usageExit, type Cli } from './cli';

const cli: Cli = {
  name: 'bench:quick',
  usage: `usage: npm run bench:quick [-- --against KEY=VALUE | --tree DIR]

  --against KEY=VALUE   also the same selections with one selector setting changed (e.g. wordVariants=false),
                        alternating in this run, and the ratio of the medians
  --tree DIR            also the same selections through the selector of another checkout of this
                        repository (its lib/retrieval/index.ts), on an index it builds itself from
                        the same sections, alternating in this run, and the ratio of the medians
  -h, --help            this text`,
};
const { values } = parseCommandLineOrExit(cli, { against: { type: 'string' }, tree: { type: 'string' } });
if (values.tree !== undefined && !existsSync(path.join(values.tree, 'lib/retrieval/index.ts'))) usageExit(cli, `--tree ${values.tree}: no lib/retrieval/index.ts there`);
if (values.against !== undefined && !/^\w+=/.test(values.against)) usageExit(cli, `--against needs KEY=VALUE, got "${values.against}"`);

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { buildOurIndex } = await import('@/bench/contenders');
const { demoKbSources, DEMO_KB_DIR } = await import('@/bench/corpus');
const { measureLatency } = await import('@/bench/measure');
const { demoBenchQuestions } = await import('@/bench/questions');
const { formatNumber } = await import('@/lib/format');
const { createRetrievalIndex, retrievalConfig, select, selectContext } = await import('@/lib/retrieval/index');

const synonymsPath = path.join(DEMO_KB_DIR, 'synonyms.json');
const started = performance.now();
const index = buildOurIndex({
  docs: [],
  demo: {
    sources: demoKbSources(),
    synonymsJson: existsSync(synonymsPath) ? readFileSync(synonymsPath, 'utf8') : undefined,
  },
});
const buildMs = performance.now() - started;
const questions = demoBenchQuestions();

const options = { warmupMinMs: 300, warmupMaxMs: 1000, minMs: 1000, maxMs: 3000, minSamples: questions.length, maxRounds: 10 };
const runs = [
  ['select (what a request needs: packing and the context text)', (q: string) => select(index, [q]).sentIds.length],
  ['selectContext (select + the full explanation)', (q: string) => selectContext(index, [q]).sentIds.length],
] as const;
console.log(`demo KB: ${index.sections.length} sections, build ${buildMs.toFixed(0)} ms`);
for (const [name, run] of runs) {
  const stats = measureLatency(run, questions, options);
  console.log(
    `${name}: p50 ${stats.p50.toFixed(1)} µs, p95 ${stats.p95.toFixed(1)} µs, p99 ${stats.p99.toFixed(1)} µs ` +
      `over ${formatNumber(stats.samples)} selections of ${stats.questions} questions`,
  );
}

/** Median p50 of `ours` and `theirs` over 6 rounds, alternating which goes first (the machine is shared and noisy). */
function alternating(ours: () => number, theirs: () => number): { ours: number; theirs: number } {
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < 6; round++) {
    if (round % 2) {
      a.push(ours());
      b.push(theirs());
    } else {
      b.push(theirs());
      a.push(ours());
    }
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
  return { ours: median(a), theirs: median(b) };
}

// --tree DIR: this selector against another checkout's, on the same sections and questions.
if (values.tree) {
  type Selector = { createRetrievalIndex: typeof createRetrievalIndex; select: typeof select };
  const them = (await import(path.resolve(values.tree, 'lib/retrieval/index.ts'))) as Selector;
  const theirIndex = them.createRetrievalIndex({ sections: index.sections.filter((s) => !s.part), synonyms: [...index.synonyms] }, index.config);
  const p50 = (sel: Selector['select'], ix: RetrievalIndex) => measureLatency((q: string) => sel(ix, [q]).sentIds.length, questions, options).p50;
  const same = questions.every((q) => JSON.stringify(them.select(theirIndex, [q]).sentIds) === JSON.stringify(select(index, [q]).sentIds));
  const { ours, theirs } = alternating(() => p50(select, index), () => p50(them.select, theirIndex));
  console.log(
    `select, this tree vs ${values.tree} (6 alternating rounds): median p50 ${ours.toFixed(1)} µs vs ${theirs.toFixed(1)} µs — ` +
      `this tree takes ${(ours / theirs).toFixed(2)}× the time; ${same ? 'the same sections sent for every question' : 'THE SECTIONS SENT DIFFER'}`,
  );
}

// --against key=value: the defaults against one changed setting, measured in turns (the machine is shared and noisy).
if (values.against) {
  const at = values.against.indexOf('=');
  const key = values.against.slice(0, at);
  const raw = values.against.slice(at + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {}
  // A new index: some settings (titleWeight, typoWeight, maxSectionShare, …) are read when it is built.
  if (index.sections.some((s) => s.part)) throw new Error('bench:quick --against: the KB has split sections, which a rebuild from them would not split again');
  const other: RetrievalIndex = createRetrievalIndex({ sections: [...index.sections], synonyms: [...index.synonyms] }, retrievalConfig({ ...index.config, [key]: value }));
  const p50 = (ix: RetrievalIndex) => measureLatency((q: string) => select(ix, [q]).sentIds.length, questions, options).p50;
  const { ours, theirs } = alternating(() => p50(index), () => p50(other));
  console.log(
    `select, defaults vs ${values.against} (6 alternating rounds): median p50 ${ours.toFixed(1)} µs vs ${theirs.toFixed(1)} µs — ` +
      `the defaults take ${(ours / theirs).toFixed(2)}× the time`,
  );
}
