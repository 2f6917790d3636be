// A local OpenAI-compatible server for the e2e tests, the load and the crash runs:
// plain node:http on 127.0.0.1.
//
//   POST /v1/chat/completions   streams (SSE) or returns a canned reply; records the body
//   GET  /__requests            every recorded request body, oldest first
//   GET  /__connections         one entry per completions request: { n, mode, closedEarly, finished }
//                               (closedEarly: the app closed the connection before the reply ended)
//   POST /__reset               forget recorded requests, back to mode "ok"
//   POST /__mode {"mode": …, "times"?: n}
//        the mode of the next requests (all of them, or the next `times`, then "ok"):
//        "ok"        the reply, 40 ms per word          "fast"      the reply, no pauses
//        "slow"      300 ms per word                     "hang"      never answers
//        "stall"     one word, then silence              "500"       HTTP 500
//        "429"       HTTP 429, retry-after-ms: 50        "429-long"  HTTP 429, retry-after: 120 (seconds)
//        "malformed" two words, then a chunk that is not JSON, then [DONE]
//        "cut"       three words, then the connection is destroyed mid-stream
//        "reset"     the connection is destroyed before any response
//   POST /__reply {"text": …, "times"?: n}
//        the reply text of the next requests (all of them, or the next `times`), then STUB_REPLY again
//   POST /v1/embeddings         deterministic vectors (lib/testing/stub-embeddings.mjs: hashed bag of words with
//                               hand-made paraphrase groups); records the body
//   GET  /__embedding-requests  every recorded embeddings body, oldest first
//   POST /__embedding-mode {"mode": …, "times"?: n}   as /__mode, for the embeddings endpoint:
//        "ok"  the vectors    "hang"  never answers    "500"  HTTP 500    "malformed"  JSON of the wrong shape
//
// The reply text is STUB_REPLY unless /__reply set another, so tests can wait for it in the page.
import http from 'node:http';
import { stubEmbedding } from '../../lib/testing/stub-embeddings.mjs';
import { STUB_REPLY } from './reply.mjs';

const port = Number(process.env.STUB_PORT ?? 3199);
const MODES = ['ok', 'fast', 'slow', '500', '429', '429-long', 'hang', 'stall', 'malformed', 'cut', 'reset'];

const EMBEDDING_MODES = ['ok', 'hang', '500', 'malformed'];

let mode = 'ok';
let times = Infinity; // requests left in `mode` before it falls back to "ok"
let embeddingMode = { mode: 'ok', times: Infinity };
let reply = { text: STUB_REPLY, times: Infinity }; // the reply text, for `times` more requests
let embeddingRequests = [];
let requests = [];
let connections = [];
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

/** The mode for this request (and one fewer left in a limited mode). */
function takeMode() {
  const current = mode;
  if (current !== 'ok' && Number.isFinite(times) && --times <= 0) {
    mode = 'ok';
    times = Infinity;
  }
  return current;
}

/** POST /v1/embeddings: the OpenAI embeddings answer, one stub vector per input, in order. */
async function embeddings(req, res) {
  const body = JSON.parse(await readBody(req));
  embeddingRequests.push(body);
  const current = embeddingMode.mode;
  if (current !== 'ok' && Number.isFinite(embeddingMode.times) && --embeddingMode.times <= 0) embeddingMode = { mode: 'ok', times: Infinity };
  if (current === 'hang') return hold(res);
  if (current === '500') return json(res, 500, { error: { message: 'stub: embeddings failed', type: 'server_error' } });
  if (current === 'malformed') return json(res, 200, { object: 'list', data: [{ index: 0 }] });
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: stubEmbedding(String(text)) }));
  return json(res, 200, { object: 'list', data, model: body.model, usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } });
}

