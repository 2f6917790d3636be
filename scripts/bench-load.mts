/**
 * bench:load — how long a knowledge base takes to load, cold and on reload, and how long
 * the event loop is held while the async reload runs; then, end to end, the time from
 * starting `next start` to its first answered chat, without and with the parsed KB cached
 * on disk (KB_CACHE_PATH) — a new instance on a KB it has seen.
 *
 *   npm run bench:load -- [FOLDER …]        (default: content/ and a 10,000-section KB)
 *   npm run bench:load -- --no-server …     (in-process figures only)
 *
 * The 10,000-section KB is written to a temporary folder from ../shared/corpora
 * (corpus-10000: real documentation sections, 20 per markdown file). Figures are one run
 * on a shared machine: compare the rows of one run, not runs of different days.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadCorpus } from '@/bench/corpus';
import { question, readChatStream } from '@/e2e/helpers';
import { startApp } from '@/e2e/spawn';
import { loadKnowledge, loadKnowledgeAsync } from '@/lib/knowledge/load';
import { TokenCounter, type BuiltDocument } from '@/lib/retrieval/index';
import { parseCommandLineOrExit, type Cli } from './cli';

const cli: Cli = {
  name: 'bench:load',
  usage: `usage: npm run bench:load [-- --no-server] [FOLDER …]

  FOLDER        knowledge bases to measure (default: content/ and a 10,000-section KB from ../shared/corpora)
  --no-server   in-process figures only (no \`next start\` to first answer)
  -h, --help    this text`,
};
const { values, positionals: folders } = parseCommandLineOrExit(cli, { 'no-server': { type: 'boolean' } }, { allowPositionals: true });

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
  const cold = loadKnowledge(path.resolve(ROOT, kbPath), {}, { tokens, documents });
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed - heapBefore;
  const warm = loadKnowledge(path.resolve(ROOT, kbPath), {}, { tokens, documents });
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const asyncCold = await loadKnowledgeAsync(path.resolve(ROOT, kbPath), {}, {});
  delay.disable();
  console.log(`${label}\n  cold:   ${cold.summary}\n  reload: ${warm.loadMs.toFixed(0)} ms (unchanged files: parse and token caches hit)`);
  console.log(`  async cold load ${asyncCold.loadMs.toFixed(0)} ms, longest event-loop stall ${(delay.max / 1e6).toFixed(0)} ms (p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms)`);
  console.log(`  heap after load: +${mb(heap)}${globalThis.gc ? '' : ' (run with --expose-gc for a figure after GC)'}`);
}

/** ms from spawning `next start` (offline model) to the end of its first answered chat. */
async function firstAnswer(kbPath: string, cacheDir: string, port: number): Promise<number> {
  const started = performance.now();
  const app = await startApp(port, {
    KB_PATH: kbPath,
    KB_CACHE_PATH: cacheDir,
    OPENAI_API_KEY: '',
    TRACE_DB_PATH: path.join(mkdtempSync(path.join(tmpdir(), 'bench-cold-')), 'traces.db'),
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
  }, 300_000);
  try {
    for (;;) {
      const response = await fetch(`${app.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question(`bench-cold-${port}`, 'how do I get started?')) });
      if (response.status === 200 && (await readChatStream(response)).text) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await app.stop();
  }
}

async function measureStart(label: string, kbPath: string, port: number): Promise<void> {
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'bench-kb-cache-'));
  const cold = await firstAnswer(kbPath, cacheDir, port);
  const cached = await firstAnswer(kbPath, cacheDir, port);
  console.log(`${label}\n  process start → first answered chat: ${cold.toFixed(0)} ms with nothing cached, ${cached.toFixed(0)} ms with the parsed KB cached`);
}

const server = !values['no-server'];
const kbs: [string, string][] = folders.length
  ? folders.map((f) => [f, f])
  : [
      ['demo KB (content/)', path.join(ROOT, 'content')],
      ['10,000 sections (corpus-10000 as 500 markdown files)', await corpusFolder(10000)],
    ];
for (const [label, kbPath] of kbs) await measure(label, kbPath);
if (server) for (const [label, kbPath] of kbs) await measureStart(label, kbPath, 3790);
