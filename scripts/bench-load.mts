/**
 * bench:load — how long a knowledge base takes to load, cold and on reload, and how long
 * the event loop is held while the async reload runs.
 *
 *   npm run bench:load -- [FOLDER …]        (default: content/ and a 10,000-section KB)
 *
 * The 10,000-section KB is written to a temporary folder from ../shared/corpora
 * (corpus-10000: real documentation sections, 20 per markdown file). Figures are one run
 * on a shared machine: compare the rows of one run, not runs of different days.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadCorpus } from '../bench/corpus.ts';
import { loadKnowledge, loadKnowledgeAsync } from '../lib/knowledge/load.ts';
import { TokenCounter, type BuiltDocument } from '../lib/retrieval/index.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

async function corpusFolder(size: number): Promise<string> {
  const docs = await loadCorpus(size);
  const dir = mkdtempSync(path.join(tmpdir(), `kb-${size}-`));
  for (let i = 0; i < docs.length; i += 20) {
    const page = docs.slice(i, i + 20).map((d) => `## ${d.title.replace(/\n/g, ' ')}\n\n${d.text}\n`).join('\n');
    const file = path.join(dir, `part-${String(i / 20).padStart(4, '0')}`, 'page.md');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `# Page ${i / 20}\n\n${page}`);
  }
  return dir;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function measure(label: string, kbPath: string): Promise<void> {
  const tokens = new TokenCounter();
  const documents = new Map<string, BuiltDocument>();
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const cold = loadKnowledge({ KB_PATH: kbPath }, ROOT, { tokens, documents });
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed - heapBefore;
  const warm = loadKnowledge({ KB_PATH: kbPath }, ROOT, { tokens, documents });
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const asyncCold = await loadKnowledgeAsync({ KB_PATH: kbPath }, ROOT, {});
  delay.disable();
  console.log(`${label}\n  cold:   ${cold.summary}\n  reload: ${warm.loadMs.toFixed(0)} ms (unchanged files: parse and token caches hit)`);
  console.log(`  async cold load ${asyncCold.loadMs.toFixed(0)} ms, longest event-loop stall ${(delay.max / 1e6).toFixed(0)} ms (p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms)`);
  console.log(`  heap after load: +${mb(heap)}${globalThis.gc ? '' : ' (run with --expose-gc for a figure after GC)'}`);
}

const folders = process.argv.slice(2);
if (folders.length) {
  for (const f of folders) await measure(f, f);
} else {
  await measure('demo KB (content/)', path.join(ROOT, 'content'));
  await measure('10,000 sections (corpus-10000 as 500 markdown files)', await corpusFolder(10000));
}
