import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { APP_DB, APP_URL, EXTRA_PORT } from './env';
import { ask, lastReply, openChat, question as chatQuestion, readChatStream, replies, stub, traces, type StubMode } from './helpers';
import { startApp, statusOf } from './spawn';
import { STUB_REPLY } from './stub/reply.mjs';

/**
 * The model provider misbehaving, against the stub: each fault is survived — the customer
 * gets a clear message (or, when one retry before the first token fixes it, the answer),
 * the trace says what happened, and the next request works. Then the customer walking
 * away: Stop and a closed tab end the upstream request and leave an `aborted` trace.
 * (e2e/chat.spec.ts covers 500, 429, a hang and a stall in the widget.)
 */

const db = traces(APP_DB);

test.beforeEach(async () => {
  await stub.reset();
});

/** Asks through the API; returns the turn id, the streamed text and the error shown, if any. */
async function askApi(url = APP_URL, question = 'can I get a refund?') {
  const started = Date.now();
  const response = await fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(chatQuestion(`conv-fault-${Date.now()}`, question)),
  });
  expect(response.status).toBe(200);
  const { turnId, text, error } = await readChatStream(response);
  return { turnId: turnId!, text, error, ms: Date.now() - started };
}

const recovered: { mode: StubMode; what: string }[] = [
  { mode: '500', what: 'a 500' },
  { mode: '429', what: 'a 429 with retry-after-ms: 50' },
  { mode: 'reset', what: 'a connection reset before any response' },
];
for (const { mode, what } of recovered) {
  test(`${what}, once: retried once before the first token, the customer gets the answer`, async () => {
    await stub.mode(mode, 1);
    const { turnId, text, error } = await askApi();
    expect(error).toBeUndefined();
    expect(text).toBe(STUB_REPLY);
    expect((await stub.requests()).length).toBe(2);
    expect(await db.finished(turnId)).toMatchObject({ status: 'ok', reply: STUB_REPLY });
  });
}

const failed: { mode: StubMode; message: RegExp; error: RegExp; attempts: number; partial?: boolean }[] = [
  { mode: '500', message: /could not answer just now/, error: /APICallError 500 .*\(failed after 2 attempts\)/, attempts: 2 },
  { mode: '429-long', message: /too many conversations/, error: /APICallError 429 .*not retried: the provider asked to wait 120000 ms/, attempts: 1 },
  { mode: 'reset', message: /could not answer just now/, error: /Cannot connect to API.*\(failed after 2 attempts\)/, attempts: 2 },
  { mode: 'malformed', message: /could not answer just now/, error: /JSON parsing failed/, attempts: 1, partial: true },
  { mode: 'cut', message: /could not answer just now/, error: /terminated|other side closed/, attempts: 1, partial: true },
];
for (const { mode, message, error, attempts, partial } of failed) {
  test(`the provider fails (${mode}): a clear message, the trace says error, the next request works`, async () => {
    await stub.mode(mode);
    const result = await askApi();
    expect(result.error).toMatch(message);
    expect(result.ms).toBeLessThan(5_000); // no 120 s wait for a long Retry-After
    expect((await stub.requests()).length).toBe(attempts);
    const trace = await db.finished(result.turnId);
    expect(trace.status).toBe('error');
    expect(trace.error).toMatch(error);
    if (partial) {
      // Text had streamed: no retry, and the trace keeps what the customer saw.
      expect(result.text.length).toBeGreaterThan(0);
      expect(STUB_REPLY.startsWith(trace.reply)).toBe(true);
      expect(trace.reply).toBe(result.text);
    }
    await stub.mode('ok');
    expect((await askApi()).text).toBe(STUB_REPLY);
  });
}

for (const mode of ['malformed', 'cut', '429-long'] as const) {
  test(`the widget shows a clear message when the provider fails (${mode}), and Try again answers`, async ({ page }) => {
    await stub.mode(mode);
    await page.goto('/');
    await openChat(page);
    await ask(page, 'can I get a refund?');
    const alert = page.getByTestId('chat-error');
    await expect(alert).toBeVisible({ timeout: 10_000 });
    await expect(alert).toContainText(mode === '429-long' ? /too many conversations/ : /could not answer just now/);
    await stub.mode('ok');
    await page.getByTestId('chat-retry').click();
    const { text } = await lastReply(page, 1);
    expect(text).toBe(STUB_REPLY);
  });
}

test('connection refused (no provider listening): a clear message, the trace says error, the app stays healthy', async () => {
  const port = EXTRA_PORT + 4; // nothing listens here
  const app = await startApp(EXTRA_PORT + 3, {
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
    OPENAI_MODEL: 'stub-model',
    TRACE_DB_PATH: path.join(tmpdir(), `e2e-refused-${EXTRA_PORT}-${Date.now()}`, 'traces.db'),
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
  });
  try {
    for (let i = 0; i < 2; i++) {
      const result = await askApi(app.url);
      expect(result.error).toMatch(/could not answer just now/);
      expect(result.ms).toBeLessThan(5_000);
    }
    expect(app.output()).toMatch(/Cannot connect to API: connect ECONNREFUSED 127\.0\.0\.1:\d+ \(failed after 2 attempts\)/);
    expect(await statusOf(`${app.url}/api/health`)).toBe(200);
    expect(await statusOf(`${app.url}/`)).toBe(200);
  } finally {
    await app.stop();
  }
});

/** Waits until the stub reports that the app closed model request `n` (1-based) before it ended. */
async function upstreamClosed(n = 1) {
  await expect.poll(async () => (await stub.connections())[n - 1]?.closedEarly, { timeout: 5_000 }).toBe(true);
}

async function streamingReply(page: Page) {
  await stub.mode('slow');
  await page.goto('/');
  await openChat(page);
  await ask(page, 'can I get a refund?');
  const reply = replies(page).first();
  await expect(reply).toContainText('Stub model');
  return reply;
}

test('Stop ends the upstream request: the stub sees the connection close, the trace says aborted with the partial reply', async ({ page }) => {
  const reply = await streamingReply(page);
  await page.getByTestId('chat-stop').click();
  await upstreamClosed();
  const turn = await db.finished((await reply.getAttribute('data-turn-id'))!);
  expect(turn.status).toBe('aborted');
  expect(turn.reply.length).toBeGreaterThan(0);
  expect(STUB_REPLY.startsWith(turn.reply)).toBe(true);
  expect(turn.reply.length).toBeLessThan(STUB_REPLY.length);
});

test('a closed tab ends the upstream request too, and the trace says aborted', async ({ page }) => {
  const reply = await streamingReply(page);
  const turnId = (await reply.getAttribute('data-turn-id'))!;
  await page.close();
  await upstreamClosed();
  const turn = await db.finished(turnId);
  expect(turn.status).toBe('aborted');
  expect(STUB_REPLY.startsWith(turn.reply)).toBe(true);
  expect(turn.reply.length).toBeLessThan(STUB_REPLY.length);
  // The server is fine: the next customer is answered.
  await stub.mode('ok');
  expect((await askApi()).text).toBe(STUB_REPLY);
});
