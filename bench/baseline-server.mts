/**
 * The load benchmark's yardstick (`npm run load -- --baseline`, scripts/load.mts): the smallest
 * AI SDK chat server there is — node:http and `streamText` on the same OpenAI-compatible provider
 * as the app (the load script's stub), a fixed question; no framework, no selection, no trace, no
 * validation — so the load script can state what the chat route, and the server around it, adds.
 *
 * Not part of the app: it has no access control and calls whatever model its environment names,
 * so it listens on loopback only, and only the load script starts it (and stops it).
 *
 *   BASELINE_PORT=3701 OPENAI_BASE_URL=http://127.0.0.1:3702/v1 OPENAI_API_KEY=x OPENAI_MODEL=stub-model node --import tsx bench/baseline-server.mts
 */
import http from 'node:http';
import { createOpenAI } from '@ai-sdk/openai';
import { streamText } from 'ai';

const port = Number(process.env.BASELINE_PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error('BASELINE_PORT must be the port to listen on');
const openai = createOpenAI({ apiKey: process.env.OPENAI_API_KEY, baseURL: process.env.OPENAI_BASE_URL });
const model = openai.chat(process.env.OPENAI_MODEL || 'stub-model');

http
  .createServer((request, response) => {
    if (request.method !== 'POST') {
      response.end('the load benchmark\'s baseline server: POST a chat request\n'); // GET /: the readiness probe
      return;
    }
    // The body is read whole (and dropped), as a chat route reads its own, before the model is called.
    request.resume();
    request.on('end', () => {
      const result = streamText({ model, system: 'You are a support assistant.', messages: [{ role: 'user', content: 'can I get a refund?' }], maxRetries: 0 });
      result.pipeUIMessageStreamToResponse(response);
    });
  })
  .listen(port, '127.0.0.1');