function hold(res) {
  hanging.add(res);
  res.on('close', () => hanging.delete(res));
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
  const current = takeMode();
  const connection = { n: requests.length, mode: current, closedEarly: false, finished: false };
  connections.push(connection);
  res.on('close', () => {
    if (!res.writableFinished) connection.closedEarly = true;
  });
  res.on('finish', () => (connection.finished = true));

  if (current === 'reset') return req.socket.destroy();
  if (current === '500') return json(res, 500, { error: { message: 'stub: internal server error', type: 'server_error' } });
  if (current === '429') {
    return json(res, 429, { error: { message: 'stub: rate limit reached', type: 'rate_limit_error' } }, { 'retry-after-ms': '50' });
  }
  if (current === '429-long') {
    return json(res, 429, { error: { message: 'stub: rate limit reached, come back later', type: 'rate_limit_error' } }, { 'retry-after': '120' });
  }
  if (current === 'hang') return hold(res); // never answer

  const id = `chatcmpl-stub-${requests.length}`;
  const model = body.model ?? 'stub';
  const text = reply.text;
  if (reply.text !== STUB_REPLY && --reply.times <= 0) reply = { text: STUB_REPLY, times: Infinity };
  const words = text.match(/\S+\s*/g);
  const usage = { prompt_tokens: 1234, completion_tokens: words.length, total_tokens: 1234 + words.length };
  if (!body.stream) {
    return json(res, 200, {
      id, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage,
    });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (data) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  send(chunk(id, model, { role: 'assistant', content: '' }));
  if (current === 'stall') {
    send(chunk(id, model, { content: words[0] }));
    return hold(res); // then silence
  }
  const pause = current === 'slow' ? 300 : current === 'fast' ? 0 : 40;
  for (const [i, word] of words.entries()) {
    if (res.destroyed) return;
    if (current === 'malformed' && i === 2) {
      send('{"choices": [{"index": 0, "delta": {"content": "this chunk is cut sh');
      send('[DONE]');
      return res.end();
    }
    if (current === 'cut' && i === 3) {
      await sleep(20);
      return res.socket?.destroy();
    }
    send(chunk(id, model, { content: word }));
    if (pause) await sleep(pause);
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
    if (req.method === 'POST' && url.pathname === '/v1/embeddings') return await embeddings(req, res);
    if (req.method === 'GET' && url.pathname === '/__embedding-requests') return json(res, 200, embeddingRequests);
    if (req.method === 'POST' && url.pathname === '/__embedding-mode') {
      const body = JSON.parse((await readBody(req)) || '{}');
      if (!EMBEDDING_MODES.includes(body.mode)) return json(res, 400, { error: `unknown embedding mode ${body.mode}` });
      embeddingMode = { mode: body.mode, times: Number.isInteger(body.times) && body.times > 0 ? body.times : Infinity };
      return json(res, 200, { mode: body.mode });
    }
    if (req.method === 'GET' && url.pathname === '/__requests') return json(res, 200, requests);
    if (req.method === 'GET' && url.pathname === '/__connections') return json(res, 200, connections);
    if (req.method === 'POST' && url.pathname === '/__reset') {
      requests = [];
      connections = [];
      embeddingRequests = [];
      embeddingMode = { mode: 'ok', times: Infinity };
      reply = { text: STUB_REPLY, times: Infinity };
      mode = 'ok';
      times = Infinity;
      for (const r of hanging) r.destroy();
      hanging.clear();
      return json(res, 200, { ok: true });
    }
    if (req.method === 'POST' && url.pathname === '/__mode') {
      const body = JSON.parse((await readBody(req)) || '{}');
      if (!MODES.includes(body.mode)) return json(res, 400, { error: `unknown mode ${body.mode}` });
      mode = body.mode;
      times = Number.isInteger(body.times) && body.times > 0 ? body.times : Infinity;
      return json(res, 200, { mode, times: Number.isFinite(times) ? times : null });
    }
    if (req.method === 'POST' && url.pathname === '/__reply') {
      const body = JSON.parse((await readBody(req)) || '{}');
      if (typeof body.text !== 'string' || !/\S/.test(body.text)) return json(res, 400, { error: 'text: a reply with words' });
      reply = { text: body.text, times: Number.isInteger(body.times) && body.times > 0 ? body.times : Infinity };
      return json(res, 200, { text: reply.text, times: Number.isFinite(reply.times) ? reply.times : null });
    }
    if (req.method === 'GET' && url.pathname === '/') return json(res, 200, { ok: true, mode });
    json(res, 404, { error: { message: `stub: no route ${req.method} ${url.pathname}` } });
  } catch (error) {
    if (!res.headersSent) json(res, 500, { error: { message: String(error) } });
    else res.destroy();
  }
});

// Many concurrent connections in the load run: no per-socket timeouts, a deep backlog.
server.keepAliveTimeout = 60_000;
server.listen({ port, host: '127.0.0.1', backlog: 1024 }, () => console.log(`openai stub listening on http://127.0.0.1:${port}`));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
