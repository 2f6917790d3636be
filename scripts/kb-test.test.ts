import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editedDemoKb, editFile, unpinRefundRule } from '@/lib/testing/edits';
import { runInProcess } from './cli';
import { main } from './kb-test.mts';

/**
 * npm run kb:test: the demo KB's own tests pass (once as CI runs it, node with tsx in its own
 * process); the edits a KB test is there to catch each exit 1 naming the case and why; a broken
 * test file exits 2 with file:line. All but the first run in process (`main`).
 */

const root = path.resolve(import.meta.dirname, '..');
const unsetSettings = { KB_PATH: '', KB_BUDGET: '', KB_FLOOR: '', EMBEDDING_MODEL: '', OPENAI_API_KEY: '' };

function kbTestProcess(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, ...unsetSettings };
    execFile(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'kb-test.mts'), ...args], { cwd: root, env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

function kbTest(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runInProcess(main, args, unsetSettings);
}

describe('npm run kb:test', () => {
  it('passes on the demo KB (exit 0), and writes a JUnit file', async () => {
    const junit = path.join(mkdtempSync(path.join(tmpdir(), 'kb-test-junit-')), 'kb-test.xml');
    const { code, stdout } = await kbTestProcess(['--junit', junit]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^kb:test content: \d+ cases in 5 files$/m);
    expect(stdout).toMatch(/^kb:test: (\d+) passed, 0 failed$/m);
    expect(stdout).toContain('note: 1 expectation skipped: reply expectations: run kb:test --with-model');
    expect(readFileSync(junit, 'utf8')).toMatch(/^<testsuites name="kb:test" tests="\d+" failures="0"/m);
  });

  it('exits 1 when the refund rule is unpinned: the server would refuse the KB, and the rule cases say why', async () => {
    const kb = editedDemoKb((folder) => editFile(folder, 'rules/assistant-rules.md', unpinRefundRule));
    const { code, stdout } = await kbTest(['--kb', kb]);
    expect(code).toBe(1);
    const rulesLine = readFileSync(path.join(root, 'content', 'assistant.md'), 'utf8').split('\n').findIndex((line) => line.startsWith('rules:')) + 1;
    expect(stdout).toContain(`✗ assistant.md:${rulesLine}  the server serves this knowledge base with its declared rules`);
    expect(stdout).toContain('rules/assistant-rules.md#refunds is not pinned');
    expect(stdout).toContain('✗ tests/rules.yaml:12  a question on another subject still gets the refund rule');
    expect(stdout).toMatch(/NOT PINNED: Assistant rules › Refunds \[rules\/assistant-rules\.md#refunds\]: not sent: no match \(none of the query's terms — start, live, stream/);
    rmSync(path.dirname(kb), { recursive: true, force: true });
  });

  it('exits 1 when the refund policy heading is renamed, naming the cases and the new heading', async () => {
    const kb = editedDemoKb((folder) => editFile(folder, 'billing/refund-policy.md', (t) => t.replace(/^# Refund policy$/m, '# Refunds and returns')));
    const { code, stdout } = await kbTest(['--kb', kb]);
    expect(code).toBe(1);
    expect(stdout).toContain('✗ tests/refunds.yaml:3  how long a refund takes');
    expect(stdout).toContain('no section has the heading path "Refund policy › Refund timelines"; did you mean "Refunds and returns › Refund timelines"?');
    rmSync(path.dirname(kb), { recursive: true, force: true });
  });

  it('exits 1 when the cancellation page is deleted, naming the cases', async () => {
    const kb = editedDemoKb((folder) => rmSync(path.join(folder, 'billing', 'cancellation-terms.md')));
    const { code, stdout } = await kbTest(['--kb', kb, '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { cases: { name: string; status: string; expectations: { why: string[] }[] }[] };
    const failed = report.cases.filter((c) => c.status === 'failed');
    expect(failed.map((c) => c.name)).toContain("'cancel my plan' ranks the cancellation page first");
    expect(failed.flatMap((c) => c.expectations.flatMap((e) => e.why))).toContain('the knowledge base has no page billing/cancellation-terms.md');
    rmSync(path.dirname(kb), { recursive: true, force: true });
  });

  it('exits 2 with file:line for a test file that cannot be used', async () => {
    const kb = editedDemoKb((folder) => editFile(folder, 'tests/prices.yaml', (t) => t.replace('first: Plans and limits › Free trial', 'frist: Plans and limits › Free trial')));
    const { code, stdout, stderr } = await kbTest(['--kb', kb]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^kb:test: \/.*\/content\/tests\/prices\.yaml:13: "frist" is not an expectation \(known: .*\); did you mean "first"\?\n$/);
    rmSync(path.dirname(kb), { recursive: true, force: true });
  });
});
