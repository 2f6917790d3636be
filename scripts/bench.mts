/**
 * bench — speed and memory of our selector against the JS search libraries, side by side.
 *
 *   npm run bench                              all corpora (136 … 100,000 sections) + the demo KB
 *   npm run bench -- --sizes 136,1000,demo     a subset (results.md is then not rewritten)
 *   npm run bench -- --contenders "ours: scoring,MiniSearch"
 *   npm run bench -- --sizes 10000 --contenders "ours: full selection" --explain-limit 100
 *                                              our selector with a shorter explanation (default 1,000)
 *
 * Each contender × corpus runs in its own child process (bench/worker.mts) so one
 * library's heap and JIT state never affect another's. Prints one markdown table and,
 * for a full run, writes bench/results.md, bench/results.json and bench/latency.svg.
 */
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONTENDER_NAMES, CORPUS_SIZES } from '@/bench/names';
import type { WorkerResult } from '@/bench/worker.mts';
import { parseCommandLineOrExit, usageExit, wholeNumberFlag, type Cli } from './cli';

const cli: Cli = {
  name: 'bench',
  usage: `usage: npm run bench [-- --sizes LIST] [--contenders LIST] [--explain-limit N] [--write]

  --sizes LIST          corpora, comma-separated: demo, ${CORPUS_SIZES.join(', ')} (default: all)
  --contenders LIST     contenders, comma-separated (default: all): ${CONTENDER_NAMES.join(', ')}
  --explain-limit N     our selector's explainLimit (default: 1,000)
  --write               write bench/results.md, results.json and latency.svg (a full run always does)
  -h, --help            this text`,
};

const WORKER_TIMEOUT_MS = 10 * 60 * 1000;
/** The peers: every contender that is not ours. */
const LIBRARIES = CONTENDER_NAMES.filter((name) => !name.startsWith('ours: '));

const TARGETS = {
  fullP50At136Us: 10,
  fullP50At100kUs: 1000,
  scoringSpeedupVsFastestPeer: 2,
  turnSpeedupVsFastestPeer: 2,
  build100kMs: 10_000,
  heap100kMB: 500,
};

const { values } = parseCommandLineOrExit(cli, {
  sizes: { type: 'string' },
  contenders: { type: 'string' },
  write: { type: 'boolean' },
  'explain-limit': { type: 'string' },
});
if (values['explain-limit'] !== undefined) process.env.BENCH_EXPLAIN_LIMIT = String(wholeNumberFlag(cli, 'explain-limit', values['explain-limit']));
const allCorpora = ['demo', ...CORPUS_SIZES.map(String)];
const corpora = values.sizes ? values.sizes.split(',').map((s) => s.trim()) : allCorpora;
for (const c of corpora) if (!allCorpora.includes(c)) usageExit(cli, `--sizes: unknown corpus "${c}" (one of ${allCorpora.join(', ')})`);
const contenderNames: string[] = values.contenders ? values.contenders.split(',').map((s) => s.trim()) : [...CONTENDER_NAMES];
for (const name of contenderNames) if (!CONTENDER_NAMES.some((known) => known === name)) usageExit(cli, `--contenders: unknown contender "${name}"`);
const fullRun = !values.sizes && !values.contenders && values['explain-limit'] === undefined;
const write = values.write ?? fullRun;

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { logLogChart } = await import('@/bench/chart');
const { checkCorporaPresent, REPO_ROOT } = await import('@/bench/corpus');
const { formatNumber } = await import('@/lib/format');

const BENCH_DIR = path.join(REPO_ROOT, 'bench');
const WORKER = path.join(BENCH_DIR, 'worker.mts');
checkCorporaPresent(corpora.filter((c) => c !== 'demo').map(Number));

interface Failure {
  contender: string;
  corpus: string;
  error: string;
}

function runWorker(contender: string, corpus: string): Promise<WorkerResult | Failure> {
  return new Promise((resolve) => {
    const child = fork(WORKER, [contender, corpus], {
      execArgv: ['--expose-gc', '--max-old-space-size=8192', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let settled = false;
    const finish = (r: WorkerResult | Failure) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(r);
      }
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ contender, corpus, error: `timed out after ${WORKER_TIMEOUT_MS / 1000} s` });
    }, WORKER_TIMEOUT_MS);
    child.on('message', (m: { ok: boolean; result?: WorkerResult; error?: string }) => {
      finish(m.ok ? m.result! : { contender, corpus, error: m.error!.split('\n')[0]! });
    });
    child.on('exit', (code, signal) => finish({ contender, corpus, error: `worker exited (${signal ?? code}) without a result` }));
  });
}

