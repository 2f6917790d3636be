import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXTRA_PORT } from './env';
import { blockOf, question, readChatStream, systemOf, traces, type StubRequest } from './helpers';
import { startApp, startStub, type Server } from './spawn';
import { STUB_REPLY } from './stub/reply.mjs';

/**
 * The semantic stage at the model boundary: the production server with EMBEDDING_MODEL set,
 * its embeddings and its chat both served by the stub over real HTTP through the real
 * @ai-sdk/openai provider (POST /v1/embeddings: hashed bag-of-words vectors with hand-made
 * paraphrase groups, lib/testing/stub-embeddings.mjs). The paraphrase below shares no word with the
 * section that answers it, and BM25 alone does not send that section.
 */

test.describe.configure({ mode: 'serial' });

const ADMIN_TOKEN = 'e2e-semantic-admin-token';
const PARAPHRASE = 'how heavy can my stuff be?';
const UPLOAD_LIMITS = 'product/uploading-videos.md#upload-size-and-duration-limits';
const UPLOAD_LIMITS_BLOCK = '## Uploading videos › Upload size and duration limits';
const TIMEOUT_MS = 1000;

let root: string;
let stub: Server;
let app: Server;

interface Verdict {
  id: string;
  sent: boolean;
  rank?: number;
  fusion?: { lexicalRank?: number; semanticRank?: number; similarity?: number };
}
interface Explanation {
  semantic?: { status: string; reason?: string; model: string };
  sections: Verdict[];
}

const appEnv = () => ({
  OPENAI_API_KEY: 'test',
  OPENAI_BASE_URL: `${stub.url}/v1`,
  OPENAI_MODEL: 'stub-model',
  EMBEDDING_MODEL: 'stub-embed',
  EMBEDDING_TIMEOUT_MS: String(TIMEOUT_MS),
  // BM25's confidence for the paraphrase is ~0.4 and for "can I get a refund?" ~0.9: one fuses, the other is skipped.
  EMBEDDING_FUSE_BELOW: '0.5',
  TRACE_DB_PATH: path.join(root, 'traces.db'),
  KB_CACHE_PATH: path.join(root, 'kb-cache'),
  ADMIN_TOKEN,
  CHAT_RATE_LIMIT_PER_MINUTE: '0',
});

const stubGet = async <T>(route: string): Promise<T> => (await (await fetch(`${stub.url}${route}`)).json()) as T;
const stubPost = async (route: string, body: unknown = {}) => expect((await fetch(`${stub.url}${route}`, { method: 'POST', body: JSON.stringify(body) })).ok).toBe(true);

