/**
 * One contender on one corpus, in its own process (started by scripts/bench.mts):
 *
 *   node --expose-gc --import tsx bench/worker.mts "<contender>" <136|1000|10000|100000|demo>
 *
 * Loads the corpus, builds (timed), measures heap after a full GC, warms up, then times
 * every question. Sends one JSON result to the parent (or prints it when run by hand).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { contenderByName, type BenchInput } from './contenders';
import { corpusQuestions, demoKbSources, DEMO_KB_DIR, loadCorpus, type Doc } from './corpus';
import { DEFAULT_MEASURE, heapUsedAfterGc, measureLatency, type LatencyStats } from './measure';
import { demoBenchQuestions } from './questions';
import { sectionsFromSources, titlePath } from '@/lib/retrieval/index';

export interface WorkerResult {
  contender: string;
  corpus: string;
  sections: number;
  buildMs: number;
  /** Heap the contender's index adds over the loaded documents (MB, after GC). */
  indexHeapMB: number;
  /** Whole process heap once ready to answer, documents included (MB, after GC). */
  totalHeapMB: number;
  latency: LatencyStats;
  loadMs: number;
  /** Build time split, when the contender reports one. */
  phases?: Record<string, number>;
}

async function loadInput(corpus: string): Promise<BenchInput> {
  if (corpus === 'demo') {
    const sources = demoKbSources();
    const synonymsPath = path.join(DEMO_KB_DIR, 'synonyms.json');
    const synonymsJson = existsSync(synonymsPath) ? readFileSync(synonymsPath, 'utf8') : undefined;
    // The libraries index the same sections our selector sees (title path + body).
    const docs: Doc[] = sectionsFromSources(sources).map((s) => ({ id: s.id, title: titlePath(s), text: s.text }));
    return { docs, demo: { sources, synonymsJson } };
  }
  return { docs: await loadCorpus(Number(corpus)) };
}

async function main(): Promise<WorkerResult> {
  const [name, corpus] = process.argv.slice(2);
  if (!name || !corpus) throw new Error('usage: worker.mts "<contender>" <size|demo>');
  const contender = contenderByName(name);

  let t = performance.now();
  const input = await loadInput(corpus);
  const loadMs = performance.now() - t;
  const questions = corpus === 'demo' ? demoBenchQuestions() : corpusQuestions();

  const heapBefore = heapUsedAfterGc();
  t = performance.now();
  const runner = await contender.build(input);
  const buildMs = performance.now() - t;
  const heapAfter = heapUsedAfterGc();

  const latency = measureLatency((q) => runner.query(q), questions, DEFAULT_MEASURE);
  const { sink, ...stats } = latency;
  if (!Number.isFinite(sink)) throw new Error('non-finite result sink');

  return {
    contender: name,
    corpus,
    sections: input.docs.length,
    buildMs,
    indexHeapMB: (heapAfter - heapBefore) / 2 ** 20,
    totalHeapMB: heapAfter / 2 ** 20,
    latency: stats,
    loadMs,
    phases: runner.phases,
  };
}

main().then(
  (result) => {
    if (process.send) process.send({ ok: true, result }, () => process.exit(0));
    else console.log(JSON.stringify(result, null, 2));
  },
  (error: unknown) => {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    if (process.send) process.send({ ok: false, error: message }, () => process.exit(1));
    else {
      console.error(message);
      process.exit(1);
    }
  },
);
