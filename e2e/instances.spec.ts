import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { startPostgres, type PostgresCluster } from '@/lib/testing/postgres';
import { ADMIN_TOKEN, EXTRA_PORT } from './env';
import { question, readChatStream, type StubRequest } from './helpers';
import { startApp, startStub, type Server } from './spawn';

/**
 * Two app instances behind one PostgreSQL database (issue 13): two `next start` servers of
 * the same build, each with its own SQLite path, KB cache and port, one DATABASE_URL, one
 * stub model. The database is a throwaway cluster this spec starts (lib/testing/postgres.ts).
 * Clients are told apart by X-Forwarded-For (TRUST_PROXY=1), so each test has its own
 * rate-limit bucket.
 */

test.describe.configure({ mode: 'serial' });

const A_PORT = EXTRA_PORT + 11;
const B_PORT = EXTRA_PORT + 12;
const STUB_PORT = EXTRA_PORT + 13;
const VISITOR_SECRET = 'e2e-visitor-secret-shared-by-both-instances';

let postgres: PostgresCluster;
let db: pg.Pool;
let stub: Server;
let a: Server;
let b: Server;
let root: string;

function instance(port: number, name: string): Promise<Server> {
  return startApp(port, {
    DATABASE_URL: postgres.url,
    VISITOR_SECRET,
    ADMIN_TOKEN,
    TRACE_DB_PATH: path.join(root, name, 'traces.db'),
    KB_CACHE_PATH: path.join(root, name, 'kb-cache'),
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: `${stub.url}/v1`,
    OPENAI_MODEL: 'stub-model',
    TRUST_PROXY: '1',
    CHAT_RATE_LIMIT_BURST: '4',
    CHAT_RATE_LIMIT_PER_MINUTE: '8',
    TRACE_RETENTION_DAYS: '30',
  });
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  root = mkdtempSync(path.join(tmpdir(), 'e2e-instances-'));
  postgres = await startPostgres();
  db = new pg.Pool({ connectionString: postgres.url, max: 2 });
  stub = await startStub(STUB_PORT);
  [a, b] = await Promise.all([instance(A_PORT, 'a'), instance(B_PORT, 'b')]);
});

test.afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await stub?.stop();
  await db?.end();
  await postgres?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** POST /api/chat on `server` as client `address` (X-Forwarded-For), with the visitor cookie if given. */