const fmt = (n: number, digits = 1) => formatNumber(n, digits);
const us = (n: number) => (n >= 100 ? fmt(n, 0) : n >= 10 ? fmt(n, 1) : fmt(n, 2));

const started = performance.now();
const loadAtStart = os.loadavg()[0]!;
const results: WorkerResult[] = [];
/** One-minute load average when each measurement ended (context for absolute times). */
const loads = new Map<WorkerResult, number>();
const failures: Failure[] = [];
for (const corpus of corpora) {
  for (const name of contenderNames) {
    const t = performance.now();
    process.stderr.write(`bench: ${corpus.padStart(6)} × ${name} … `);
    const r = await runWorker(name, corpus);
    const load = os.loadavg()[0]!;
    if (!('error' in r)) loads.set(r, load);
    if ('error' in r) {
      failures.push(r);
      process.stderr.write(`FAILED: ${r.error}\n`);
    } else {
      results.push(r);
      process.stderr.write(
        `build ${fmt(r.buildMs, 0)} ms, p50 ${us(r.latency.p50)} µs (${((performance.now() - t) / 1000).toFixed(1)} s)\n`,
      );
    }
  }
}
const totalSeconds = (performance.now() - started) / 1000;
const loadAtEnd = os.loadavg()[0]!;

// ---------------------------------------------------------------------------
// Tables

const corpusLabel = (c: string) => (c === 'demo' ? 'demo KB' : `corpus-${c}`);
const lines: string[] = [];
lines.push(
  '| corpus | sections | contender | build ms | index heap MB | total heap MB | p50 µs | p95 µs | p99 µs | timed calls (questions) | load |',
  '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
);
for (const r of results) {
  lines.push(
    `| ${corpusLabel(r.corpus)} | ${formatNumber(r.sections)} | ${r.contender} | ${fmt(r.buildMs, 0)} | ${fmt(r.indexHeapMB, 1)} | ${fmt(r.totalHeapMB, 0)} | ${us(r.latency.p50)} | ${us(r.latency.p95)} | ${us(r.latency.p99)} | ${formatNumber(r.latency.samples)} (${r.latency.questions}) | ${fmt(loads.get(r) ?? NaN, 1)} |`,
  );
}
for (const f of failures) lines.push(`| ${corpusLabel(f.corpus)} | | ${f.contender} | failed: ${f.error} | | | | | | | |`);
const table = lines.join('\n');

const find = (contender: string, corpus: string) => results.find((r) => r.contender === contender && r.corpus === corpus);
const targetRows: string[] = ['| target | measured | ratio | met? |', '|---|---:|---:|---|'];
const verdict = (ok: boolean | undefined) => (ok === undefined ? 'not measured' : ok ? '**met**' : '**missed**');
{
  const r = find('ours: full selection', '136');
  const v = r?.latency.p50;
  targetRows.push(
    `| full selection p50 ≤ ${TARGETS.fullP50At136Us} µs at 136 sections | ${v === undefined ? '—' : `${us(v)} µs`} | ${v === undefined ? '—' : `${fmt(v / TARGETS.fullP50At136Us, 2)}× the target`} | ${verdict(v === undefined ? undefined : v <= TARGETS.fullP50At136Us)} |`,
  );
}
{
  const r = find('ours: full selection', '100000');
  const v = r?.latency.p50;
  targetRows.push(
    `| full selection p50 ≤ 1 ms at 100,000 sections | ${v === undefined ? '—' : `${us(v)} µs`} | ${v === undefined ? '—' : `${fmt(v / TARGETS.fullP50At100kUs, 2)}× the target`} | ${verdict(v === undefined ? undefined : v <= TARGETS.fullP50At100kUs)} |`,
  );
}
/** One of ours against the fastest peer at p50 on a corpus; undefined when either was not measured. */
function againstFastestPeer(name: string, corpus: string): { ours: WorkerResult; fastest: WorkerResult; speedup: number } | undefined {
  const ours = find(name, corpus);
  const peers = LIBRARIES.map((l) => find(l, corpus)).filter((r): r is WorkerResult => r !== undefined);
  if (!ours || peers.length === 0) return undefined;
  const fastest = peers.reduce((a, b) => (a.latency.p50 <= b.latency.p50 ? a : b));
  return { ours, fastest, speedup: fastest.latency.p50 / ours.latency.p50 };
}
for (const corpus of corpora) {
  const against = againstFastestPeer('ours: turn', corpus);
  if (!against) continue;
  const { ours, fastest, speedup } = against;
  targetRows.push(
    `| a whole turn's computing (selection, prompt, trace row) p50 ≥ ${TARGETS.turnSpeedupVsFastestPeer}× faster than the fastest peer's ranking, ${corpusLabel(corpus)} | ours ${us(ours.latency.p50)} µs vs ${fastest.contender} ${us(fastest.latency.p50)} µs | ${fmt(speedup, 2)}× faster | ${verdict(speedup >= TARGETS.turnSpeedupVsFastestPeer)} |`,
  );
}
for (const corpus of corpora) {
  const against = againstFastestPeer('ours: scoring', corpus);
  if (!against) continue;
  const { ours, fastest, speedup } = against;
  targetRows.push(
    `| scoring p50 ≥ ${TARGETS.scoringSpeedupVsFastestPeer}× faster than the fastest peer, ${corpusLabel(corpus)} | ours ${us(ours.latency.p50)} µs vs ${fastest.contender} ${us(fastest.latency.p50)} µs | ${fmt(speedup, 2)}× faster | ${verdict(speedup >= TARGETS.scoringSpeedupVsFastestPeer)} |`,
  );
}
{
  const r = find('ours: full selection', '100000');
  const v = r?.buildMs;
  targetRows.push(
    `| index build < 10 s at 100,000 sections (exact token counts included) | ${v === undefined ? '—' : `${fmt(v / 1000, 1)} s`} | ${v === undefined ? '—' : `${fmt(v / TARGETS.build100kMs, 2)}× the limit`} | ${verdict(v === undefined ? undefined : v < TARGETS.build100kMs)} |`,
  );
  const h = r?.totalHeapMB;
  targetRows.push(
    `| heap < 500 MB at 100,000 sections (whole process, texts included) | ${h === undefined ? '—' : `${fmt(h, 0)} MB (index alone ${fmt(r!.indexHeapMB, 0)} MB)`} | ${h === undefined ? '—' : `${fmt(h / TARGETS.heap100kMB, 2)}× the limit`} | ${verdict(h === undefined ? undefined : h < TARGETS.heap100kMB)} |`,
  );
}
const targets = targetRows.join('\n');

