import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXTRA_PORT } from './env';
import { question, readChatStream } from './helpers';
import { startApp, type Server } from './spawn';

/**
 * The first load of a large KB in the production server (`next start`, Turbopack's bundle):
 * Next.js's own docs (475 files, 4.6 MB) are parsed on the parse workers — the bundled worker
 * entry, no fallback to the main thread — while /api/health says `loading` with the files done,
 * and a chat sent meanwhile waits for the KB and is answered from it.
 */

const NEXT_DOCS = path.join(import.meta.dirname, '..', 'node_modules/next/dist/docs');

let root: string;
let app: Server | undefined;

test.beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'e2e-kb-load-'));
});

test.afterAll(async () => {
  await app?.stop();
  rmSync(root, { recursive: true, force: true });
});

test('a large KB loads on the parse workers in the background; health says loading, a chat waits for it', async () => {
  test.setTimeout(180_000);
  app = await startApp(EXTRA_PORT + 88, {
    KB_PATH: NEXT_DOCS,
    KB_CACHE_PATH: path.join(root, 'kb-cache'), // a fresh cache: every file is parsed
    OPENAI_API_KEY: '',
    TRACE_DB_PATH: path.join(root, 'traces.db'),
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
  }, 30_000, [], 'answering');
  const first = await fetch(`${app.url}/api/health`);
  expect(first.status).toBe(503);
  const loading = await first.json();
  expect(loading).toMatchObject({ status: 'loading', progress: { done: expect.any(Number), total: expect.any(Number) } });
  expect(loading.progress.done).toBeLessThan(475);

  // Sent while the KB loads: it waits, then is answered from the docs.
  const response = await fetch(`${app.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(question('conv-kb-load-1', 'how do I add a google font to my app')),
  });
  expect(response.status).toBe(200);
  expect((await readChatStream(response)).text).toMatch(/font/i);

  await app.waitForOutput(/\[knowledge\] loaded .*: 475 files read, 0 skipped, \d+ ignored; [\d,]+ sections.*, 475 parsed on \d+ worker threads? \(started in \d+ ms\)/, 60_000);
  expect(app.output()).not.toMatch(/the parse workers could not be used/);
  const ready = await fetch(`${app.url}/api/health`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: 'ok' });
});