function chat(server: Server, address: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(`${server.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

test('a turn served by A is in /debug on B: the turns API, the list and the turn page', async ({ page }) => {
  const response = await chat(a, '198.51.100.1', question('conv-shared-debug-1', 'can I get a refund for my annual plan?'));
  expect(response.status).toBe(200);
  const { turnId, text } = await readChatStream(response);
  expect(text.length).toBeGreaterThan(0);

  const listed = await (await fetch(`${b.url}/api/debug/turns?conversation=conv-shared-debug-1`, { headers: admin })).json();
  expect(listed.turns.map((t: { id: string; status: string }) => [t.id, t.status])).toEqual([[turnId, 'ok']]);
  const found = await (await fetch(`${b.url}/api/debug/turns?q=annual+refunds`, { headers: admin })).json();
  expect(found.turns.map((t: { id: string }) => t.id)).toContain(turnId); // the full-text filter, in PostgreSQL

  await page.setExtraHTTPHeaders(admin);
  await page.goto(`${b.url}/debug?q=annual`);
  await expect(page.getByText('can I get a refund for my annual plan?')).toBeVisible();
  await page.goto(`${b.url}/debug/turns/${turnId}`);
  await expect(page.getByTestId('turn-detail')).toHaveAttribute('data-turn-id', turnId!);
  await expect(page.getByTestId('pinned-text')).toContainText('Never promise a refund'); // as A sent it
  await expect(page.locator('[data-testid="ranked-row"][data-section-id="billing/refund-policy.md#refund-policy"]')).toHaveAttribute('data-sent', 'true');
  await page.goto(`${b.url}/debug/health`);
  await expect(page.getByTestId('storage-engine')).toContainText('PostgreSQL');
  await expect(page.getByTestId('storage-retention')).toContainText('30 days');
});

test('a conversation started on A and continued on B carries its history into the model request', async () => {
  await fetch(`${stub.url}/__reset`, { method: 'POST' });
  const first = await chat(a, '198.51.100.2', question('conv-shared-history', 'how do I start a live stream?'));
  const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
  const { text: firstReply } = await readChatStream(first);

  const second = await chat(b, '198.51.100.2', question('conv-shared-history', 'and can I record it too?'), cookie);
  expect(second.status).toBe(200);
  expect(second.headers.get('set-cookie')).toBeNull(); // B knows this visitor: A's cookie verifies there
  await readChatStream(second);

  const requests = (await (await fetch(`${stub.url}/__requests`)).json()) as StubRequest[];
  const toModel = requests.at(-1)!.messages.filter((m) => m.role !== 'system');
  expect(toModel).toEqual([
    { role: 'user', content: 'how do I start a live stream?' },
    { role: 'assistant', content: firstReply },
    { role: 'user', content: 'and can I record it too?' },
  ]);
});

test('a burst split across both instances is limited as one bucket', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const response = await chat(i % 2 ? b : a, '198.51.100.3', question(`conv-shared-burst-${i}`, 'hello'));
    statuses.push(response.status);
    await response.text();
  }
  expect(statuses).toEqual([200, 200, 200, 200, 429, 429]); // a burst of 4 in all, not 4 on each
  const { rows } = await db.query("SELECT key, points FROM rate_limits WHERE key LIKE '%198.51.100.3' ORDER BY key");
  expect(rows).toEqual([
    { key: 'chat-burst:ip:198.51.100.3', points: 6 },
    { key: 'chat-minute:ip:198.51.100.3', points: 6 },
  ]);
});

test('SIGKILL of A under load loses no completed turn, and B keeps answering', async () => {
  test.setTimeout(90_000);
  await fetch(`${stub.url}/__mode`, { method: 'POST', body: JSON.stringify({ mode: 'ok' }) });
  let n = 0;
  const completed: string[] = [];
  const failedOn: Record<string, number> = { a: 0, b: 0 };
  // Each client is its own address (its own bucket); each asks one question and reads the reply to its end.
  const one = async (server: Server, name: 'a' | 'b') => {
    const i = n++;
    try {
      const response = await chat(server, `198.51.100.${100 + (i % 150)}`, question(`conv-kill-${String(i).padStart(4, '0')}`, 'why does my video keep buffering?'));
      const body = await response.text();
      if (response.status === 200 && body.includes('"type":"finish"') && !body.includes('"type":"error"')) completed.push(response.headers.get('x-turn-id')!);
      else failedOn[name]!++;
    } catch {
      failedOn[name]!++;
    }
  };
  const clients = (server: Server, name: 'a' | 'b', count: number) =>
    Promise.all(Array.from({ length: 4 }, async () => {
      for (let k = 0; k < count; k++) await one(server, name);
    }));
  const load = Promise.all([clients(a, 'a', 8), clients(b, 'b', 8)]);
  await new Promise((r) => setTimeout(r, 1500));
  await a.stop('SIGKILL');
  await load;

  expect(completed.length).toBeGreaterThan(10);
  expect(failedOn.a).toBeGreaterThan(0); // A died mid-load: its requests in flight and after failed
  expect(failedOn.b).toBe(0); // B answered every request, before and after A died
  const { rows } = await db.query<{ id: string; status: string }>('SELECT id, status FROM turns WHERE id = ANY($1)', [completed]);
  expect(rows).toHaveLength(completed.length); // every reply a customer received to its end is in the store…
  expect(rows.every((r) => r.status === 'ok')).toBe(true); // …as `ok`
  const after = await chat(b, '198.51.100.99', question('conv-kill-after', 'can I get a refund?'));
  expect(after.status).toBe(200);
  expect((await readChatStream(after)).text.length).toBeGreaterThan(0);
});
