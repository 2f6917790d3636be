/**
 * npm run load — the chat API under load, on this machine, against the stub model.
 *
 *   npm run load [-- --requests 2000 --connections 50 --soak 30 --soak-connections 50 --port 3700 --json out.json --cpu-prof DIR --baseline]
 *   npm run load -- --instances 2 --database postgres [--requests 2000 --connections 50]
 *
 * 1. Starts the OpenAI-compatible stub (e2e/stub, mode "fast": the fixed reply streamed
 *    without pauses) and the production server (`next start`, NEXT_DIST_DIR or .next; built
 *    first if missing) on 127.0.0.1, with a fresh trace database and rate limiting off
 *    (every request comes from one address).
 * 2. Bounded run: `--requests` POST /api/chat at `--connections` concurrent connections
 *    (autocannon), each a new conversation asking one of a few real questions.
 * 3. Soak: `--soak` seconds at `--soak-connections`, every question with a made-up word of its
 *    own (so caches keyed by words meet a new word each turn). The server's RSS (from /proc) and
 *    JS heap (from scripts/memory-probe.mjs, preloaded into the server by this script only) are
 *    sampled every `--sample-every` seconds and printed as a table, with the check "RSS after the
 *    first minute within 15% of its value at the end" (met / NOT met).
 * `--heap-snapshots DIR` writes heap snapshots of the server (after a full GC) into DIR: after the
 * warmup, after the bounded run and after the soak (open them in Chrome DevTools → Memory).
 * For each run it prints requests/s, p50/p99 latency of a whole turn (request sent → end of
 * the streamed reply), non-2xx answers, replies that did not complete (no finish event, or
 * an error event), the server's memory, and checks the trace store: every request that got
 * a 2xx has a trace, every completed reply's trace is `ok`, none is left `pending`.
 * With `--baseline`, the same bounded run is repeated against the smallest AI SDK chat server
 * (bench/baseline-server.mts: node:http and streamText on the same stub, nothing else), which
 * this script starts beside the app on PORT + 1, and the two are compared: turns/s, and server
 * CPU per turn (from /proc: user + system).
 *
 * With `--database postgres` (and `--instances N`): the same bounded run three times in one
 * run, each on fresh servers — one instance on SQLite, one on PostgreSQL, N instances on one
 * PostgreSQL (a throwaway cluster this script starts: lib/testing/postgres.ts) with the
 * requests and connections split evenly across them — and a table of the three. p50/p99 of
 * a multi-instance run are its worst instance's.
 * Exits 1 if a trace is missing or anything failed, or the soak's RSS check is not met.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Result as Cannon } from 'autocannon';
import type { Pool } from 'pg';
import type { Server } from '@/e2e/spawn';
import { parseCommandLineOrExit, usageExit, wholeNumberFlag, type Cli } from './cli';
import { curveTable, lastProbe, steadiness, steadinessLine, type MemorySample, type Steadiness } from './load-memory';

const cli: Cli = {
  name: 'load',
  usage: `usage: npm run load [-- options]

  --requests N           requests of the bounded run (default: 2000)
  --connections N        its concurrent connections (default: 50)
  --soak S               seconds of the soak run, distinct questions; 0: none (default: 30)
  --soak-connections N   its concurrent connections (default: 50)
  --sample-every S       the soak's memory samples, seconds apart (default: 10)
  --distinct             the bounded run's questions distinct too (a made-up word each)
  --heap-snapshots DIR   write the server's heap snapshots into DIR (after warmup, bounded run, soak)
                         (this, --allocations and --node-options: the SQLite run only)
  --allocations          with --heap-snapshots, also what was allocated between them (.heapprofile)
  --node-options=FLAGS   more node flags for the server, space-separated (with "=": the value starts
                         with "--"), e.g. --node-options=--max-old-space-size=512
  --port PORT            the server's port; the stub gets PORT + 2 (default: 3700)
  --baseline             also the smallest streamText server (bench/baseline-server.mts), compared
  --database NAME        sqlite, or postgres: one instance on SQLite, one and --instances on PostgreSQL (default: sqlite)
  --instances N          instances on one PostgreSQL, with --database postgres (default: 1)
  --json FILE            also write the figures as JSON
  --cpu-prof DIR         write the server's CPU profile to DIR
  -h, --help             this text

Exit status: 0 every request answered, every completed turn traced and (soaks over a minute)
RSS steady after the first minute; 1 otherwise.`,
};
const { values } = parseCommandLineOrExit(cli, {
  requests: { type: 'string', default: '2000' },
  connections: { type: 'string', default: '50' },
  soak: { type: 'string', default: '30' },
  'soak-connections': { type: 'string', default: '50' },
  'sample-every': { type: 'string', default: '10' },
  distinct: { type: 'boolean' },
  'heap-snapshots': { type: 'string' },
  allocations: { type: 'boolean' },
  'node-options': { type: 'string', default: '' },
  port: { type: 'string', default: '3700' },
  json: { type: 'string' },
  'cpu-prof': { type: 'string' },
  baseline: { type: 'boolean' },
  instances: { type: 'string', default: '1' },
  database: { type: 'string', default: 'sqlite' },
});
const INSTANCES = wholeNumberFlag(cli, 'instances', values.instances, 1);
if (values.database !== 'sqlite' && values.database !== 'postgres') usageExit(cli, `--database is sqlite or postgres, got "${values.database}"`);
if (INSTANCES > 1 && values.database !== 'postgres') usageExit(cli, '--instances above 1 needs --database postgres (instances share one database)');
const REQUESTS = wholeNumberFlag(cli, 'requests', values.requests, 1);
const CONNECTIONS = wholeNumberFlag(cli, 'connections', values.connections, 1);
const SOAK_S = wholeNumberFlag(cli, 'soak', values.soak);
const SOAK_CONNECTIONS = wholeNumberFlag(cli, 'soak-connections', values['soak-connections'], 1);
const PORT = wholeNumberFlag(cli, 'port', values.port, 1);
if (values.allocations && !values['heap-snapshots']) usageExit(cli, '--allocations needs --heap-snapshots DIR (the profiles are written beside the snapshots)');
const SAMPLE_EVERY_S = wholeNumberFlag(cli, 'sample-every', values['sample-every'], 1);

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { default: autocannon } = await import('autocannon');
const { default: Database } = await import('better-sqlite3');
const { default: pg } = await import('pg');
const { question } = await import('@/e2e/helpers');
const { startApp, startNodeScript, stubbedServerSetup } = await import('@/e2e/spawn');
const { startPostgres } = await import('@/lib/testing/postgres');

/** The server's memory probe (process.memoryUsage() every second, heap snapshots on SIGUSR2): preloaded by this script only. */
const MEMORY_PROBE = path.join(import.meta.dirname, 'memory-probe.mjs');

