/**
 * bench:load — how long a knowledge base takes to load as the server loads it (files parsed,
 * their sections analysed and long sections split on one worker thread per core, the index
 * built in slices: lib/knowledge/load.ts `loadKnowledgeAsync`), how long the event loop is
 * held meanwhile, what each worker did (so the time on more cores can be estimated), a reload of unchanged files; then, end to end,
 * the time from starting `next start` to its first answered chat, without and with the
 * parsed KB cached on disk (KB_CACHE_PATH).
 *
 *   npm run bench:load -- [FOLDER …]        (default: content/, Next.js's docs, a 10,000-section KB, Node.js's API docs)
 *   npm run bench:load -- --no-server …     (in-process figures only)
 *   npm run bench:load -- --check-scanner … (also: the markdown line scanner against micromark on every .md file)
 *
 * The 10,000-section KB is written to a temporary folder from ../shared/corpora
 * (corpus-10000: real documentation sections, 20 per markdown file). Figures are one run
 * on a shared machine: compare the rows of one run, not runs of different days.
 */
import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { BuiltDocument, LoadProgress, WorkerFigures } from '@/lib/retrieval/index';
import { parseCommandLineOrExit, type Cli } from './cli';

const cli: Cli = {
  name: 'bench:load',
  usage: `usage: npm run bench:load [-- --no-server] [--check-scanner] [--source-workers] [--port N] [FOLDER …]

  FOLDER           knowledge bases to measure (default: content/, Next.js's docs, a 10,000-section KB from ../shared/corpora, Node.js's API docs)
  --no-server      in-process figures only (no \`next start\` to first answer)
  --check-scanner  also compare the markdown line scanner with micromark on every .md file of the folders
  --source-workers parse workers from the TypeScript sources through tsx (default: parse-worker.ts bundled
                   first, as \`next build\` bundles it for \`next start\`; tsx adds ~2 s to each worker's start)
  --port N         the first of the ports \`next start\` uses (default 3790)
  -h, --help       this text`,
};
const { values, positionals: folders } = parseCommandLineOrExit(
  cli,
  { 'no-server': { type: 'boolean' }, 'check-scanner': { type: 'boolean' }, 'source-workers': { type: 'boolean' }, port: { type: 'string' } },
  { allowPositionals: true },
);
const port = Number(values.port ?? 3790);

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { corpusAsMarkdownFolder } = await import('@/bench/corpus');
const { question, readChatStream } = await import('@/e2e/helpers');
const { startApp } = await import('@/e2e/spawn');
const { loadKnowledgeAsync } = await import('@/lib/knowledge/load');
const { POOL_MIN_BYTES, PartsCache, TokenCounter, documentFormat, parseDocument } = await import('@/lib/retrieval/index');
const { NODE_API_DOCS } = await import('@/lib/testing/real-docs');

const ROOT = path.resolve(import.meta.dirname, '..');

const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const load = () => loadavg()[0]!.toFixed(1);

/** Parse wall time on `cores` workers, from what the workers did: the longest file, or the total shared evenly, whichever is longer. */
function parseOn(cores: number, figures: readonly WorkerFigures[]): number {
  const busy = figures.reduce((sum, w) => sum + w.busyMs, 0);
  const longest = Math.max(0, ...figures.map((w) => w.longestMs));
  return Math.max(longest, busy / cores);
}

/**
 * parse-worker.ts bundled into one file, as `next build` bundles it for `next start` (esbuild here,
 * Turbopack there): the server's workers start from a bundle, not from the sources through tsx.
 * Made before any timing; `undefined` with --source-workers.
 */
async function bundledWorker(): Promise<URL | undefined> {
  if (values['source-workers']) return undefined;
  const { build } = await import('esbuild');
  const outfile = path.join(mkdtempSync(path.join(tmpdir(), 'bench-worker-')), 'parse-worker.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'lib/retrieval/parse-worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    alias: { '@': ROOT },
    // CommonJS dependencies inside an ES module bundle still call require.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'error',
  });
  return pathToFileURL(outfile);
}
const workerScript = await bundledWorker();

