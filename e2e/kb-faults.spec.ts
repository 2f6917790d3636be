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
 * start-up (its pinned rules file broken) is refused with a log line naming file and line,
 * and the chat answers 503 until the fix lands; an edit is picked up without a restart; a
 * broken unpinned file is skipped and the rest served; a broken edit that may be a pinned
 * file keeps the last good KB in service and says why.
 */

test.describe.configure({ mode: 'serial' });

let root: string;
let kb: string;
let FAQ: string;
let NEW_PAGE: string;
let RULES: string;
let app: Server;

test.beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'e2e-kb-'));
  kb = path.join(root, 'content');
  cpSync(path.join(import.meta.dirname, '..', 'content'), kb, { recursive: true });
  FAQ = path.join(kb, 'billing', 'billing-faq.md');
  NEW_PAGE = path.join(kb, 'support', 'carrier-pigeons.md');
  RULES = path.join(kb, 'rules', 'assistant-rules.md');
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

test('a KB whose pinned rules are broken at start-up is refused with a log line naming file and line; the chat answers 503 until it is fixed', async () => {
  const rules = readFileSync(RULES, 'utf8');
  writeFileSync(RULES, rules.replace('pinned: true', 'pinned: true\nowner: [support'));
  app = await startApp(EXTRA_PORT + 5, {
    KB_PATH: kb,
    KB_RELOAD_INTERVAL_MS: '150',
    OPENAI_API_KEY: '',
    TRACE_DB_PATH: path.join(root, 'traces.db'),
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
  });
  await app.waitForOutput(/\[knowledge\] THE KNOWLEDGE BASE COULD NOT BE LOADED: rules\/assistant-rules\.md:\d+: malformed front matter.*\(a pinned file: the knowledge base is not served without it\)/);
  expect((await fetch(`${app.url}/api/health`)).status).toBe(503);
  const refused = await chat('can I get a refund?');
  expect(refused.status).toBe(503);
  expect(JSON.parse(refused.text)).toEqual({ error: 'The assistant is not available right now. Please try again later.' });
  expect((await fetch(`${app.url}/`)).status).toBe(200); // the site itself still serves

  writeFileSync(RULES, rules);
  writeFileSync(NEW_PAGE, '# Carrier pigeons\nWe deliver invoices by carrier pigeon on request.\n');
  await app.waitForOutput(/\[knowledge\] loaded the fixed knowledge base: \d+ files read, 0 skipped, 0 ignored; \d+ sections/);
  expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
  const answered = await chat('do you deliver invoices by carrier pigeon?');
  expect(answered.status).toBe(200);
  expect(answered.text).toContain('Carrier pigeons');
});

test('an edit while running is reloaded; a broken edit keeps the last good KB in service and logs why', async () => {
  writeFileSync(FAQ, `${readFileSync(FAQ, 'utf8')}\n## Paying with seashells\nSeashells are accepted for annual plans only.\n`);
  await app.waitForOutput(/\[knowledge\] reloaded after an edit: \d+ files read, 0 skipped, 0 ignored; \d+ sections/);
  expect((await chat('can I pay with seashells?')).text).toContain('Paying with seashells');

  // A broken unpinned page is skipped, named with file:line; the rest keeps answering.
  writeFileSync(NEW_PAGE, '---\ntitle: [Carrier pigeons\n---\n# Carrier pigeons\nWe deliver invoices by carrier pigeon.\n');
  await app.waitForOutput(/\[knowledge\] skipped support\/carrier-pigeons\.md:2: malformed front matter.*\(the rest of the knowledge base is served\)/);
  await app.waitForOutput(/\[knowledge\] reloaded after an edit: \d+ files read, 1 skipped/);
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
