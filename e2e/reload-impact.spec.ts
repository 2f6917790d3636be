import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ADMIN_TOKEN, EXTRA_PORT } from './env';
import { question, readChatStream } from './helpers';
import { startKbCopyApp, type KbCopyApp } from './kb-copy';

/**
 * "Since the last reload" on /debug/health: a server on a copy of content/ (its own
 * `next start`, offline model, KB_RELOAD_INTERVAL_MS=150) answers two questions; the refund
 * rule is then unpinned in its KB; after the reload the health panel reports the rule lost
 * for the question it is no longer sent for — the report of `npm run kb:impact`. The report is
 * kept in memory: once a customer's data is deleted (the admin API, or `npm run data:delete` in
 * another process), it no longer holds their question.
 */

let server: KbCopyApp;
/** The visitor of each question asked, in order. */
const visitors: string[] = [];
/** Two customers ask what loses the refund rule once it is unpinned, one asks about refunds (it is still sent, scored). */
const QUESTIONS = ['how do I start a live stream from Zanzibar?', 'can I get a refund?', 'how do I upload a video of my quokka?'];
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startKbCopyApp(EXTRA_PORT + 14, 'e2e-reload-impact-');
});

test.afterAll(async () => {
  await server?.stop();
});

test('after a reload that unpins the refund rule, /debug/health names the rule and the questions it is lost for', async ({ page }) => {
  const { app } = server;
  for (const [i, text] of QUESTIONS.entries()) {
    const response = await fetch(`${app.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question(`conv-reload-000${i}`, text)) });
    expect((await readChatStream(response)).text).not.toBe('');
    visitors.push(response.headers.get('set-cookie')!.split(';')[0]!.slice('support_visitor='.length).split('.')[0]!);
  }
  const before = await (await fetch(`${app.url}/api/debug/health`, { headers: auth })).json();
  expect(before.loop.reload).toBeUndefined();

  server.unpinRefundRule();
  await app.waitForOutput(/\[knowledge\] reloaded after an edit/);
  await app.waitForOutput(/after the reload, 1 pinned rule\(s\) are no longer sent for some recorded questions: see \/debug\/health/);

  const after = await (await fetch(`${app.url}/api/debug/health`, { headers: auth })).json();
  expect(after.loop.reload.report.questions).toBe(3);
  expect(after.loop.reload.report.lostRules).toEqual([
    { sectionId: 'rules/assistant-rules.md#refunds', path: 'Assistant rules › Refunds', questions: [QUESTIONS[2], QUESTIONS[0]] },
  ]);

  await page.setExtraHTTPHeaders(auth);
  await page.goto(`${app.url}/debug/health`);
  await expect(page.getByTestId('reload-lost-rule')).toContainText('Assistant rules › Refunds');
  await expect(page.getByTestId('reload-lost-rule')).toContainText(`“${QUESTIONS[0]}”`);
  await expect(page.getByTestId('reload-summary')).toContainText('of 3 recent questions');
});

test("a customer's data deleted after the reload leaves its report: at once by the admin API, on the next read after data:delete", async () => {
  const { app } = server;
  const health = async () => (await fetch(`${app.url}/api/debug/health`, { headers: auth })).text();
  expect(await health()).toContain(QUESTIONS[0]);

  const deleted = await fetch(`${app.url}/api/debug/customer-data/delete`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'visitor', value: visitors[0] }),
  });
  expect(await deleted.json()).toEqual({ counts: { turns: 1, conversations: 1, feedback: 0, 'hand-offs': 0 }, visitors: 1 });
  const afterApi = JSON.parse(await health());
  expect(JSON.stringify(afterApi)).not.toContain(QUESTIONS[0]);
  expect(afterApi.loop.reload.report.lostRules[0].questions).toEqual([QUESTIONS[2]]);

  // The other customer, deleted by the CLI in a process of its own while the server runs.
  const output = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/data-delete.mts', `--visitor=${visitors[2]}`],
      { cwd: path.resolve(import.meta.dirname, '..'), env: { ...process.env, TRACE_DB_PATH: path.join(path.dirname(server.kb), 'traces.db'), DATABASE_URL: '' } },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );
  expect(output).toBe('deleted 1 turns, 1 conversations, 0 feedback, 0 hand-offs (1 visitor); recorded in the audit trail\n');
  const afterCli = await health();
  for (const text of [QUESTIONS[0], QUESTIONS[2], 'Zanzibar', 'quokka']) expect(afterCli).not.toContain(text);
  expect(JSON.parse(afterCli).loop.reload.report.lostRules).toEqual([]);
});
