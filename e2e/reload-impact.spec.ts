import { expect, test } from '@playwright/test';
import { ADMIN_TOKEN, EXTRA_PORT } from './env';
import { question, readChatStream } from './helpers';
import { startKbCopyApp, type KbCopyApp } from './kb-copy';

/**
 * "Since the last reload" on /debug/health: a server on a copy of content/ (its own
 * `next start`, offline model, KB_RELOAD_INTERVAL_MS=150) answers two questions; the refund
 * rule is then unpinned in its KB; after the reload the health panel reports the rule lost
 * for the question it is no longer sent for — the report of `npm run kb:impact`.
 */

let server: KbCopyApp;

test.beforeAll(async () => {
  server = await startKbCopyApp(EXTRA_PORT + 14, 'e2e-reload-impact-');
});

test.afterAll(async () => {
  await server?.stop();
});

test('after a reload that unpins the refund rule, /debug/health names the rule and the questions it is lost for', async ({ page }) => {
  const { app } = server;
  for (const [i, text] of ['how do I start a live stream?', 'can I get a refund?'].entries()) {
    const response = await fetch(`${app.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question(`conv-reload-000${i}`, text)) });
    expect((await readChatStream(response)).text).not.toBe('');
  }
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const before = await (await fetch(`${app.url}/api/debug/health`, { headers: auth })).json();
  expect(before.loop.reload).toBeUndefined();

  server.unpinRefundRule();
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
