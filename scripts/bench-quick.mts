/**
 * bench:quick — p50 / p99 of one selection on the demo KB, without (select) and with the
 * full explanation (selectContext), in a few seconds, in this process. For a quick check while changing the selector; the full,
 * comparative benchmark is `npm run bench`.
 *
 *   npm run bench:quick
 */
import { buildOurIndex } from '../bench/contenders.ts';
import { demoKbSources, DEMO_KB_DIR } from '../bench/corpus.ts';
import { measureLatency } from '../bench/measure.ts';
import { demoBenchQuestions } from '../bench/questions.ts';
import { formatNumber } from '../lib/format.ts';
import { select, selectContext } from '../lib/retrieval/index.ts';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

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
