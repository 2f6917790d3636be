/**
 * bench:help — what a flood of help-page requests from one client does to everyone else.
 *
 *   npm run bench:help [-- --connections 50 --seconds 12 --limit off,on --paths P,… --port 3790 --cpu-prof DIR]
 *
 * Starts the stub model (e2e/stub, mode "ok": the reply streamed at 40 ms a word, like a model)
 * and, for each `--limit` scenario, a production server (`next start`, NEXT_DIST_DIR or .next;
 * built when missing): "off" with HELP_RATE_LIMIT_PER_MINUTE=0 (what the render cache alone
 * does; it also times one help page, requests one at a time), "on" with the default limits.
 * Then two probes run side by side, one request at a time each: `GET /` (the whole page) and
 * a chat reply (`POST /api/chat`, request sent → end of the streamed reply, and its first
 * byte) — for a few seconds on the idle server, then while `--connections` connections send
 * `GET /help/…` (every demo help page in turn, no If-None-Match: a flood does not revalidate;
 * or `--paths a,b`, e.g. `/debug`, an instant 401 from the proxy) for `--seconds`, from a
 * child process (in this one, autocannon's event loop would delay the probes' timing). Prints the probes' p50/p95 idle and under the flood, the ratios (target:
 * p50 within 2× of idle), what the flood got and the server's CPU. Every request comes from
 * 127.0.0.1, so the flood and the probes are one client (the probes ask for no help page).
 */
import { fork } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import type { Result as Cannon } from 'autocannon';
import type { Server } from '@/e2e/spawn';
import { parseCommandLineOrExit, usageExit, wholeNumberFlag, type Cli } from './cli';

if (process.argv[2] === '--flood-worker') {
  // The flood process: the paths in turn on each connection, no If-None-Match.
  const { default: autocannon } = await import('autocannon');
  const [url, connections, seconds, ...paths] = process.argv.slice(3);
  const result = await autocannon({
    url: url!,
    connections: Number(connections),
    duration: Number(seconds),
    timeout: 30,
    requests: paths.map((p) => ({ method: 'GET', path: p })),
  });
  process.send!(result, () => process.exit(0));
  await new Promise(() => {});
}

const cli: Cli = {
  name: 'bench:help',
  usage: `usage: npm run bench:help [-- options]

What a flood of help-page requests from one client does to everyone else: GET / and a chat
reply timed idle and during the flood, with the help page limit off and on, on a production
server of this build (built first when there is none) and the stub model.

  --connections N     flood connections (default: 50)
  --seconds N         flood length (default: 12)
  --idle-seconds N    idle measurement before the flood (default: 6)
  --port N            the server's port; the stub takes port + 2 (default: 3790)
  --limit off,on      which runs: the help page limit off, on, or both (default: off,on)
  --paths P,…         flood these paths instead of the demo KB's help pages (e.g. /debug)
  --cpu-prof DIR      write the server's CPU profile to DIR
  -h, --help          this text`,
};
const { values } = parseCommandLineOrExit(cli, {
  connections: { type: 'string', default: '50' },
  seconds: { type: 'string', default: '12' },
  'idle-seconds': { type: 'string', default: '6' },
  port: { type: 'string', default: '3790' },
  limit: { type: 'string', default: 'off,on' },
  paths: { type: 'string' },
  'cpu-prof': { type: 'string' },
});
const CONNECTIONS = wholeNumberFlag(cli, 'connections', values.connections, 1);
const FLOOD_S = wholeNumberFlag(cli, 'seconds', values.seconds, 1);
const IDLE_S = wholeNumberFlag(cli, 'idle-seconds', values['idle-seconds'], 1);
const PORT = wholeNumberFlag(cli, 'port', values.port, 1);
const SCENARIO_LIST = values.limit.split(',').map((s) => {
  if (s !== 'off' && s !== 'on') usageExit(cli, `--limit takes off, on or both (off,on), not ${s}`);
  return s;
});

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { percentile } = await import('@/bench/measure');
const { question } = await import('@/e2e/helpers');
const { startApp, stubbedServerSetup } = await import('@/e2e/spawn');
const { kbPages, loadKnowledgeBase } = await import('@/lib/retrieval/index');