/** One chat turn over HTTP; its reply, its turn id, and the explanation the trace store rebuilds. */
async function chat(text: string) {
  const response = await fetch(`${app.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question(`conv-${Date.now()}`, text)) });
  expect(response.status).toBe(200);
  const { turnId, text: reply } = await readChatStream(response);
  const row = await traces(path.join(root, 'traces.db')).finished(turnId!);
  return { turnId: turnId!, reply, row, explanation: JSON.parse(row.explanation) as Explanation };
}

async function lastSystemPrompt(): Promise<string> {
  return systemOf((await stubGet<StubRequest[]>('/__requests')).at(-1)!);
}

test.beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'e2e-semantic-'));
  stub = await startStub(EXTRA_PORT + 9);
  app = await startApp(EXTRA_PORT + 8, appEnv());
  await app.waitForOutput(/\[semantic\] embedded \d+ sections with stub-embed in \d+ ms \(0 of \d+ from the cache\)/, 20_000);
  // The KB's own tests run once the sections are embedded (their questions are embedded too): done before a test counts requests.
  await app.waitForOutput(/\[kb-test\] (all \d+ KB tests pass|\d+ of \d+ KB tests fail)/, 20_000);
});

test.afterAll(async () => {
  await app?.stop();
  await stub?.stop();
  rmSync(root, { recursive: true, force: true });
});

test.beforeEach(async ({ page }) => {
  await page.setExtraHTTPHeaders({ authorization: `Bearer ${ADMIN_TOKEN}` });
});

test('a paraphrase with no word in common gets the right section sent, and /debug shows both rankings and the fused one', async ({ page }) => {
  const sectionBatches = (await stubGet<{ input: string[] }[]>('/__embedding-requests')).length;
  const { turnId, reply, explanation } = await chat(PARAPHRASE);
  expect(reply).toBe(STUB_REPLY);

  // One query embedding for the turn, of the customer's words, at the stub.
  const embeddingRequests = await stubGet<{ model: string; input: string[] }[]>('/__embedding-requests');
  expect(embeddingRequests).toHaveLength(sectionBatches + 1);
  expect(embeddingRequests.at(-1)).toMatchObject({ model: 'stub-embed', input: [PARAPHRASE] });

  // The model received the section: asserted at the stub's recorded chat request.
  expect(blockOf(await lastSystemPrompt(), 'reference_material')).toContain(UPLOAD_LIMITS_BLOCK);

  // The trace: found by the semantic list alone (no BM25 rank), sent, with its fused rank.
  expect(explanation.semantic).toMatchObject({ status: 'fused', model: 'stub-embed' });
  const verdict = explanation.sections.find((v) => v.id === UPLOAD_LIMITS)!;
  expect(verdict).toMatchObject({ sent: true, rank: expect.any(Number), fusion: { semanticRank: expect.any(Number), similarity: expect.any(Number) } });
  expect(verdict.fusion!.lexicalRank).toBeUndefined();

  await page.goto(`${app.url}/debug/turns/${turnId}`);
  await expect(page.getByTestId('semantic-stage')).toHaveAttribute('data-status', 'fused');
  await expect(page.getByTestId('semantic-stage')).toContainText('stub-embed');
  await expect(page.getByTestId('semantic-stage')).toContainText('k = 60');
  const table = page.getByTestId('ranked-table');
  await expect(table).toHaveAttribute('data-fused', 'true');
  await expect(table.locator('thead')).toContainText('Fused #');
  await expect(table.locator('thead')).toContainText('BM25 # · score');
  await expect(table.locator('thead')).toContainText('Semantic # · similarity');
  const row = table.locator(`[data-section-id="${UPLOAD_LIMITS}"]`);
  await expect(row).toHaveAttribute('data-sent', 'true');
  await expect(row.getByTestId('semantic-cell')).toHaveText(new RegExp(`^#${verdict.fusion!.semanticRank}\\s*${verdict.fusion!.similarity!.toFixed(3).replace('.', '\\.')}$`));
});

test('a question BM25 answers well embeds nothing and keeps BM25’s ranking; /debug says the stage was not needed', async ({ page }) => {
  const before = (await stubGet<unknown[]>('/__embedding-requests')).length;
  const { turnId, explanation } = await chat('can I get a refund?');
  expect(await stubGet<unknown[]>('/__embedding-requests')).toHaveLength(before);
  expect(explanation.semantic).toMatchObject({ status: 'skipped', model: 'stub-embed' });
  expect(explanation.sections.every((v) => v.fusion === undefined)).toBe(true);
  await page.goto(`${app.url}/debug/turns/${turnId}`);
  await expect(page.getByTestId('semantic-stage')).toHaveAttribute('data-status', 'skipped');
  await expect(page.getByTestId('semantic-stage')).toContainText(/Semantic stage not needed \(stub-embed\): BM25 found a confident match \(confidence 0\.\d\d ≥ 0\.5\)/);
  await expect(page.getByTestId('ranked-table')).toHaveAttribute('data-fused', 'false');
});

for (const { mode, reason } of [
  { mode: 'hang', reason: `the embedding model did not answer within ${TIMEOUT_MS} ms` },
  { mode: '500', reason: 'the embedding model answered HTTP 500' },
]) {
  test(`with the embeddings endpoint ${mode === 'hang' ? 'timing out' : 'answering 500'}, the turn answers with BM25 alone and /debug says why`, async ({ page }) => {
    await stubPost('/__embedding-mode', { mode, times: 1 });
    const started = Date.now();
    const { turnId, reply, explanation } = await chat(PARAPHRASE);
    expect(reply).toBe(STUB_REPLY);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 5000);
    expect(explanation.semantic).toMatchObject({ status: 'fallback', model: 'stub-embed', reason: expect.stringContaining(reason) });
    expect(explanation.sections.every((v) => v.fusion === undefined)).toBe(true);
    expect(await lastSystemPrompt()).not.toContain(UPLOAD_LIMITS_BLOCK);

    await page.goto(`${app.url}/debug/turns/${turnId}`);
    await expect(page.getByTestId('semantic-stage')).toHaveAttribute('data-status', 'fallback');
    await expect(page.getByTestId('semantic-stage')).toContainText(`Semantic stage fell back to BM25 alone (stub-embed): ${reason}`);
    await expect(page.getByTestId('ranked-table')).toHaveAttribute('data-fused', 'false');
  });
}