const cpus = os.cpus();
const machine = `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; ${os.platform()} ${os.release()}`;
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;

const markdown = [
  '# Benchmark results',
  '',
  `Produced by \`${command}\` on ${new Date().toISOString().slice(0, 10)} in ${totalSeconds.toFixed(0)} s.`,
  `Machine: ${machine}. One-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end (2 cores; other processes share the machine).`,
  '',
  'The last column is the one-minute load average of the machine when the measurement ended: above 2, other processes were competing for the 2 cores and absolute times are inflated (the ratios between contenders measured at similar load stay meaningful).',
  '',
  'Latency is per question (200 natural-language questions for the corpora; the golden customer questions plus the same 200 for the demo KB), µs, after a warm-up, each contender in its own process. Build is everything from documents in memory to ready to answer. Heap is measured after a forced GC: "index heap" is what the build added over the loaded documents, "total heap" the whole process once ready. See bench/README.md for how each library is configured.',
  '',
  table,
  '',
  '## Targets (ratios from this same run)',
  '',
  targets,
  '',
  '![p50 latency vs corpus size](latency.svg)',
  '',
].join('\n');

console.log(table);
console.log('');
console.log(targets);
console.log('');
console.log(`${machine}; ${totalSeconds.toFixed(0)} s`);

if (write) {
  writeFileSync(path.join(BENCH_DIR, 'results.md'), markdown);
  writeFileSync(
    path.join(BENCH_DIR, 'results.json'),
    JSON.stringify({ command, machine, date: new Date().toISOString(), loadAtStart, loadAtEnd, results: results.map((r) => ({ ...r, load: loads.get(r) })), failures }, null, 2) + '\n',
  );
  const sizes = corpora.filter((c) => c !== 'demo');
  const svg = logLogChart({
    title: 'p50 latency per question vs corpus size (log-log)',
    xLabel: 'sections in the corpus',
    yLabel: 'p50 latency per question',
    series: contenderNames.map((name) => ({
      name,
      points: sizes.flatMap((c) => {
        const r = find(name, c);
        return r ? [{ x: r.sections, y: r.latency.p50 }] : [];
      }),
    })),
  });
  writeFileSync(path.join(BENCH_DIR, 'latency.svg'), svg);
  console.error('bench: wrote bench/results.md, bench/results.json, bench/latency.svg');
} else {
  console.error('bench: partial run, bench/results.md not rewritten (pass --write to force)');
}
if (failures.length) process.exitCode = 1;