const BASELINE_SERVER = path.join(import.meta.dirname, '../bench/baseline-server.mts');
const QUESTIONS = ['can I get a refund?', 'how do I start a live stream?', 'why does my video keep buffering?', 'what does the Pro plan cost?', 'hi, I need some help'];
const SYLLABLES = ['ba', 'ko', 'mi', 'tu', 're', 'sa', 'lo', 'vi', 'ne', 'du', 'fa', 'zo', 'pi', 'gu', 'he', 'wy'];

/** A made-up word of letters only, different for every `i` (≥ 6 letters, so typo correction looks it up). */
function madeUpWord(i: number): string {
  let word = '';
  for (let n = i + SYLLABLES.length ** 2; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
}

/** Question `i`: one of the real QUESTIONS; with `distinct`, followed by a made-up word no other question has. */
function questionText(i: number, distinct: boolean): string {
  const text = QUESTIONS[i % QUESTIONS.length]!;
  return distinct ? `${text} ${madeUpWord(i)}` : text;
}

/** CPU time the server process has used, ms (utime + stime from /proc/PID/stat, at 100 ticks/s). */
function cpuMs(server: Server): number {
  try {
    const fields = execFileSync('cat', [`/proc/${server.process.pid}/stat`]).toString().split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

function rssMb(server: Server): number {
  try {
    const status = execFileSync('cat', [`/proc/${server.process.pid}/status`]).toString();
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
  } catch {
    return NaN;
  }
}

interface RunFigures {
  name: string;
  connections: number;
  durationS: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  incomplete: number;
  traces: { written: number; ok: number; error: number; aborted: number; pending: number };
  /** 2xx responses without a trace, plus completed replies whose trace is not `ok`. */
  tracesLost: number;
  rssMbBefore: number;
  rssMbAfter: number;
  /** Server CPU (user + system) per request of this run, ms. */
  cpuMsPerTurn: number;
  /** The JS heap at the end of the run (one instance, from its memory probe). */
  heapAfter?: { usedMb: number; totalMb: number; externalMb: number };
  /** The soak's memory curve and its check. */
  memory?: { samples: MemorySample[]; steadiness: Steadiness | undefined };
}

/** How many turns of the conversations starting with `prefix` are in each status. */
type Tally = (prefix: string) => Promise<{ status: string; n: number }[]>;

function sqliteTally(file: string): Tally {
  return async (prefix) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare('SELECT status, COUNT(*) AS n FROM turns WHERE conversation_id LIKE ? GROUP BY status').all(`${prefix}%`) as { status: string; n: number }[];
    } finally {
      db.close();
    }
  };
}

function postgresTally(pool: Pool): Tally {
  return async (prefix) =>
    (await pool.query<{ status: string; n: number }>('SELECT status, COUNT(*)::int AS n FROM turns WHERE conversation_id LIKE $1 GROUP BY status', [`${prefix}%`])).rows;
}

interface RunOptions {
  /** Requests to send, or else… */
  amount?: number;
  /** …seconds to run for. */
  duration?: number;
  connections: number;
  /** Every question with a made-up word of its own (caches keyed by words see a new word each turn). */
  distinct?: boolean;
}

/**
 * One autocannon run against one server: `amount` requests (or `duration` s) at `connections`.
 * Its `duration` is from the start to the last answer: autocannon's own ends at its next
 * one-second tick after the last answer, which moved a 20 s run's requests/s by up to 5%.
 */
async function cannon(app: Server, name: string, options: RunOptions, next: () => number): Promise<Cannon> {
  const started = performance.now();
  let lastAnswer = started;
  const result = await autocannon({
    url: `${app.url}/api/chat`,
    connections: options.connections,
    ...(options.amount ? { amount: options.amount } : { duration: options.duration }),
    timeout: 30,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request: Record<string, unknown>) => {
          const i = next();
          return {
            ...request,
            body: JSON.stringify(question(`load-${name}-${String(i).padStart(6, '0')}`, questionText(i, options.distinct ?? false))),
          };
        },
      },
    ],
    // A completed turn: the stream reached its finish event without an error event.
    verifyBody: (body: string) => body.includes('"type":"finish"') && !body.includes('"type":"error"'),
  }).on('response', () => {
    lastAnswer = performance.now();
  });
  // No answer at all (every request failed): autocannon's own duration.
  return lastAnswer === started ? result : { ...result, duration: (lastAnswer - started) / 1000 };
}

