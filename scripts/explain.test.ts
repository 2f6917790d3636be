import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from './cli';
import { main } from './explain.mts';

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

/** The CLI in process (its `main`), as `npm run explain -- …` runs it; the smoke test at the end spawns it for real. */
function explain(...args: string[]) {
  return explainWith({}, ...args);
}

function explainWith(env: Record<string, string>, ...args: string[]) {
  return runInProcess(main, args, env);
}

/** The CLI as a process, as npm runs it. */
function spawnExplain(...args: string[]) {
  const result = spawnSync(tsx, [path.join(root, 'scripts', 'explain.mts'), ...args], { cwd: root, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function fixture(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'explain-kb-'));
  writeFileSync(
    path.join(dir, 'kb.md'),
    '---\npinned: true\n---\n# Rules\nNever promise a refund. Refunds are decided by the billing team.\n',
  );
  writeFileSync(path.join(dir, 'refunds.md'), '# Refund policy\nRefunds within 14 days.\n# Live streaming\nStream live with RTMP.\n');
  return dir;
}

describe('explain CLI', () => {
  const kb = fixture();

  it('prints a table with pinned, scored and not-sent rows and the token split', async () => {
    const { code, stdout } = await explain('--kb', kb, '--budget', '200', '--floor', '0', 'refund policy');
    expect(code).toBe(0);
    expect(stdout).toMatch(/—\s+\d+\s+Rules\s+\[kb\.md#rules\]\s+pinned/);
    expect(stdout).toMatch(/\d+\.\d\d\s+\d+\s+Refund policy\s+\[refunds\.md#refund-policy\]\s+scored/);
    expect(stdout).toMatch(/→ \d+ tokens sent of 200 \(pinned \d+ · scored \d+ · floor 0\)/);
  });

  it('prints one JSON explanation with --json, sections in rank order', async () => {
    const { code, stdout } = await explain('--kb', kb, '--json', '--history', 'do you stream live?', 'what about that one?');
    expect(code).toBe(0);
    const e = JSON.parse(stdout);
    expect(e.query.previous).toBe('do you stream live?');
    expect(e.sections.map((s: { reason: string }) => s.reason)[0]).toBe('pinned');
    expect(e.sections[1].id).toBe('refunds.md#live-streaming');
  });

  it('answers a --batch file with one JSON line per question, in order', async () => {
    const batch = path.join(kb, 'questions.jsonl');
    writeFileSync(batch, '{"q": "refund?"}\n\n{"q": "that one?", "history": ["live streaming"]}\n');
    const { code, stdout } = await explain('--kb', kb, '--batch', batch);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((e) => e.query.question)).toEqual(['refund?', 'that one?']);
  });

  it('prints a whole section with --section ID, and exits 1 for an id the KB does not have', async () => {
    const { code, stdout } = await explain('--kb', kb, '--section', 'refunds.md#live-streaming');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Live streaming\nrefunds\.md#live-streaming {2}\(refunds\.md:\d+\)\n\n--- \d+ tokens ---\n/);
    const missing = await explain('--kb', kb, '--section', 'refunds.md#no-such-section');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no section refunds.md#no-such-section');
  });

  it('prints budget health with --stats', async () => {
    const { code, stdout } = await explain('--kb', kb, '--stats', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ sections: 3, pinnedSections: 1, budget: 3700 });
  });

  it('fails clearly on unknown options, bad batch lines, missing files and a pinned block over budget', async () => {
    const unknown = await explain('--colour', 'x');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--colour'/);

    const badBatch = path.join(kb, 'bad.jsonl');
    writeFileSync(badBatch, '{"q": "ok"}\n{"question": "wrong key"}\n');
    const bad = await explain('--kb', kb, '--batch', badBatch);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.jsonl:2:');

    const missing = await explain('--kb', '/no/such/kb', 'hello');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('/no/such/kb: no such file or folder');

    const tiny = await explain('--kb', kb, '--budget', '5', 'hello');
    expect(tiny.code).toBe(1);
    expect(tiny.stderr).toMatch(/pinned sections need \d+ tokens but the budget is 5/);

    const none = await explain();
    expect(none.code).toBe(2);
  });

  it('tries a question with another synonyms file (--with-synonyms), and refuses a broken one', async () => {
    const without = await explain('--kb', kb, '--budget', '200', '--floor', '0', 'money back');
    expect(without.stdout).not.toMatch(/Refund policy\s+\[refunds\.md#refund-policy\]\s+scored/);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'explain-syn-')), 'candidate.json');
    writeFileSync(file, '{ "groups": [["refund", "money back"]] }');
    const withCandidate = await explain('--kb', kb, '--budget', '200', '--floor', '0', '--with-synonyms', file, 'money back');
    expect(withCandidate.code).toBe(0);
    expect(withCandidate.stdout).toContain(`synonyms: ${file} (1 groups)`);
    expect(withCandidate.stdout).toMatch(/Refund policy\s+\[refunds\.md#refund-policy\]\s+scored/);
    writeFileSync(file, '{ "groups": [["refund"]] }');
    const broken = await explain('--kb', kb, '--with-synonyms', file, 'money back');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/candidate\.json: wrong shape at \.groups\[0\]/);
    expect((await explain('--kb', kb, '--with-synonyms', '/no/such/file.json', 'x')).code).toBe(2);
  });
});

/** A free port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('explain CLI with the semantic stage (EMBEDDING_MODEL, the stub model over HTTP)', () => {
  const semanticEnv = (base: string) => ({
    EMBEDDING_MODEL: 'stub-embed',
    OPENAI_API_KEY: 'test',
    EMBEDDING_BASE_URL: base,
    KB_CACHE_PATH: mkdtempSync(path.join(tmpdir(), 'explain-cache-')),
    EMBEDDING_FUSE_BELOW: '1', // every turn: these tests are about fusing and falling back
  });

  it('prints each section’s fused rank, BM25 rank, semantic rank and similarity, and the stage’s settings', async () => {
    const port = await freePort();
    const stub = spawn(process.execPath, [path.join(root, 'e2e/stub/openai-stub.mjs')], { env: { ...process.env, STUB_PORT: String(port) }, stdio: 'pipe' });
    try {
      await new Promise((resolve) => stub.stdout!.once('data', resolve));
      const { code, stdout } = await explainWith(semanticEnv(`http://127.0.0.1:${port}/v1`), 'how heavy can my stuff be?');
      expect(code).toBe(0);
      expect(stdout).toMatch(/^semantic: stub-embed, \d+ section\(s\) in the semantic list \(top 10, similarity ≥ 0\.3\), fused with BM25 by reciprocal rank fusion \(k = 60\); query embedded in \d+ ms$/m);
      expect(stdout).toContain('fused   bm25    sem     sim   score  tokens  section');
      // Found by the semantic list alone: no BM25 rank, a semantic rank and similarity, sent.
      expect(stdout).toMatch(/ +#\d+ +— +#\d+ +0\.\d{3} +0\.00 +\d+ +Uploading videos › Upload size and duration limits .* scored$/m);
      const json = JSON.parse((await explainWith(semanticEnv(`http://127.0.0.1:${port}/v1`), '--json', 'how heavy can my stuff be?')).stdout);
      expect(json.semantic).toMatchObject({ status: 'fused', model: 'stub-embed', rrfK: 60 });
      // With the default EMBEDDING_FUSE_BELOW (0.2), a question BM25 answers well is not embedded.
      const confident = await explainWith({ ...semanticEnv(`http://127.0.0.1:${port}/v1`), EMBEDDING_FUSE_BELOW: '0.2' }, 'can I get a refund?');
      expect(confident.stdout).toMatch(/^semantic: not used \(stub-embed\): BM25 is confident \(0\.9\d ≥ 0\.2\), so BM25's ranking alone and no query embedding$/m);
    } finally {
      stub.kill();
    }
  }, 30_000);

  it('says when it fell back to BM25 alone, and why', async () => {
    const { code, stdout } = await explainWith(semanticEnv(`http://127.0.0.1:${await freePort()}/v1`), 'can I get a refund?');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^semantic: FELL BACK to BM25 alone \(stub-embed\): no section has an embedding: /m);
    expect(stdout).toMatch(/^ score  tokens  section$/m);
  }, 60_000);
});

describe('npm run explain (spawned)', () => {
  it('answers a question as a process: the table on stdout, exit 0', () => {
    const { code, stdout } = spawnExplain('--kb', fixture(), '--budget', '200', '--floor', '0', 'refund policy');
    expect(code).toBe(0);
    expect(stdout).toMatch(/\d+\.\d\d\s+\d+\s+Refund policy\s+\[refunds\.md#refund-policy\]\s+scored/);
  });
});
