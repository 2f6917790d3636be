import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXTRA_PORT } from './env';
import { blockOf, question, readChatStream, systemOf, traces, type StubRequest } from './helpers';
import { startApp, startStub, type Server } from './spawn';

/**
 * The semantic stage with the model that runs in process (EMBEDDING_MODEL=
 * local:universal-sentence-encoder): the production build loads its weights from the npm
 * package, embeds the demo KB when it loads (no embeddings server, no key for it), and a
 * paraphrase BM25 alone does not answer gets its section to the chat model — asserted at the
 * stub's recorded chat request, where the real @ai-sdk/openai provider sent it.
 */

test.describe.configure({ mode: 'serial' });

const ADMIN_TOKEN = 'e2e-local-embeddings-admin-token';
const MODEL = 'local:universal-sentence-encoder';
// BM25 ranks the answer 20th and does not send it (eval/golden-demo.json p11).
const PARAPHRASE = 'what is the biggest file I can send you?';
const UPLOAD_LIMITS = 'product/uploading-videos.md#upload-size-and-duration-limits';
const UPLOAD_LIMITS_BLOCK = '## Uploading videos › Upload size and duration limits';

let root: string;
let stub: Server;
let app: Server;

interface Explanation {
  semantic?: { status: string; model: string };
  sections: { id: string; sent: boolean; fusion?: { lexicalRank?: number; semanticRank?: number; similarity?: number } }[];
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  root = mkdtempSync(path.join(tmpdir(), 'e2e-local-embeddings-'));
  stub = await startStub(EXTRA_PORT + 17);
  app = await startApp(EXTRA_PORT + 16, {
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: `${stub.url}/v1`,
    OPENAI_MODEL: 'stub-model',
    EMBEDDING_MODEL: MODEL,
    EMBEDDING_TIMEOUT_MS: '5000',
    // every turn: BM25's confidence for the question below is ~0.6, above the default 0.2 (semantic.spec tests that threshold)
    EMBEDDING_FUSE_BELOW: '1',
    TRACE_DB_PATH: path.join(root, 'traces.db'),
    KB_CACHE_PATH: path.join(root, 'kb-cache'),
    ADMIN_TOKEN,
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
  });
  // ~80 ms per section on a 2-core machine: the demo KB's 222 unpinned sections take ~18 s.
  await app.waitForOutput(new RegExp(`\\[semantic\\] embedded \\d+ sections with ${MODEL} in \\d+ ms \\(0 of \\d+ from the cache\\)`), 110_000);
});

test.afterAll(async () => {
  await app?.stop();
  await stub?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

test('a paraphrase BM25 misses reaches the model with the in-process embeddings, and /debug names the model', async ({ page }) => {
  const response = await fetch(`${app.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question('conv-local', PARAPHRASE)) });
  expect(response.status).toBe(200);
  const { turnId } = await readChatStream(response);

  const requests = (await (await fetch(`${stub.url}/__requests`)).json()) as StubRequest[];
  expect(blockOf(systemOf(requests.at(-1)!), 'reference_material')).toContain(UPLOAD_LIMITS_BLOCK);
  // The stub served the chat only: nothing was asked of an embeddings server.
  expect((await (await fetch(`${stub.url}/__embedding-requests`)).json()) as unknown[]).toHaveLength(0);

  const row = await traces(path.join(root, 'traces.db')).finished(turnId!);
  const explanation = JSON.parse(row.explanation) as Explanation;
  expect(explanation.semantic).toMatchObject({ status: 'fused', model: MODEL });
  const verdict = explanation.sections.find((v) => v.id === UPLOAD_LIMITS)!;
  expect(verdict).toMatchObject({ sent: true, fusion: { semanticRank: expect.any(Number), similarity: expect.any(Number) } });
  expect(verdict.fusion!.lexicalRank ?? Infinity).toBeGreaterThan(verdict.fusion!.semanticRank!);

  await page.setExtraHTTPHeaders({ authorization: `Bearer ${ADMIN_TOKEN}` });
  await page.goto(`${app.url}/debug/turns/${turnId}`);
  await expect(page.getByTestId('semantic-stage')).toHaveAttribute('data-status', 'fused');
  await expect(page.getByTestId('semantic-stage')).toContainText(MODEL);
  await expect(page.getByTestId('ranked-table').locator(`[data-section-id="${UPLOAD_LIMITS}"]`)).toHaveAttribute('data-sent', 'true');
});

test('screenshot of /debug with the in-process model (set SCREENSHOTS=<folder>)', async ({ page }) => {
  const dir = process.env.SCREENSHOTS;
  test.skip(!dir, 'set SCREENSHOTS=<folder> to take screenshots');
  const response = await fetch(`${app.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question('conv-local-shot', PARAPHRASE)) });
  const { turnId } = await readChatStream(response);
  await page.setExtraHTTPHeaders({ authorization: `Bearer ${ADMIN_TOKEN}` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${app.url}/debug/turns/${turnId}`);
  await page.getByTestId('ranked-sections').screenshot({ path: `${dir}/debug-local-embeddings-ranked.png` });
});