/** A run split evenly across `apps` (requests and connections), then the trace store checked for every turn. */
async function run(apps: Server[], tally: Tally, name: string, options: RunOptions): Promise<RunFigures> {
  let n = 0;
  const sum = (f: (app: Server) => number) => apps.reduce((total, app) => total + f(app), 0);
  const rssMbBefore = sum(rssMb);
  const cpuBefore = sum(cpuMs);
  const share = (x: number | undefined) => (x === undefined ? undefined : Math.ceil(x / apps.length));
  const results = await Promise.all(
    apps.map((app) => cannon(app, name, { ...options, amount: share(options.amount), connections: share(options.connections)! }, () => n++)),
  );
  const total = (f: (r: Cannon) => number) => results.reduce((t, r) => t + f(r), 0);
  const worst = (f: (r: Cannon) => number) => Math.max(...results.map(f));
  const requests = total((r) => r.requests.total);
  const cpuMsPerTurn = Math.round(((sum(cpuMs) - cpuBefore) / Math.max(1, requests)) * 10) / 10;
  // A timed run stops with requests in flight: give their turns time to end (ok, or aborted).
  let counts = await tally(`load-${name}-`);
  for (let waited = 0; waited < 15_000 && counts.some((c) => c.status === 'pending'); waited += 250) {
    await new Promise((r) => setTimeout(r, 250));
    counts = await tally(`load-${name}-`);
  }
  const by = (status: string) => counts.find((c) => c.status === status)?.n ?? 0;
  const traces = { written: counts.reduce((s, c) => s + c.n, 0), ok: by('ok'), error: by('error'), aborted: by('aborted'), pending: by('pending') };
  const ok2xx = total((r) => r['2xx']);
  const completed = ok2xx - total((r) => r.mismatches);
  const durationS = worst((r) => r.duration);
  return {
    name,
    connections: options.connections,
    durationS,
    requests,
    requestsPerSecond: Math.round((requests / durationS) * 10) / 10,
    p50Ms: worst((r) => r.latency.p50),
    p99Ms: worst((r) => r.latency.p99),
    non2xx: total((r) => r.non2xx),
    errors: total((r) => r.errors),
    incomplete: total((r) => r.mismatches),
    traces,
    tracesLost: Math.max(0, ok2xx - traces.written) + Math.max(0, completed - traces.ok),
    rssMbBefore,
    rssMbAfter: sum(rssMb),
    cpuMsPerTurn,
    ...heapAfter(apps),
  };
}

