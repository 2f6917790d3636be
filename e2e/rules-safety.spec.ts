import { cpSync, mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ADMIN_TOKEN, EXTRA_PORT } from './env';
import { blockOf, question, readChatStream, systemOf, type StubRequest } from './helpers';
import { startApp, startStub, type Server } from './spawn';

/**
 * The rules cannot drop out silently (docs/knowledge-base.md "What is refused, what is skipped"): on the
 * production build, a KB copy whose rules are lost at start is not served (503), an edit that
 * loses them while running is refused (the last good version keeps being sent to the model,
 * and /api/health says degraded), and a symlinked rules folder is read like any other.
 * Unreadable files and folders (file modes) are covered in lib/knowledge/holder.test.ts and,
 * for real, in lib/kb-check/cli.test.ts; here a dangling link, which root cannot read either.
 */

const APP_PORT = EXTRA_PORT + 20;
const STUB_PORT = EXTRA_PORT + 21;
const REFUND_RULE = 'Never promise a refund';

let stub: Server;
const roots: string[] = [];

test.beforeAll(async () => {
  stub = await startStub(STUB_PORT);
});
test.afterAll(async () => {
  await stub?.stop();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A copy of the demo KB, edited before the server starts. */
function kbCopy(edit: (kb: string) => void = () => {}): string {
  const root = mkdtempSync(path.join(tmpdir(), 'e2e-rules-'));
  roots.push(root);
  const kb = path.join(root, 'content');
  cpSync(path.join(import.meta.dirname, '..', 'content'), kb, { recursive: true });
  edit(kb);
  return kb;
}

/** Replaces `file` (relative to the KB) with a link to nothing: it cannot be read by anyone. */
function dangle(kb: string, file: string): void {
  rmSync(path.join(kb, file), { recursive: true });
  symlinkSync(path.join(kb, 'gone', file), path.join(kb, file));
}

function app(kb: string): Promise<Server> {
  return startApp(APP_PORT, {
    KB_PATH: kb,
    KB_CACHE_PATH: '',
    KB_RELOAD_INTERVAL_MS: '150',
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: `http://127.0.0.1:${STUB_PORT}/v1`,
    OPENAI_MODEL: 'stub-model',
    TRACE_DB_PATH: path.join(path.dirname(kb), 'traces.db'),
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
    ADMIN_TOKEN,
  });
}

async function health(server: Server): Promise<{ code: number; body: { status?: string; reasons?: string[]; error?: string } }> {
  const response = await fetch(`${server.url}/api/health`);
  return { code: response.status, body: await response.json() };
}

/** Asks "can I get a refund?" and returns the pinned block the stub model received. */
async function pinnedBlockSent(server: Server, conversation: string): Promise<string> {
  await fetch(`http://127.0.0.1:${STUB_PORT}/__reset`, { method: 'POST' });
  const response = await fetch(`${server.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question(conversation, 'can I get a refund?')) });
  expect(response.status).toBe(200);
  await readChatStream(response);
  const requests = (await (await fetch(`http://127.0.0.1:${STUB_PORT}/__requests`)).json()) as StubRequest[];
  return blockOf(systemOf(requests.at(-1)!), 'pinned_knowledge');
}

test('rules lost at start (a dangling rules folder or rules file): not served, health and chat answer 503', async () => {
  for (const lost of ['rules', 'rules/assistant-rules.md']) {
    const server = await app(kbCopy((kb) => dangle(kb, lost)));
    try {
      await server.waitForOutput(/THE KNOWLEDGE BASE COULD NOT BE LOADED: assistant\.md:\d+: the declared rules are not all there: .*not read: rules.*: cannot follow link: ENOENT/);
      expect((await health(server)).code).toBe(503);
      const chat = await fetch(`${server.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question('conv-rules-0001', 'can I get a refund?')) });
      expect(chat.status).toBe(503);
      await chat.arrayBuffer(); // read to the end: an answer left unread holds the server's stop for about 3 s
    } finally {
      await server.stop();
    }
  }
});

test('rules lost by an edit while running: refused, the last good rules are still sent, health says degraded until it is fixed', async () => {
  const kb = kbCopy();
  const server = await app(kb);
  try {
    expect(await health(server)).toEqual({ code: 200, body: { status: 'ok' } });
    expect(await pinnedBlockSent(server, 'conv-rules-0002')).toContain(REFUND_RULE);

    const elsewhere = path.join(path.dirname(kb), 'rules-moved');
    renameSync(path.join(kb, 'rules'), elsewhere);
    symlinkSync(path.join(kb, 'no-such-folder'), path.join(kb, 'rules'));
    await server.waitForOutput(/the edited knowledge base was NOT loaded: assistant\.md:\d+: the declared rules are not all there/);
    const degraded = await health(server);
    expect(degraded.code).toBe(200);
    expect(degraded.body.status).toBe('degraded');
    expect(degraded.body.reasons).toEqual([expect.stringMatching(/^the edited knowledge base was refused at .*; not read: rules: cannot follow link: ENOENT; serving the version loaded at /)]);
    expect(await pinnedBlockSent(server, 'conv-rules-0003')).toContain(REFUND_RULE);
    const inspector = await (await fetch(`${server.url}/api/debug/health`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json();
    expect(inspector.knowledge).toEqual(degraded.body);

    // Put back as a link to the moved folder: links are followed, the rules are all there again.
    rmSync(path.join(kb, 'rules'));
    symlinkSync(elsewhere, path.join(kb, 'rules'));
    await server.waitForOutput(/reloaded after an edit: .* 235 sections/);
    expect(await health(server)).toEqual({ code: 200, body: { status: 'ok' } });
    expect(await pinnedBlockSent(server, 'conv-rules-0004')).toContain(REFUND_RULE);
  } finally {
    await server.stop();
  }
});
