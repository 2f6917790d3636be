import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kbVersionOf, selectContext } from '@/lib/retrieval/index';
import { editedDemoKb, editFile, unpinRefundRule } from '@/lib/testing/edits';
import { testIndex } from '@/lib/testing/kb';
import { withRecord } from '@/lib/testing/turns';
import { SqliteStore } from '@/lib/store/sqlite';
import { runInProcess } from './cli';
import { main } from './kb-impact.mts';

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

/** The CLI in process (its `main`), as `npm run kb:impact -- …` runs it, without the server's settings but `env`. */
function kbImpact(args: string[], env: Record<string, string> = {}) {
  return runInProcess(main, args, { KB_PATH: '', KB_BUDGET: '', KB_FLOOR: '', TRACE_DB_PATH: '', ...env });
}

/** The CLI as a process, as CI runs it. */
function spawnKbImpact(args: string[]) {
  const result = spawnSync(tsx, [path.join(root, 'scripts', 'kb-impact.mts'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, KB_PATH: '', KB_BUDGET: '', KB_FLOOR: '', TRACE_DB_PATH: '' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function unpinRefundRuleIn(folder: string): void {
  editFile(folder, 'rules/assistant-rules.md', unpinRefundRule);
}

const QUESTIONS = ['can I get a refund?', 'how do I start a live stream?', '{"q": "and for annual plans?", "history": ["can I get a refund?"]}', 'why does my video keep buffering'];

function questionsFile(lines = QUESTIONS): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'kb-impact-q-')), 'questions.txt');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('kb:impact', () => {
  it('exits 1 when an edit unpins the refund rule, naming the rule and the questions it is no longer sent for', async () => {
    const work = editedDemoKb(unpinRefundRuleIn);
    const { code, stdout } = await kbImpact(['--base', path.join(root, 'content'), '--kb', work, '--questions', questionsFile()]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/LOST RULE: Assistant rules › Refunds \[rules\/assistant-rules\.md#refunds\] is no longer sent for 2 questions:/);
    expect(stdout).toContain('  - "how do I start a live stream?"');
    expect(stdout).toContain('  - "why does my video keep buffering"');
    expect(stdout).toMatch(/pinned share: 31\.6% → 30\.3%/);
  });

  it('reports no change (exit 0) for a harmless wording edit', async () => {
    const work = editedDemoKb((folder) => editFile(folder, 'billing/refund-policy.md', (t) => t.replace('adds a few days to the review', 'adds a few days to the review process')));
    const { code, stdout } = await kbImpact(['--base', path.join(root, 'content'), '--kb', work, '--questions', questionsFile()]);
    expect(code).toBe(0);
    expect(stdout).toContain('4 questions asked of the base and the working KB.\nNo change:');
  });

  it('takes a git ref as the base, and the questions of the newest recorded turns', async () => {
    const repo = mkdtempSync(path.join(tmpdir(), 'kb-impact-git-'));
    cpSync(path.join(root, 'content'), path.join(repo, 'kb'), { recursive: true });
    const git = (...args: string[]) => {
      const r = spawnSync('git', ['-C', repo, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    };
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'kb');
    unpinRefundRuleIn(path.join(repo, 'kb'));

    const db = path.join(repo, 'traces.db');
    const store = new SqliteStore(db);
    const index = testIndex();
    for (const [i, question] of ['how do I start a live stream?', 'can I get a refund?'].entries()) {
      const explanation = selectContext(index, [question]);
      await store.startTurn(withRecord({
        id: `t${i}`, conversationId: 'conv-00000001', createdAt: new Date().toISOString(), trigger: 'submit-message', customerMessages: [question], question,
        explanation, systemPrompt: explanation.context, kb: kbVersionOf(index, 'x'), provider: 'offline', modelId: 'm', selectionUs: 1,
      }));
    }
    await store.close();

    const { code, stdout } = await kbImpact(['--base', 'HEAD', '--kb', path.join(repo, 'kb'), '--json'], { TRACE_DB_PATH: db });
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.questions).toBe(2);
    expect(report.lostRules).toEqual([{ sectionId: 'rules/assistant-rules.md#refunds', path: 'Assistant rules › Refunds', questions: ['how do I start a live stream?'] }]);
  });

  it('exits 2 on usage errors, saying what is wrong', async () => {
    expect((await kbImpact([])).stderr).toMatch(/--base is required/);
    const notARef = await kbImpact(['--base', 'no-such-ref-or-folder', '--questions', questionsFile()]);
    expect(notARef.code).toBe(2);
    expect(notARef.stderr).toMatch(/--base no-such-ref-or-folder: not a folder and not a git ref/);
    const noTraces = await kbImpact(['--base', 'content'], { TRACE_DB_PATH: '/no/such/traces.db' });
    expect(noTraces.code).toBe(2);
    expect(noTraces.stderr).toMatch(/no trace database at \/no\/such\/traces\.db/);
    const badLine = await kbImpact(['--base', 'content', '--questions', questionsFile(['{"question": "x"}'])]);
    expect(badLine.code).toBe(2);
    expect(badLine.stderr).toMatch(/questions\.txt:1: expected a question or/);
  });
});

describe('npm run kb:impact (spawned)', () => {
  it('compares two KB folders as a process: no change for the same KB, exit 0', () => {
    const questions = path.join(mkdtempSync(path.join(tmpdir(), 'kb-impact-q-')), 'questions.txt');
    writeFileSync(questions, 'can I get a refund?\n');
    const { code, stdout } = spawnKbImpact(['--base', path.join(root, 'content'), '--kb', path.join(root, 'content'), '--questions', questions]);
    expect(stdout).toContain('No change');
    expect(code).toBe(0);
  });
});
