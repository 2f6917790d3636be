import { createServer, type Server as HttpServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXTRA_PORT } from './env';
import { question, readChatStream, traces } from './helpers';
import { startApp, startStub, type Server } from './spawn';

/**
 * Personal data out of traces (issue 27), on the production build: an app with the stub
 * model (so the model's request is recorded), OpenTelemetry export with content capture on to
 * a local OTLP/HTTP receiver (as e2e/otel.spec.ts), and TRACE_REDACT=store (the default,
 * set here to say so). A question holding an email and a card number is stored and exported
 * with neither; the model still received them; /debug marks the turn as redacted.
 */

const APP_PORT = EXTRA_PORT + 63;
const STUB_PORT = EXTRA_PORT + 64;
const RECEIVER_PORT = EXTRA_PORT + 65;
const ADMIN_TOKEN = 'e2e-redaction-admin-token-0123';

const EMAIL = 'jane.doe@example.com';
const CARD = '4111 1111 1111 1111';
const QUESTION = `My email is ${EMAIL} and my card ${CARD} was charged twice — can I get a refund for order 10023344?`;
/** Anything of the email or the card number, in any form a span or a row could hold it. */
const PERSONAL = /jane|doe@|example\.com|4111 1111|4111-1111|4111111111111111|"4111"/;

const posts: string[] = [];
let receiver: HttpServer;
let stub: Server;
let app: Server;
let dbFile: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') posts.push(body);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(RECEIVER_PORT, '127.0.0.1', resolve));
  stub = await startStub(STUB_PORT);
  dbFile = path.join(mkdtempSync(path.join(tmpdir(), `e2e-redaction-${APP_PORT}-`)), 'traces.db');
  app = await startApp(APP_PORT, {
    OPENAI_API_KEY: 'redaction-test',
    OPENAI_BASE_URL: `${stub.url}/v1`,
    OPENAI_MODEL: 'stub-model',
    TRACE_DB_PATH: dbFile,
    TRACE_REDACT: 'store',
    ADMIN_TOKEN,
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${RECEIVER_PORT}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
  });
});

test.afterAll(async () => {
  await app?.stop();
  await stub?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

test('a question with an email and a card number: stored and exported with neither, the model got both, /debug says it was redacted', async () => {
  const response = await fetch(`${app.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(question('conv-redact-0001', QUESTION)),
  });
  expect(response.status).toBe(200);
  const { turnId } = await readChatStream(response);
  expect(turnId).toBeTruthy();

  // The model was sent the customer's own words (TRACE_REDACT=store).
  const sent = (await (await fetch(`${stub.url}/__requests`)).json()) as { messages: { role: string; content: string }[] }[];
  const user = sent.at(-1)!.messages.filter((m) => m.role === 'user').map((m) => m.content);
  expect(user.at(-1)).toBe(QUESTION);

  // Stored: the question, the customer messages, the query and its terms, the reply — typed placeholders, no email, no card.
  const row = (await traces(dbFile).finished(turnId!)) as unknown as Record<string, string>;
  expect(row.question).toBe('My email is [email] and my card [card] was charged twice — can I get a refund for order 10023344?');
  const explanation = JSON.parse(row.explanation!) as { query: unknown; sections: unknown };
  const stored = JSON.stringify({ question: row.question, messages: row.customer_messages, query: row.query, reply: row.reply, explained: explanation.query, sections: explanation.sections });
  expect(stored).not.toMatch(PERSONAL);
  expect(JSON.parse(row.redactions!)).toEqual({ email: 1, card: 1 });

  // Exported: every attribute of every span of the turn (the retrieval query text, the AI SDK's prompt and response).
  await expect.poll(() => posts.join('\n').includes('ai.streamText.doStream') && posts.join('\n').includes('ai.response.text'), { timeout: 15_000 }).toBe(true);
  const exported = posts.join('\n');
  expect(exported).toContain('My email is [email] and my card [card]'); // content capture is on: the redacted question is there
  expect(exported).not.toMatch(PERSONAL);

  // The /debug list marks the turn.
  const list = await (await fetch(`${app.url}/debug`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  const rowHtml = list.slice(list.indexOf(`data-turn-id="${turnId}"`));
  expect(rowHtml.slice(0, 4000)).toMatch(/data-testid="turn-redacted"[^>]*>.*redacted: <!-- -->email, card/s);
  expect(list).not.toMatch(PERSONAL);
});
