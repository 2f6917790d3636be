import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXTRA_PORT } from './env';
import { ask, lastReply, openChat, systemOf, type StubRequest } from './helpers';
import { startApp, startStub, type Server } from './spawn';

/**
 * Bring your own knowledge base: the production server pointed (KB_PATH) at a real
 * documentation folder nobody on the team wrote — undici's docs, as shipped in
 * node_modules — with an identity file written for it and one pinned rule. The widget
 * shows that company's title, and the system prompt the model receives (at the stub,
 * through the real OpenAI provider) names that company and no other.
 */

test.describe.configure({ mode: 'serial' });

let root: string;
let stub: Server;
let app: Server;

const IDENTITY = `---
company: Undici Labs
about: the maintainers of undici, an HTTP client for Node.js
website: undici.example
widget:
  title: Undici Labs help
  greeting: Hi! Ask me anything about undici.
  suggestions:
    - How do I mock requests in my tests?
---
`;

test.beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'e2e-own-kb-'));
  const kb = path.join(root, 'kb');
  cpSync(path.join(import.meta.dirname, '..', 'node_modules', 'undici', 'docs'), kb, { recursive: true });
  writeFileSync(path.join(kb, 'assistant.md'), IDENTITY);
  writeFileSync(path.join(kb, 'rules.md'), '---\npinned: true\n---\n# Support rules\nNever promise a bug fix date.\n');
  stub = await startStub(EXTRA_PORT + 7);
  app = await startApp(EXTRA_PORT + 6, {
    KB_PATH: kb,
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: `${stub.url}/v1`,
    OPENAI_MODEL: 'stub-model',
    TRACE_DB_PATH: path.join(root, 'traces.db'),
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
  });
});

test.afterAll(async () => {
  await app?.stop();
  await stub?.stop();
  rmSync(root, { recursive: true, force: true });
});

test('the widget and the system prompt are the KB’s company’s, and the answer comes from its docs', async ({ page }) => {
  await app.waitForOutput(/\[knowledge\] loaded .*: \d+ files read, 0 skipped, \d+ ignored; \d+ sections/);
  await page.goto(app.url);
  await expect(page).toHaveTitle('Undici Labs help center');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Undici Labs help center');
  const panel = await openChat(page);
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('Undici Labs help');
  await expect(page.getByTestId('chat-welcome')).toContainText('Ask me anything about undici.');
  await ask(page, 'How do I mock requests in my tests?');
  await lastReply(page, 1);

  const requests = (await (await fetch(`${stub.url}/__requests`)).json()) as StubRequest[];
  const system = systemOf(requests.at(-1)!);
  expect(system).toContain('You are the support assistant of Undici Labs, the maintainers of undici, an HTTP client for Node.js.');
  expect(system).toContain('## Support rules\n\nNever promise a bug fix date.');
  expect(system).toContain('## Mocking Request');
  expect(system).not.toMatch(/lumacast/i);
  expect(await page.content()).not.toMatch(/lumacast/i);
});
