/**
 * bench:route — the chat route's own overhead: from the moment the route handler receives
 * a request to the moment the first byte of the model call reaches the provider
 * (validation + selection + prompt assembly + trace write + the SDK's request), with a
 * local stub provider, over 1,000 sequential requests.
 *
 *   npm run bench:route [-- --requests 1000]
 *
 * The route handler (app/api/chat/route.ts) is called in this process with a real
 * `Request`, as Next.js calls it; the stub (plain node:http on 127.0.0.1, in this process
 * too) stamps the arrival of each model request with the same clock. Next's own HTTP
 * server is not part of the measurement. Runs with `--conditions=react-server` so the
 * route's `server-only` imports load outside Next.
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { percentile } from '../bench/measure.ts';
import { validBody } from '../app/api/chat/testing.ts';

const { values } = parseArgs({ options: { requests: { type: 'string' } } });
const requests = Number(values.requests ?? 1000);
const WARMUP = 50;

// 1. The stub provider: records when each chat-completions request arrives, answers with a short stream.
let arrivals: number[] = [];
const stub = http.createServer((req, res) => {
  arrivals.push(performance.now());
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'stub', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: 'Hello' }));
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  });
});
await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
const port = (stub.address() as AddressInfo).port;

// 2. The app's environment: the stub as an OpenAI-compatible provider, traces in a temp folder.
const tmp = mkdtempSync(path.join(tmpdir(), 'bench-route-'));
process.env.OPENAI_API_KEY = 'bench';
process.env.OPENAI_BASE_URL = `http://127.0.0.1:${port}/v1`;
process.env.OPENAI_MODEL = 'stub';
process.env.TRACE_DB_PATH = path.join(tmp, 'traces.db');
process.env.KB_PATH = path.join(import.meta.dirname, '..', 'content');
process.env.MODEL_MAX_RETRIES = '0';
// Every request comes from this process: rate limiting (on by default) would answer 429.
process.env.CHAT_RATE_LIMIT_PER_MINUTE = '0';

const { POST } = await import('../app/api/chat/route.ts');

const questions = [
  'can I get a refund?',
  'how do I cancel my subscription',
  'my video keeps buffering',
  'what does the Pro plan cost?',
  'how do I embed a video on wordpress',
  'hi',
];

async function oneRequest(i: number): Promise<number> {
  const body = JSON.stringify(validBody(questions[i % questions.length]!, `bench-route-${String(i).padStart(6, '0')}`));
  const request = new Request('http://localhost/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    body,
  });
  const before = arrivals.length;
  const t0 = performance.now();
  const response = await POST(request);
  if (!response.ok) throw new Error(`route answered ${response.status}: ${await response.text()}`);
  await response.text(); // drain the stream so the turn completes before the next request
  if (arrivals.length !== before + 1) throw new Error(`expected one model request, saw ${arrivals.length - before}`);
  return (arrivals[before]! - t0) * 1000;
}

try {
  for (let i = 0; i < WARMUP; i++) await oneRequest(i);
  arrivals = [];
  const samples: number[] = [];
  for (let i = 0; i < requests; i++) samples.push(await oneRequest(WARMUP + i));
  samples.sort((a, b) => a - b);
  const ms = (us: number) => `${(us / 1000).toFixed(2)} ms`;
  console.log(
    `route overhead (request received → first byte at the stub provider), ${requests} requests after ${WARMUP} warm-up: ` +
      `p50 ${ms(percentile(samples, 50))}, p95 ${ms(percentile(samples, 95))}, p99 ${ms(percentile(samples, 99))}, max ${ms(samples.at(-1)!)} ` +
      `(target p95 ≤ 2 ms: ${percentile(samples, 95) <= 2000 ? 'met' : 'missed'})`,
  );
} finally {
  stub.close();
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