async function measure(label: string, kbPath: string): Promise<void> {
  // The server's caches (lib/knowledge/holder.ts): token counts, parsed documents, parts of long sections.
  const tokens = new TokenCounter();
  const documents = new Map<string, BuiltDocument>();
  const parts = new PartsCache();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let filesDone: number | undefined;
  const onProgress = (p: LoadProgress) => {
    if (p.done === p.total) filesDone ??= performance.now();
  };
  delay.enable();
  const started = performance.now();
  const { kb, index } = await loadKnowledgeAsync(kbPath, {}, { tokens, documents, parts, onProgress, ...(workerScript ? { workerScript } : {}) });
  const indexed = performance.now();
  const loaded = filesDone ?? indexed;
  delay.disable();
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed - heapBefore;
  const { parsing } = kb;
  const partCount = index.sections.length - kb.sections.length;
  console.log(`${label} (load average ${load()})`);
  console.log(`  cold load: ${ms(indexed - started)} = files ${ms(loaded - started)} + long sections split on the workers and index ${ms(indexed - loaded)}; ${kb.files.length} files, ${kb.sections.length} sections (+${partCount} parts), ${index.kbTokens.toLocaleString('en-US')} tokens`);
  console.log(`  longest event-loop stall ${ms(delay.max / 1e6)} (p99 ${ms(delay.percentile(99) / 1e6)})`);
  if (parsing.workers) {
    for (const [i, w] of parsing.figures.entries()) {
      console.log(`  worker ${i + 1}: ${w.files} files, ${mb(w.bytes)}, parsing ${ms(w.busyMs)} (longest file ${ms(w.longestMs)}), started in ${ms(w.startMs ?? 0)}`);
    }
    const startup = Math.max(...parsing.figures.map((w) => w.startMs ?? 0));
    const rest = indexed - started - startup - parseOn(parsing.workers, parsing.figures);
    const on = (cores: number) => ms(startup + rest + parseOn(cores, parsing.figures));
    console.log(
      `  estimate from these: ${on(1)} on 1 core, ${on(2)} on 2, ${on(8)} on 8 ` +
        `(workers' start-up ${ms(startup)} ${workerScript ? 'from a bundle' : 'under tsx'}, and the main thread's reading, waiting and indexing, ${ms(rest)}, stay)`,
    );
  } else {
    console.log(`  parsed on the main thread (${parsing.parsedFiles} files, under ${mb(POOL_MIN_BYTES)} to parse)`);
  }
  if (parsing.fallback) console.log(`  FALLBACK: ${parsing.fallback}`);
  console.log(`  heap after load: +${mb(heap)}${globalThis.gc ? '' : ' (run with --expose-gc for a figure after GC)'}`);

  const tokenized = tokens.tokenized;
  const reload = await loadKnowledgeAsync(kbPath, {}, { tokens, documents, parts });
  console.log(
    `  reload, files unchanged: ${ms(reload.loadMs)}; ${reload.kb.cachedFiles} of ${reload.files.length} files from the parse cache, ` +
      `${reload.kb.parsing.parsedFiles} parsed, ${tokens.tokenized - tokenized} texts tokenized`,
  );
}

/** The markdown line scanner against micromark, file by file (the test does the folders of the tests). */
function checkScanner(label: string, kbPath: string): void {
  const files = readdirSync(kbPath, { recursive: true, encoding: 'utf8' }).filter((f) => documentFormat(f) === 'markdown');
  let differ = 0;
  let scanMs = 0;
  let micromarkMs = 0;
  for (const file of files) {
    let source: string;
    try {
      source = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path.join(kbPath, file)));
    } catch {
      continue;
    }
    const read = (scanMarkdown: boolean) => {
      const t = performance.now();
      let out: unknown;
      try {
        out = parseDocument(file, source, 'markdown', { scanMarkdown });
      } catch (error) {
        out = String(error);
      }
      return { out, ms: performance.now() - t };
    };
    const scanned = read(true);
    const micromark = read(false);
    scanMs += scanned.ms;
    micromarkMs += micromark.ms;
    if (!isDeepStrictEqual(scanned.out, micromark.out)) {
      differ++;
      console.log(`  DIFFERENT: ${file}`);
    }
  }
  if (files.length) console.log(`  scanner check: ${files.length} .md files, ${differ} read differently from micromark; ${ms(scanMs)} with the scanner, ${ms(micromarkMs)} through micromark`);
}

/** ms from spawning `next start` (offline model) to the end of its first answered chat, and how the server says it loaded. */
async function firstAnswer(kbPath: string, cacheDir: string, at: number): Promise<{ ms: number; loaded: string }> {
  const started = performance.now();
  const app = await startApp(at, {
    KB_PATH: kbPath,
    KB_CACHE_PATH: cacheDir,
    OPENAI_API_KEY: '',
    TRACE_DB_PATH: path.join(mkdtempSync(path.join(tmpdir(), 'bench-cold-')), 'traces.db'),
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
  }, 300_000);
  try {
    for (;;) {
      const response = await fetch(`${app.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question(`bench-cold-${at}`, 'how do I get started?')) });
      if (response.status === 200 && (await readChatStream(response)).text) {
        return { ms: performance.now() - started, loaded: /\[knowledge\] loaded [^\n]*/.exec(app.output())?.[0] ?? '(no load line)' };
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await app.stop();
  }
}

async function measureStart(label: string, kbPath: string, at: number): Promise<void> {
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'bench-kb-cache-'));
  const cold = await firstAnswer(kbPath, cacheDir, at);
  const cached = await firstAnswer(kbPath, cacheDir, at);
  console.log(`${label} (load average ${load()})`);
  console.log(`  process start → first answered chat: ${ms(cold.ms)} with nothing cached, ${ms(cached.ms)} with the parsed KB cached`);
  console.log(`  server: ${cold.loaded}`);
  console.log(`  server, cached: ${cached.loaded}`);
}

const server = !values['no-server'];
const kbs: [string, string][] = folders.length
  ? folders.map((f) => [f, path.resolve(f)])
  : [
      ['demo KB (content/)', path.join(ROOT, 'content')],
      ["Next.js's docs (node_modules/next/dist/docs)", path.join(ROOT, 'node_modules/next/dist/docs')],
      ['10,000 sections (corpus-10000 as 500 markdown files)', await corpusAsMarkdownFolder(10000)],
      ...(existsSync(NODE_API_DOCS) ? [["Node.js's API docs (Debian, HTML and markdown)", NODE_API_DOCS] as [string, string]] : []),
    ];
console.log(`${availableParallelism()} cores; parse workers: one per core, ${workerScript ? `bundled (${workerScript.pathname})` : 'from the sources through tsx'}`);
for (const [label, kbPath] of kbs) {
  await measure(label, kbPath);
  if (values['check-scanner']) checkScanner(label, kbPath);
}
if (server) for (const [label, kbPath] of kbs) await measureStart(label, kbPath, port);