function heapAfter(apps: Server[]): Pick<RunFigures, 'heapAfter'> {
  const probe = apps.length === 1 ? lastProbe(apps[0]!.output()) : undefined;
  return probe ? { heapAfter: { usedMb: probe.heapUsedMb, totalMb: probe.heapTotalMb, externalMb: probe.externalMb } } : {};
}

/** `run`, with the server's memory sampled every SAMPLE_EVERY_S seconds from its start to its end. */
async function sampledRun(app: Server, tally: Tally, name: string, options: RunOptions): Promise<RunFigures> {
  const started = Date.now();
  const samples: MemorySample[] = [];
  const sample = () => samples.push({ atS: Math.round((Date.now() - started) / 1000), rssMb: rssMb(app), ...probeMb(app) });
  sample();
  const timer = setInterval(sample, SAMPLE_EVERY_S * 1000);
  try {
    const figures = await run([app], tally, name, options);
    return { ...figures, memory: { samples, steadiness: steadiness(samples) } };
  } finally {
    clearInterval(timer);
  }
}

function probeMb(app: Server): Partial<MemorySample> {
  const probe = lastProbe(app.output());
  return probe ? { heapUsedMb: probe.heapUsedMb, heapTotalMb: probe.heapTotalMb, externalMb: probe.externalMb } : {};
}

