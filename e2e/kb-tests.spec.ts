import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ADMIN_TOKEN, EXTRA_PORT, STUB_URL } from './env';
import { stub, systemOf } from './helpers';
import { startKbCopyApp, type KbCopyApp } from './kb-copy';

/**
 * The KB's own tests (issue 25), end to end. A server of its own on a copy of content/
 * (offline model, reloading every 150 ms) runs them at start and after every reload, and
 * /debug/health shows them: a case made with "Make a test" from a down-voted turn passes once
 * pasted into the KB, and a reload that unpins the refund rule lists the failing cases with
 * why. Then `npm run kb:test --with-model` checks reply expectations against the stub model.
 */

test.describe.configure({ mode: 'serial' });

const ROOT = path.resolve(import.meta.dirname, '..');
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
let server: KbCopyApp;

test.beforeAll(async () => {
  server = await startKbCopyApp(EXTRA_PORT + 50, 'e2e-kb-tests-');
});

test.afterAll(async () => {
  await server?.stop();
});

/** One customer message in a conversation (the widget's lean body); the whole reply read. Returns the turn id. */
async function say(request: APIRequestContext, conversation: string, text: string): Promise<string> {
  const response = await request.post(`${server.app.url}/api/chat`, { data: { id: conversation, message: { id: `m-${Math.random().toString(36).slice(2)}`, role: 'user', parts: [{ type: 'text', text }] }, trigger: 'submit-message' } });
  expect(response.status()).toBe(200);
  await response.text();
  return response.headers()['x-turn-id']!;
}

test('"Make a test" on a down-voted turn gives a case that passes when pasted into the KB', async ({ page }) => {
  const { app, kb } = server;
  await app.waitForOutput(/\[kb-test\] all 22 KB tests pass/);
  await page.setExtraHTTPHeaders(auth);
  await page.goto(`${app.url}/debug/health`);
  await expect(page.getByTestId('kb-tests-summary')).toContainText('All 22 KB tests pass since the last reload');

  // A customer's follow-up, voted down (the visitor cookie of page.request is the conversation's).
  await say(page.request, 'conv-kb-tests-0001', 'Can I get a refund?');
  const turnId = await say(page.request, 'conv-kb-tests-0001', 'and for annual plans?');
  await expect.poll(async () => (await page.request.post(`${app.url}/api/feedback`, { data: { turnId, vote: 'down' } })).status()).toBe(200);

  // From the list of down-voted turns to the turn page, its test open.
  await page.goto(`${app.url}/debug?feedback=down`);
  await page.locator(`[data-testid="turn-row"][data-turn-id="${turnId}"]`).getByTestId('make-test-link').click();
  await expect(page.getByTestId('turn-detail')).toHaveAttribute('data-turn-id', turnId);
  const yaml = await page.getByTestId('make-test-yaml').inputValue();
  expect(yaml).toContain('question: and for annual plans?');
  expect(yaml).toContain('- Can I get a refund?');
  expect(yaml).toContain('- billing/refund-policy.md#annual-plans-are-pro-rated # Refund policy › Annual plans are pro-rated');
  expect(yaml).toMatch(/sources: \[ billing\/refund-policy\.md, /);

  // The same panel opens from the turn page's own button.
  await page.goto(`${app.url}/debug/turns/${turnId}`);
  await expect(page.getByTestId('make-test-yaml')).toHaveCount(0);
  await page.getByTestId('make-test-button').click();
  expect(await page.getByTestId('make-test-yaml').inputValue()).toBe(yaml);

  // Pasted into the KB: the server reloads, and the case is the 23rd, passing.
  writeFileSync(path.join(kb, 'tests', 'from-turns.yaml'), yaml);
  await app.waitForOutput(/\[kb-test\] all 23 KB tests pass/);
  await page.goto(`${app.url}/debug/health`);
  await expect(page.getByTestId('kb-tests-summary')).toContainText('All 23 KB tests pass since the last reload');
});

test('after a reload that breaks a case, /debug/health lists the failing case with its explanation', async ({ page }) => {
  const { app } = server;
  server.unpinRefundRule();
  await app.waitForOutput(/\[knowledge\] reloaded after an edit/);
  await app.waitForOutput(/\[kb-test\] \d+ of 23 KB tests fail for the knowledge base loaded at .*: see \/debug\/health/);

  await page.setExtraHTTPHeaders(auth);
  await page.goto(`${app.url}/debug/health`);
  await expect(page.getByTestId('reload-impact')).toBeVisible();
  await expect(page.getByTestId('kb-tests-summary')).toContainText(/\d+ of 23 KB tests fail since the last reload/);
  const failure = page.getByTestId('kb-test-failure').filter({ hasText: 'a question on another subject still gets the refund rule' });
  await expect(failure).toContainText('tests/rules.yaml:12');
  await expect(failure).toContainText('“How do I start a live stream?”');
  await expect(failure.getByTestId('kb-test-why')).toContainText(
    "NOT PINNED: Assistant rules › Refunds [rules/assistant-rules.md#refunds]: not sent: no match (none of the query's terms — start, live, stream",
  );
});

/** npm run kb:test as a CI job runs it. */
function kbTest(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'kb-test.mts'), ...args], { cwd: ROOT, env: { ...process.env, KB_PATH: '', EMBEDDING_MODEL: '', ...env }, timeout: 60_000 }, (error, stdout) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout }),
    );
  });
}

