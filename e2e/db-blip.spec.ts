import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { startPostgres, type PostgresCluster } from '@/lib/testing/postgres';
import { ADMIN_TOKEN, EXTRA_PORT } from './env';
import { ask, lastReply, openChat, question, replies } from './helpers';
import { startApp, startStub, type Server } from './spawn';
import { STUB_REPLY } from './stub/reply.mjs';

/**
 * A turn's record survives a database blip (issue 21): an app on a throwaway PostgreSQL
 * cluster, the stub model slow (300 ms a word), PostgreSQL stopped mid-reply for 5 s and
 * started again. The customer's reply ends while the database is away; the ending is written
 * once it is back, so the reply is in the visitor's history and can be voted on. And a turn
 * cut by a crash is closed by the pending-turn sweep when the server starts again, with the
 * reason on /debug.
 */

test.describe.configure({ mode: 'serial' });

const APP_PORT = EXTRA_PORT + 10;
const STUB_PORT = EXTRA_PORT + 2;

let postgres: PostgresCluster;
let db: pg.Pool;
let stub: Server;
let app: Server;
let root: string;

function startTheApp(): Promise<Server> {
  return startApp(APP_PORT, {
    DATABASE_URL: postgres.url,
    VISITOR_SECRET: 'e2e-visitor-secret-for-the-database-blip',
    ADMIN_TOKEN,
    TRACE_DB_PATH: path.join(root, 'traces.db'),
    KB_CACHE_PATH: path.join(root, 'kb-cache'),
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: `${stub.url}/v1`,
    OPENAI_MODEL: 'stub-model',
    MODEL_TIMEOUT_MS: '3000',
    TRACE_PENDING_LIMIT_MINUTES: '2',
  });
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  root = mkdtempSync(path.join(tmpdir(), 'e2e-db-blip-'));
  postgres = await startPostgres();
  db = new pg.Pool({ connectionString: postgres.url, max: 2 });
  db.on('error', () => {}); // its idle connections are cut when the server stops
  stub = await startStub(STUB_PORT);
  app = await startTheApp();
});

test.afterAll(async () => {
  await app?.stop();
  await stub?.stop();
  await db?.end();
  await postgres?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function stubMode(mode: string): Promise<void> {
  expect((await fetch(`${stub.url}/__mode`, { method: 'POST', body: JSON.stringify({ mode }) })).ok).toBe(true);
}

async function turnRow(id: string): Promise<{ status: string; reply: string; error: string | null } | undefined> {
  const { rows } = await db.query('SELECT status, reply, error FROM turns WHERE id = $1', [id]);
  return rows[0];
}

test('PostgreSQL stopped for 5 s mid-reply: the reply ends for the customer, then its turn is ok, in their history, and can be voted on', async ({ page }) => {
  test.setTimeout(60_000);
  await stubMode('slow');
  await page.goto(app.url);
  await openChat(page);
  await ask(page, 'can I get a refund?');
  await expect(replies(page).first().getByTestId('chat-message-text')).toContainText('Stub model reply'); // mid-reply

  await postgres.stopServer();
  const stoppedAt = Date.now();
  const { turnId, text } = await lastReply(page, 1);
  expect(text).toBe(STUB_REPLY); // the whole reply…
  expect(Date.now() - stoppedAt).toBeLessThan(5000); // …ended while the database was away
  expect((await page.context().cookies()).find((c) => c.name === 'support_visitor')).toBeDefined();

  await new Promise((r) => setTimeout(r, 5000 - (Date.now() - stoppedAt)));
  await postgres.startServer();
  await expect.poll(async () => (await turnRow(turnId))?.status, { timeout: 15_000 }).toBe('ok');
  expect(await turnRow(turnId)).toEqual({ status: 'ok', reply: STUB_REPLY, error: null });
  expect(app.output()).toMatch(new RegExp(`could not write the ending of turn ${turnId} \\(ok, ${STUB_REPLY.length} characters of reply\\)`));
  expect(app.output()).toMatch(new RegExp(`wrote the ending of turn ${turnId} \\(ok, [0-9]+ characters of reply\\) at attempt \\d+`));

  // The visitor's history (this browser's cookie) has the reply; a vote on it is taken.
  const conversationId = (await page.getByTestId('chat-panel').getAttribute('data-conversation-id'))!;
  const history = await page.request.get(`${app.url}/api/conversations/${conversationId}`);
  expect(history.status()).toBe(200);
  const { messages } = (await history.json()) as { messages: { id: string; role: string; text: string }[] };
  expect(messages.map((m) => [m.role, m.text])).toEqual([['user', 'can I get a refund?'], ['assistant', STUB_REPLY]]);
  expect(messages[1]!.id).toBe(turnId);

  await page.getByTestId('chat-vote-up').click();
  await expect(page.getByTestId('chat-feedback-status')).toHaveText('Thanks for the feedback.');
  const { rows } = await db.query('SELECT vote FROM turn_feedback f JOIN turns t ON t.seq = f.turn_seq WHERE t.id = $1', [turnId]);
  expect(rows).toEqual([{ vote: 'up' }]);
  await page.reload();
  await expect(replies(page).first()).toContainText(STUB_REPLY);
  await expect(page.getByTestId('chat-vote-up')).toHaveAttribute('aria-pressed', 'true');
});

test('a turn cut by a crash is marked error by the pending-turn sweep when the server starts again, with the reason on /debug', async ({ page }) => {
  test.setTimeout(60_000);
  await stubMode('hang');
  const response = fetch(`${app.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(question('conv-db-blip-crash', 'how do I start a live stream?')),
  }).catch(() => undefined); // cut by the kill
  const find = async () => (await db.query<{ id: string }>("SELECT id FROM turns WHERE conversation_id = 'conv-db-blip-crash' AND status = 'pending'")).rows[0]?.id;
  await expect.poll(find, { timeout: 10_000 }).toBeDefined();
  const turnId = (await find())!;
  await app.stop('SIGKILL');
  await response;
  await fetch(`${stub.url}/__reset`, { method: 'POST' });

  // Past the limit (2 min here) without waiting for it: the turn started an hour ago.
  await db.query("UPDATE turns SET created_at = now() - interval '1 hour' WHERE id = $1", [turnId]);
  app = await startTheApp();
  await app.waitForOutput(/\[traces\] marked 1 turn error, still pending 2 min after starting/);
  const row = (await turnRow(turnId))!;
  expect(row.status).toBe('error');
  expect(row.error).toBe('the server stopped before the turn ended, or could not write its ending: still pending 2 min after it started');

  await page.setExtraHTTPHeaders({ authorization: `Bearer ${ADMIN_TOKEN}` });
  await page.goto(`${app.url}/debug/turns/${turnId}`);
  await expect(page.getByTestId('turn-error')).toHaveText(`Ending not recorded: ${row.error}`);
});
