// A local OpenAI-compatible server for the e2e tests: plain node:http on 127.0.0.1.
//
//   POST /v1/chat/completions   streams (SSE) or returns a canned reply; records the body
//   GET  /__requests            every recorded request body, oldest first
//   POST /__reset               forget recorded requests, back to mode "ok"
//   POST /__mode {"mode": …}    "ok" | "slow" (300 ms per word) | "500" | "429" (retry-after-ms: 50)
//                               | "hang" (never answers) | "stall" (one word, then silence)
//
// The reply text is fixed (STUB_REPLY) so tests can wait for it in the page.
import http from 'node:http';
import { STUB_REPLY } from './reply.mjs';

const port = Number(process.env.STUB_PORT ?? 3199);

let mode = 'ok';
let requests = [];
const hanging = new Set();

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function chunk(id, model, delta, finish = null) {
  return { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] };
}

async function completions(req, res) {
  const raw = await readBody(req);
  let body;
  try {
    body = JSON.parse(raw);
  } catch {
    return json(res, 400, { error: { message: 'invalid JSON' } });
  }
  requests.push(body);
  if (mode === '500') return json(res, 500, { error: { message: 'stub: internal server error', type: 'server_error' } });
  if (mode === '429') {
    return json(res, 429, { error: { message: 'stub: rate limit reached', type: 'rate_limit_error' } }, { 'retry-after-ms': '50' });
  }
  if (mode === 'hang') {
    hanging.add(res);
    res.on('close', () => hanging.delete(res));
    return; // never answer
  }
  const id = `chatcmpl-stub-${requests.length}`;
  const model = body.model ?? 'stub';
  const words = STUB_REPLY.match(/\S+\s*/g);
  const usage = { prompt_tokens: 1234, completion_tokens: words.length, total_tokens: 1234 + words.length };
  if (!body.stream) {
    return json(res, 200, {
      id, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model,
      choices: [{ index: 0, message: { role: 'assistant', content: STUB_REPLY }, finish_reason: 'stop' }],
      usage,
    });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (data) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  send(chunk(id, model, { role: 'assistant', content: '' }));
  if (mode === 'stall') {
    send(chunk(id, model, { content: words[0] }));
    hanging.add(res);
    res.on('close', () => hanging.delete(res));
    return; // then silence
  }
  for (const word of words) {
    if (res.destroyed) return;
    send(chunk(id, model, { content: word }));
    await sleep(mode === 'slow' ? 300 : 40);
  }
  send(chunk(id, model, {}, 'stop'));
  if (body.stream_options?.include_usage) send({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [], usage });
  send('[DONE]');
  res.end();
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/v1/chat/completions') return await completions(req, res);
    if (req.method === 'GET' && url.pathname === '/__requests') return json(res, 200, requests);
    if (req.method === 'POST' && url.pathname === '/__reset') {
      requests = [];
      mode = 'ok';
      for (const r of hanging) r.destroy();
      hanging.clear();
      return json(res, 200, { ok: true });
    }
    if (req.method === 'POST' && url.pathname === '/__mode') {
      const next = JSON.parse((await readBody(req)) || '{}').mode;
      if (!['ok', 'slow', '500', '429', 'hang', 'stall'].includes(next)) return json(res, 400, { error: `unknown mode ${next}` });
      mode = next;
      return json(res, 200, { mode });
    }
    if (req.method === 'GET' && url.pathname === '/') return json(res, 200, { ok: true, mode });
    json(res, 404, { error: { message: `stub: no route ${req.method} ${url.pathname}` } });
  } catch (error) {
    json(res, 500, { error: { message: String(error) } });
  }
});

server.listen(port, '127.0.0.1', () => console.log(`openai stub listening on http://127.0.0.1:${port}`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