const kb = loadKnowledgeBase(path.resolve(import.meta.dirname, '../content'));
const HELP_PATHS = [...kbPages(kb.sections, kb.pageUrls, kb.identity.docsUrl).values()].flatMap((p) => (p.url?.startsWith('/help/') ? [p.url] : []));
if (HELP_PATHS.length === 0) throw new Error('the demo KB has no /help pages');
/** What the flood asks for: the help pages, or `--paths` (e.g. /debug: an instant 401 from the proxy). */
const FLOOD_PATHS = values.paths ? values.paths.split(',') : HELP_PATHS;

/** CPU time the server process has used, ms (utime + stime from /proc/PID/stat, at 100 ticks/s). */
function cpuMs(server: Server): number {
  const fields = readFileSync(`/proc/${server.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One request on its own keep-alive connection; ms to the first byte and to the end of the body. */
function timed(agent: http.Agent, url: string, method: 'GET' | 'POST', body?: string): Promise<{ ms: number; firstByteMs: number; status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers = body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {};
    const request = http.request(url, { method, agent, headers }, (response) => {
      let text = '';
      let firstByteMs: number | undefined;
      response.setEncoding('utf8');
      response.on('data', (d: string) => {
        firstByteMs ??= performance.now() - started;
        text += d;
      });
      response.on('end', () => {
        const ms = performance.now() - started;
        resolve({ ms, firstByteMs: firstByteMs ?? ms, status: response.statusCode ?? 0, text });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

interface Probes {
  home: number[];
  /** The whole reply, and its first byte (selection, trace row, the model's first chunk: the server's own work). */
  chat: number[];
  chatFirstByte: number[];
}

let conversation = 0;

/** Both probes, each one request at a time, until `until` resolves; a probe's request that started before finishes and counts. */
async function probe(app: Server, until: Promise<unknown>): Promise<Probes> {
  let done = false;
  void until.then(() => (done = true));
  const probes: Probes = { home: [], chat: [], chatFirstByte: [] };
  const homeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const chatAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const home = async () => {
    while (!done) {
      const r = await timed(homeAgent, `${app.url}/`, 'GET');
      if (r.status !== 200) throw new Error(`GET / answered ${r.status}`);
      probes.home.push(r.ms);
    }
  };
  const chat = async () => {
    while (!done) {
      const body = JSON.stringify(question(`bench-help-${String(conversation++).padStart(5, '0')}`, 'can I get a refund?'));
      const r = await timed(chatAgent, `${app.url}/api/chat`, 'POST', body);
      if (r.status !== 200 || !r.text.includes('"type":"finish"')) throw new Error(`the chat reply failed: ${r.status} ${r.text.slice(0, 200)}`);
      probes.chat.push(r.ms);
      probes.chatFirstByte.push(r.firstByteMs);
    }
  };
  try {
    await Promise.all([home(), chat()]);
  } finally {
    homeAgent.destroy();
    chatAgent.destroy();
  }
  return probes;
}

/**
 * The flood, from a child process of its own (this script again, with --flood-worker): in
 * this process autocannon's event loop would delay the probes' own timing.
 */
function floodFrom(app: Server): Promise<Cannon> {
  const child = fork(import.meta.filename, ['--flood-worker', app.url, String(CONNECTIONS), String(FLOOD_S), ...FLOOD_PATHS], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (result) => resolve(result as Cannon));
    child.once('exit', (code) => reject(new Error(`the flood process exited (${code}) without a result`)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const ms = (x: number) => `${x >= 100 ? x.toFixed(0) : x.toFixed(1)} ms`;

const row = (name: string, a: number[], b: number[]) => {
  const [x, y] = [sorted(a), sorted(b)];
  const ratio = (p: number) => percentile(y, p) / percentile(x, p);
  return (
    `${name.padEnd(16)} idle p50 ${ms(percentile(x, 50)).padStart(9)} p95 ${ms(percentile(x, 95)).padStart(9)} (${x.length})   ` +
    `flood p50 ${ms(percentile(y, 50)).padStart(9)} p95 ${ms(percentile(y, 95)).padStart(9)} (${y.length})   ` +
    `p50 ×${ratio(50).toFixed(2)} ${ratio(50) <= 2 ? 'within 2×' : 'MISSED (target ≤ 2×)'}, p95 ×${ratio(95).toFixed(2)}`
  );
};

/** What one help page costs the server: every page in turn, one request at a time (no limit in the way). */
async function pageCost(app: Server, requests = 320): Promise<string> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const cpuBefore = cpuMs(app);
  for (let i = 0; i < requests; i++) {
    const r = await timed(agent, `${app.url}${HELP_PATHS[i % HELP_PATHS.length]}`, 'GET');
    if (r.status !== 200) throw new Error(`${HELP_PATHS[i % HELP_PATHS.length]} answered ${r.status}`);
    times.push(r.ms);
  }
  agent.destroy();
  const cpu = (cpuMs(app) - cpuBefore) / requests;
  return `one help page, ${requests} requests one at a time: p50 ${ms(percentile(sorted(times), 50))}, server CPU ${cpu.toFixed(2)} ms each`;
}

const SCENARIOS = {
  off: { title: 'help page limit off (HELP_RATE_LIMIT_PER_MINUTE=0)', env: { HELP_RATE_LIMIT_PER_MINUTE: '0' } },
  on: { title: 'help page limit as configured by default', env: {} },
} as const;

async function scenario(which: keyof typeof SCENARIOS, stub: Server, baseEnv: Record<string, string>): Promise<void> {
  const app = await startApp(PORT, { ...baseEnv, ...SCENARIOS[which].env }, 30_000, values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : []);
  try {
    // Warm-up: every help page, the home page and a chat turn, so no probe pays a first render.
    const warm = new http.Agent({ keepAlive: true });
    for (const p of HELP_PATHS) await timed(warm, `${app.url}${p}`, 'GET');
    for (let i = 0; i < 5; i++) await timed(warm, `${app.url}/`, 'GET');
    warm.destroy();
    const cost = which === 'off' ? await pageCost(app) : undefined;
    await probe(app, sleep(1500));

    const idle = await probe(app, sleep(IDLE_S * 1000));
    const cpuBefore = cpuMs(app);
    const started = performance.now();
    const flood = floodFrom(app);
    await sleep(1000); // the flood up to speed
    const loaded = await probe(app, flood);
    const result = await flood;
    const cpuShare = (cpuMs(app) - cpuBefore) / (performance.now() - started);

    const codes = Object.entries(result.statusCodeStats)
      .map(([code, s]) => `${code}: ${s.count}`)
      .join(', ');
    console.log(`== ${SCENARIOS[which].title}`);
    if (cost) console.log(cost);
    console.log(row('GET /', idle.home, loaded.home));
    console.log(row('chat reply', idle.chat, loaded.chat));
    console.log(row('chat first byte', idle.chatFirstByte, loaded.chatFirstByte));
    console.log(
      `flood: ${result.requests.total} × GET ${values.paths ?? '/help/…'} in ${result.duration.toFixed(1)} s at ${CONNECTIONS} connections = ${Math.round(result.requests.total / result.duration)}/s ` +
        `(${codes}; errors ${result.errors}, timeouts ${result.timeouts}), latency p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms; ` +
        `server CPU during the flood ${(cpuShare * 100).toFixed(0)}% of one core (the probes' included)`,
    );
  } finally {
    await app.stop();
  }
}

const { stub, env, dbFile } = await stubbedServerSetup('bench-help', PORT);
try {
  console.log(`${process.env.NEXT_DIST_DIR || '.next'} on 127.0.0.1:${PORT}, stub ${stub.url} (mode ok, 40 ms a word); ${HELP_PATHS.length} help pages; ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (const which of SCENARIO_LIST) await scenario(which, stub, env);
} finally {
  await stub.stop();
  rmSync(path.dirname(dbFile), { recursive: true, force: true });
}
