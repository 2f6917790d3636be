/**
 * bench:route — what the chat route adds before the reply starts, measured the way a
 * customer's browser meets it: the time to the first byte of `POST /api/chat` against
 * `GET /api/health` (a bare route) of the same production server (`next start`), in the
 * same run, requests alternating one at a time, with a local stub as the model ("fast":
 * it answers at once). Ratios of one run are the figure; absolute times move with the
 * machine's load.
 *
 *   npm run bench:route [-- --requests 500 --port 3760 --cpu-prof DIR]
 *
 * The first byte of the chat response is the first byte of the UI message stream, which
 * the route sends once the model's first chunk has arrived (selection, prompt, the pending
 * trace row and the model request happen before it). Requires a production build (built
 * when missing).
 */
import http from 'node:http';
import { parseCommandLineOrExit, wholeNumberFlag, type Cli } from './cli';

const cli: Cli = {
  name: 'bench:route',
  usage: `usage: npm run bench:route [-- --requests N] [--port PORT] [--cpu-prof DIR]

  --requests N      chat requests (and as many health requests), alternating (default: 500)
  --port PORT       the server's port; the stub gets PORT + 2 (default: 3760)
  --cpu-prof DIR    write the server's CPU profile to DIR
  -h, --help        this text`,
};
const { values } = parseCommandLineOrExit(cli, { requests: { type: 'string', default: '500' }, port: { type: 'string', default: '3760' }, 'cpu-prof': { type: 'string' } });
const REQUESTS = wholeNumberFlag(cli, 'requests', values.requests, 1);
const PORT = wholeNumberFlag(cli, 'port', values.port, 1);

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { percentile } = await import('@/bench/measure');
const { question } = await import('@/e2e/helpers');
const { startApp, stubbedServerSetup } = await import('@/e2e/spawn');

const WARMUP = 50;
const QUESTIONS = ['can I get a refund?', 'how do I start a live stream?', 'why does my video keep buffering?', 'what does the Pro plan cost?', 'hi, I need some help'];

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** ms from sending the request to its first body byte; the rest of the body is read and dropped. */
function firstByte(url: string, method: 'GET' | 'POST', body?: string): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(url, { method, agent, headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {} }, (response) => {
      let ms: number | undefined;
      response.on('data', () => (ms ??= performance.now() - started));
      response.on('end', () => resolve({ ms: ms ?? performance.now() - started, status: response.statusCode ?? 0 }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

const { stub, env } = await stubbedServerSetup('bench-route', PORT);
await fetch(`${stub.url}/__mode`, { method: 'POST', body: JSON.stringify({ mode: 'fast' }) });
const app = await startApp(PORT, env, 30_000, values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : []);
try {
  const chat: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const body = JSON.stringify(question(`bench-route-${String(i).padStart(6, '0')}`, QUESTIONS[i % QUESTIONS.length]!));
    const c = await firstByte(`${app.url}/api/chat`, 'POST', body);
    const h = await firstByte(`${app.url}/api/health`, 'GET');
    if (c.status !== 200 || h.status !== 200) throw new Error(`unexpected status: chat ${c.status}, health ${h.status}`);
    if (i >= WARMUP) {
      chat.push(c.ms);
      bare.push(h.ms);
    }
  }
  chat.sort((a, b) => a - b);
  bare.sort((a, b) => a - b);
  const row = (name: string, xs: number[]) => `${name.padEnd(28)} p50 ${percentile(xs, 50).toFixed(2)} ms   p95 ${percentile(xs, 95).toFixed(2)} ms   p99 ${percentile(xs, 99).toFixed(2)} ms`;
  console.log(`first byte over ${REQUESTS} requests each, alternating, one at a time (server ${app.url}, stub ${stub.url})`);
  console.log(row('POST /api/chat', chat));
  console.log(row('GET /api/health (bare)', bare));
  console.log(
    `chat / bare: p50 ${(percentile(chat, 50) / percentile(bare, 50)).toFixed(2)}×   p95 ${(percentile(chat, 95) / percentile(bare, 95)).toFixed(2)}×   ` +
      `(targets: p50 ≤ 1.5×, p95 ≤ 2×)`,
  );
} finally {
  agent.destroy();
  await app.stop();
  await stub.stop();
}