test('/debug/health says how often recent turns found little by their words, with examples, and that the stage is on', async ({ page }) => {
  await chat('hi, can you help me?');
  await page.goto(`${app.url}/debug/health`);
  const panel = page.getByTestId('semantic-advice');
  await expect(panel.getByTestId('semantic-stage-state')).toHaveAttribute('data-status', 'ready');
  await expect(panel.getByTestId('semantic-stage-state')).toContainText('The semantic stage is on (stub-embed)');
  await expect(panel.getByTestId('semantic-advice-share')).toContainText(/of the last 5 turns found little by their words: \d+ hit the floor/);
  const example = panel.getByTestId('semantic-advice-examples').getByRole('link', { name: '“hi, can you help me?”' });
  await example.click();
  await expect(page.getByTestId('turn-detail')).toBeVisible();
});

/** The explanation without what only timing sets (how long the query embedding took). */
function untimed(explanation: Explanation & { semantic?: { ms?: number } }): unknown {
  return { ...explanation, ...(explanation.semantic ? { semantic: { ...explanation.semantic, ms: undefined } } : {}) };
}

test('the chat, /debug "Try" and the explain CLI give the same explanation for the same question (one retrieval path)', async () => {
  const fromChat = (await chat(PARAPHRASE)).explanation;
  expect(fromChat.semantic).toMatchObject({ status: 'fused' });
  const tried = await fetch(`${app.url}/api/debug/try`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ question: PARAPHRASE }),
  });
  expect(tried.status).toBe(200);
  const fromTry = ((await tried.json()) as { explanation: Explanation }).explanation;
  const cli = execFileSync(process.execPath, [path.join('node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/explain.mts', '--json', PARAPHRASE], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, ...appEnv() },
    encoding: 'utf8',
  });
  const fromCli = JSON.parse(cli) as Explanation;
  expect(untimed(fromTry)).toEqual(untimed(fromChat));
  expect(untimed(fromCli)).toEqual(untimed(fromChat));
});

test('a new instance on the same cache embeds no section again', async () => {
  await app.stop();
  await stubPost('/__reset');
  app = await startApp(EXTRA_PORT + 8, appEnv());
  await app.waitForOutput(/\[semantic\] \d+ sections embedded with stub-embed \(all from the cache\)/);
  // No section's text was sent (a section is embedded as its block: "## heading path…"); the KB
  // tests' questions, which the new instance embeds next, may already be in the log.
  const inputs = (await stubGet<{ input: string[] }[]>('/__embedding-requests')).flatMap((r) => r.input);
  expect(inputs.filter((text) => text.startsWith('## '))).toEqual([]);
  const { explanation } = await chat(PARAPHRASE);
  expect(explanation.sections.find((v) => v.id === UPLOAD_LIMITS)).toMatchObject({ sent: true });
});

test('screenshot of /debug with the semantic stage on (set SCREENSHOTS=<folder>)', async ({ page }) => {
  const dir = process.env.SCREENSHOTS;
  test.skip(!dir, 'set SCREENSHOTS=<folder> to take screenshots');
  const { turnId } = await chat(PARAPHRASE);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${app.url}/debug/turns/${turnId}`);
  await page.screenshot({ path: `${dir}/debug-semantic-turn.png`, fullPage: true });
  await page.getByTestId('ranked-sections').screenshot({ path: `${dir}/debug-semantic-ranked.png` });
  await page.goto(`${app.url}/debug/health`);
  await page.getByTestId('semantic-advice').screenshot({ path: `${dir}/debug-semantic-health.png` });
});
