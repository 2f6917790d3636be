import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXTRA_PORT } from './env';
import { question as chatQuestion, readChatStream } from './helpers';
import { startApp, type Server } from './spawn';

/**
 * The knowledge base broken and edited under a running server (its own `next start`, with a
 * copy of content/ and KB_RELOAD_INTERVAL_MS=150, offline model): a KB that is broken at
 * start-up is refused with a log line naming file and line, and the chat answers 503 until
 * the fix lands; an edit is picked up without a restart; a broken edit keeps the last good
 * KB in service and says why.
 */

test.describe.configure({ mode: 'serial' });

let root: string;
let kb: string;
let FAQ: string;
let NEW_PAGE: string;
let app: Server;

test.beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'e2e-kb-'));
  kb = path.join(root, 'content');
  cpSync(path.join(import.meta.dirname, '..', 'content'), kb, { recursive: true });
  FAQ = path.join(kb, 'billing', 'billing-faq.md');
  NEW_PAGE = path.join(kb, 'support', 'carrier-pigeons.md');
});

test.afterAll(async () => {
  await app?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** Asks the offline model; returns the status and the reply (or the JSON error). */
async function chat(question: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${app.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(chatQuestion('conv-kb-faults-1', question)),
  });
  if (response.status !== 200) return { status: response.status, text: await response.text() };
  return { status: 200, text: (await readChatStream(response)).text };
}

test('a KB broken at start-up is refused with a log line naming file and line; the chat answers 503 until it is fixed', async () => {
  writeFileSync(NEW_PAGE, '# Carrier pigeons\nWe deliver invoices by carrier pigeon on request.\n# Carrier pigeons\nTwice.\n');
  app = await startApp(EXTRA_PORT + 5, {
    KB_PATH: kb,
    KB_RELOAD_INTERVAL_MS: '150',
    OPENAI_API_KEY: '',
    TRACE_DB_PATH: path.join(root, 'traces.db'),
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
  });
  await app.waitForOutput(/\[knowledge\] THE KNOWLEDGE BASE COULD NOT BE LOADED: support\/carrier-pigeons\.md:3: duplicate section id "support\/carrier-pigeons\.md#carrier-pigeons"/);
  expect((await fetch(`${app.url}/api/health`)).status).toBe(503);
  const refused = await chat('can I get a refund?');
  expect(refused.status).toBe(503);
  expect(JSON.parse(refused.text)).toEqual({ error: 'The assistant is not available right now. Please try again later.' });
  expect((await fetch(`${app.url}/`)).status).toBe(200); // the site itself still serves

  writeFileSync(NEW_PAGE, '# Carrier pigeons\nWe deliver invoices by carrier pigeon on request.\n');
  await app.waitForOutput(/\[knowledge\] loaded the fixed knowledge base: \d+ sections/);
  expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
  const answered = await chat('do you deliver invoices by carrier pigeon?');
  expect(answered.status).toBe(200);
  expect(answered.text).toContain('Carrier pigeons');
});

test('an edit while running is reloaded; a broken edit keeps the last good KB in service and logs why', async () => {
  writeFileSync(FAQ, `${readFileSync(FAQ, 'utf8')}\n## Paying with seashells\nSeashells are accepted for annual plans only.\n`);
  await app.waitForOutput(/\[knowledge\] reloaded after an edit: \d+ sections/);
  expect((await chat('can I pay with seashells?')).text).toContain('Paying with seashells');

  const before = app.output().length;
  writeFileSync(FAQ, '---\npinned: [yes\n---\n# Billing FAQ\nBroken.\n');
  await app.waitForOutput(/\[knowledge\] the edited knowledge base was NOT loaded: billing\/billing-faq\.md:\d+: malformed front matter.*Still serving the version loaded at/);
  expect(app.output().slice(before)).not.toMatch(/reloaded after an edit/);
  const still = await chat('can I pay with seashells?');
  expect(still.status).toBe(200);
  expect(still.text).toContain('Paying with seashells');
  expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
});