test('kb:test --with-model checks reply expectations against the stub model; without a model they are skipped with a notice', async () => {
  const kb = path.join(mkdtempSync(path.join(tmpdir(), 'e2e-kb-test-model-')), 'content');
  cpSync(path.join(ROOT, 'content'), kb, { recursive: true });
  rmSync(path.join(kb, 'tests'), { recursive: true });
  cpSync(path.join(ROOT, 'content', 'tests', 'rules.yaml'), path.join(kb, 'tests', 'rules.yaml'));
  writeFileSync(
    path.join(kb, 'tests', 'replies.yaml'),
    [
      'cases:',
      '  - name: the reply says who decides refunds',
      '    question: Can I get a refund?',
      '    expect:',
      '      reply: { mentions: billing team, not_mentions: money back }',
      '  - name: a reply that misses what it must say',
      '    question: Can I get a refund?',
      '    expect:',
      '      reply: { mentions: 14 days, cites: billing/refund-policy.md }',
      '',
    ].join('\n'),
  );
  await stub.reset();
  const model = await kbTest(['--kb', kb, '--with-model'], { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: `${STUB_URL}/v1`, OPENAI_MODEL: 'stub-model' });
  expect(model.code).toBe(1);
  expect(model.stdout).toContain('✓ tests/replies.yaml:2  the reply says who decides refunds');
  expect(model.stdout).toContain('✗ tests/replies.yaml:6  a reply that misses what it must say');
  expect(model.stdout).toContain('does not mention "14 days"');
  expect(model.stdout).toContain('does not name billing/refund-policy.md ("Refund policy")');
  expect(model.stdout).toContain('the reply: "Stub model reply: refunds are reviewed by the billing team, so I cannot promise one."');
  expect(model.stdout).toMatch(/^kb:test: 6 passed, 1 failed$/m);
  // One model call per case with reply expectations, each with the turn's own system prompt.
  const requests = await stub.requests();
  expect(requests).toHaveLength(2);
  for (const request of requests) {
    expect(systemOf(request)).toContain('Never promise a refund');
    expect(request.messages.at(-1)).toEqual({ role: 'user', content: 'Can I get a refund?' });
  }

  const noModel = await kbTest(['--kb', kb, '--with-model'], { OPENAI_API_KEY: '' });
  expect(noModel.code).toBe(0);
  expect(noModel.stdout).toContain('note: 4 expectations skipped: reply expectations: no model is configured (OPENAI_API_KEY is not set');
  const noFlag = await kbTest(['--kb', kb], { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: `${STUB_URL}/v1` });
  expect(noFlag.stdout).toContain('note: 4 expectations skipped: reply expectations: run kb:test --with-model');
  expect(await stub.requests()).toHaveLength(2);
  rmSync(path.dirname(kb), { recursive: true, force: true });
});