/** Has the server write a heap snapshot (its probe: SIGUSR2, after a full GC) and waits for it. */
async function heapSnapshot(app: Server, label: string): Promise<void> {
  const written = () => app.output().split('[memory-probe] snapshot ').length - 1;
  const before = written();
  app.process.kill('SIGUSR2');
  for (let waited = 0; written() === before; waited += 250) {
    if (waited > 600_000) throw new Error(`the server wrote no heap snapshot within 600 s (${label})`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const file = app.output().split('[memory-probe] snapshot ').at(-1)!.split('\n')[0];
  console.log(`== heap snapshot ${label}: ${file} (RSS ${rssMb(app)} MB)`);
}

function print(f: RunFigures): void {
  console.log(
    [
      `== ${f.name}: ${f.requests} requests in ${f.durationS.toFixed(1)} s at ${f.connections} connections`,
      `   requests/s ${f.requestsPerSecond}   latency p50 ${f.p50Ms} ms   p99 ${f.p99Ms} ms`,
      `   non-2xx ${f.non2xx}   connection errors ${f.errors}   replies not completed ${f.incomplete}`,
      `   traces written ${f.traces.written} (ok ${f.traces.ok}, error ${f.traces.error}, aborted ${f.traces.aborted}, pending ${f.traces.pending})   traces lost ${f.tracesLost}` +
        (f.traces.written > f.requests ? `   (${f.traces.written - f.requests} turns were still in flight when the run stopped)` : ''),
      `   server memory (RSS) ${f.rssMbBefore} MB → ${f.rssMbAfter} MB   server CPU per request ${f.cpuMsPerTurn} ms` +
        (f.heapAfter ? `   JS heap ${f.heapAfter.usedMb} of ${f.heapAfter.totalMb} MB, external ${f.heapAfter.externalMb} MB` : ''),
    ].join('\n'),
  );
  if (f.memory) console.log(`\n${curveTable(f.memory.samples)}\n\n== ${steadinessLine(f.memory.steadiness)}`);
}

const failedRun = (f: RunFigures) =>
  f.tracesLost > 0 || f.traces.pending > 0 || f.non2xx > 0 || f.errors > 0 || f.incomplete > 0 || f.memory?.steadiness?.met === false;

/** The default run: one instance on SQLite — bounded, then the baseline server (--baseline), then the soak. */
async function singleInstance(): Promise<RunFigures[]> {
  const { distDir, stub, dbFile, env } = await stubbedServerSetup('load', PORT);
  await fetch(`${stub.url}/__mode`, { method: 'POST', body: JSON.stringify({ mode: 'fast' }) });
  const snapshots = values['heap-snapshots'] && path.resolve(values['heap-snapshots']);
  if (snapshots) mkdirSync(snapshots, { recursive: true });
  const app = await startApp(
    PORT,
    {
      ...env,
      ...(snapshots ? { MEMORY_PROBE_DIR: snapshots, ...(values.allocations ? { MEMORY_PROBE_ALLOCATIONS: '1' } : {}) } : {}),
    },
    30_000,
    [
      '--import',
      MEMORY_PROBE,
      ...(snapshots ? ['--expose-gc'] : []),
      ...(values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : []),
      ...values['node-options'].split(' ').filter(Boolean),
    ],
  );
  const tally = sqliteTally(dbFile);
  const figures: RunFigures[] = [];
  try {
    console.log(`server ${app.url} (${distDir}), stub ${stub.url}, traces ${dbFile}, ${(await import('node:os')).cpus().length} CPUs`);
    console.log(`== started: RSS ${rssMb(app)} MB${values['node-options'] ? `, node ${values['node-options']}` : ''}`);
    await run([app], tally, 'warmup', { amount: 100, connections: 10 });
    if (snapshots) await heapSnapshot(app, 'after the warmup');
    figures.push(await run([app], tally, 'bounded', { amount: REQUESTS, connections: CONNECTIONS, distinct: values.distinct }));
    print(figures[0]!);
    if (snapshots) await heapSnapshot(app, 'after the bounded run');
    if (values.baseline) {
      const baseline = await baselineRun(env);
      const chat = figures[0]!;
      console.log(
        `== baseline (the smallest streamText server, same stub): ${baseline.requestsPerSecond} requests/s, ` +
          `p50 ${baseline.p50Ms} ms, server CPU per request ${baseline.cpuMsPerTurn} ms, non-2xx ${baseline.non2xx}\n` +
          `   the chat route: ${((chat.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(0)}% of its turns/s, ` +
          `${(chat.cpuMsPerTurn / baseline.cpuMsPerTurn).toFixed(2)}× its CPU per turn (+${(chat.cpuMsPerTurn - baseline.cpuMsPerTurn).toFixed(1)} ms)`,
      );
    }
    if (SOAK_S > 0) {
      const soak = await sampledRun(app, tally, 'soak', { duration: SOAK_S, connections: SOAK_CONNECTIONS, distinct: true });
      figures.push(soak);
      print(soak);
      if (snapshots) await heapSnapshot(app, 'after the soak');
    }
    const health = await fetch(`${app.url}/api/health`);
    console.log(`== after the load: /api/health ${health.status}`);
    if (health.status !== 200) figures.push({ ...figures[0]!, name: 'health', non2xx: 1 });
  } finally {
    await app.stop();
    await stub.stop();
  }
  return figures;
}

/**
 * The bounded run against the baseline server (bench/baseline-server.mts) on PORT + 1, started
 * for it with the app's model settings and stopped after; it stores nothing, so no trace is counted.
 */
async function baselineRun(appEnv: Record<string, string>): Promise<RunFigures> {
  const { OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL } = appEnv;
  const server = await startNodeScript(BASELINE_SERVER, PORT + 1, { BASELINE_PORT: String(PORT + 1), OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL }, ['--import', 'tsx']);
  const noTraces: Tally = async () => [];
  try {
    await run([server], noTraces, 'baseline-warmup', { amount: 100, connections: 10 });
    return await run([server], noTraces, 'baseline', { amount: REQUESTS, connections: CONNECTIONS });
  } finally {
    await server.stop();
  }
}

/** One instance on SQLite, one on PostgreSQL, INSTANCES on one PostgreSQL: the same bounded run on each, in this run. */
async function acrossInstances(): Promise<RunFigures[]> {
  const { distDir, stub, dbFile, env } = await stubbedServerSetup('load', PORT);
  await fetch(`${stub.url}/__mode`, { method: 'POST', body: JSON.stringify({ mode: 'fast' }) });
  const postgres = await startPostgres();
  const pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
  const shared = { DATABASE_URL: postgres.url, VISITOR_SECRET: 'load-visitor-secret-shared-by-all-instances' };
  const scenarios = [
    { name: 'sqlite-1', instances: 1, env: {}, tally: sqliteTally(dbFile) },
    { name: 'postgres-1', instances: 1, env: shared, tally: postgresTally(pool) },
    ...(INSTANCES > 1 ? [{ name: `postgres-${INSTANCES}`, instances: INSTANCES, env: shared, tally: postgresTally(pool) }] : []),
  ];
  console.log(`build ${distDir}, stub ${stub.url}, PostgreSQL ${postgres.url}, ${(await import('node:os')).cpus().length} CPUs`);
  const figures: RunFigures[] = [];
  try {
    for (const scenario of scenarios) {
      const apps = await Promise.all(
        Array.from({ length: scenario.instances }, (_, i) =>
          startApp(PORT + 10 * i, { ...env, ...scenario.env, TRACE_DB_PATH: i === 0 ? dbFile : `${dbFile}.${i}`, KB_CACHE_PATH: `${dbFile}.kb-cache-${i}` }),
        ),
      );
      try {
        await run(apps, scenario.tally, `warmup-${scenario.name}`, { amount: 100 * scenario.instances, connections: 10 });
        const f = await run(apps, scenario.tally, scenario.name, { amount: REQUESTS, connections: CONNECTIONS });
        print(f);
        figures.push(f);
      } finally {
        await Promise.all(apps.map((app) => app.stop()));
      }
    }
    console.log('\n| store | instances | turns/s | p50 ms | p99 ms | non-2xx | traces lost | server CPU per turn |\n|---|---|---|---|---|---|---|---|');
    scenarios.forEach((s, i) => {
      const f = figures[i]!;
      console.log(`| ${s.name.startsWith('sqlite') ? 'SQLite' : 'PostgreSQL'} | ${s.instances} | ${f.requestsPerSecond} | ${f.p50Ms} | ${f.p99Ms} | ${f.non2xx} | ${f.tracesLost} | ${f.cpuMsPerTurn} ms |`);
    });
  } finally {
    await stub.stop();
    await pool.end();
    await postgres.stop();
  }
  return figures;
}

const figures = values.database === 'postgres' ? await acrossInstances() : await singleInstance();
const failed = figures.some(failedRun);
console.log(failed ? '== FAILED: see above' : '== passed: every request answered, every completed turn traced (0 lost)');
if (values.json) writeFileSync(values.json, JSON.stringify(figures, null, 2));
process.exit(failed ? 1 : 0);
