import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ADMIN_TOKEN, EXTRA_PORT } from './env';
import { question, readChatStream } from './helpers';
import { startApp, type Server } from './spawn';

/**
 * "Since the last reload" on /debug/health: a server on a copy of content/ (its own
 * `next start`, offline model, KB_RELOAD_INTERVAL_MS=150) answers two questions; the refund
 * rule is then unpinned in its KB; after the reload the health panel reports the rule lost
 * for the question it is no longer sent for — the report of `npm run kb:impact`.
 */

let root: string;
let app: Server;

test.beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'e2e-reload-impact-'));
  cpSync(path.join(import.meta.dirname, '..', 'content'), path.join(root, 'content'), { recursive: true });
  app = await startApp(EXTRA_PORT + 11, {
    KB_PATH: path.join(root, 'content'),
    KB_RELOAD_INTERVAL_MS: '150',
    OPENAI_API_KEY: '',
    ADMIN_TOKEN,
    TRACE_DB_PATH: path.join(root, 'traces.db'),
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
  });
});

test.afterAll(async () => {
  await app?.stop();
  rmSync(root, { recursive: true, force: true });
});

test('after a reload that unpins the refund rule, /debug/health names the rule and the questions it is lost for', async ({ page }) => {
  for (const [i, text] of ['how do I start a live stream?', 'can I get a refund?'].entries()) {
    const response = await fetch(`${app.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question(`conv-reload-000${i}`, text)) });
    expect((await readChatStream(response)).text).not.toBe('');
  }
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const before = await (await fetch(`${app.url}/api/debug/health`, { headers: auth })).json();
  expect(before.loop.reload).toBeUndefined();

  const rules = path.join(root, 'content', 'rules', 'assistant-rules.md');
  writeFileSync(rules, readFileSync(rules, 'utf8').replace('---\npinned: true\n---\n', '').replace(/^(#{1,3} (?!Refunds$).*)$/gm, '$1\n<!-- pinned -->'));
  await app.waitForOutput(/\[knowledge\] reloaded after an edit/);
  await app.waitForOutput(/after the reload, 1 pinned rule\(s\) are no longer sent for some recorded questions: see \/debug\/health/);

  const after = await (await fetch(`${app.url}/api/debug/health`, { headers: auth })).json();
  expect(after.loop.reload.report.questions).toBe(2);
  expect(after.loop.reload.report.lostRules).toEqual([
    { sectionId: 'rules/assistant-rules.md#refunds', path: 'Assistant rules › Refunds', questions: ['how do I start a live stream?'] },
  ]);

  await page.setExtraHTTPHeaders(auth);
  await page.goto(`${app.url}/debug/health`);
  await expect(page.getByTestId('reload-lost-rule')).toContainText('Assistant rules › Refunds');
  await expect(page.getByTestId('reload-lost-rule')).toContainText('“how do I start a live stream?”');
  await expect(page.getByTestId('reload-summary')).toContainText('of 2 recent questions');
});
