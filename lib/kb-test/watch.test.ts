import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KnowledgeHolder } from '../knowledge/holder';
import { watchKbTests } from './watch';

/** The KB's tests on the server: a real holder on a folder, wired as lib/server/app.ts wires it. */

const FILES = {
  'rules.md': '---\npinned: true\n---\n# Rules\nNever promise a refund.',
  'faq.md': '# FAQ\nAnswers.\n## Refunds\nAsk billing within 14 days.',
  'tests/refunds.yaml': 'cases:\n  - name: refunds\n    question: how do I get a refund?\n    expect: { first: FAQ › Refunds, pinned: rules.md#rules }\n',
};

function write(root: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
}

const holders: KnowledgeHolder[] = [];
afterEach(() => holders.splice(0).forEach((h) => h.stop()));

function setUp() {
  const root = mkdtempSync(path.join(tmpdir(), 'kb-test-watch-'));
  write(root, FILES);
  const lines: string[] = [];
  const log = { info: (m: string) => lines.push(m), error: (m: string) => lines.push(`ERROR ${m}`) };
  const holder = new KnowledgeHolder({ kbPath: root, log });
  holders.push(holder);
  return { root, holder, lines, tests: watchKbTests(holder, log) };
}

/** Two checks: the edit is seen, then it has settled and is loaded. */
async function reload(holder: KnowledgeHolder) {
  await holder.check();
  return holder.check();
}

describe('the KB tests on the server', () => {
  it('run for the first load, and for every reload; a failing test leaves the KB in service', async () => {
    const { root, holder, lines, tests } = setUp();
    const first = await tests.of(holder.get());
    expect(first.report?.summary).toMatchObject({ cases: 1, passed: 1, failed: 0 });
    expect(lines).toContain('[kb-test] all 1 KB tests pass (0 ms)'.replace('0 ms', `${first.report!.ms.toFixed(0)} ms`));

    write(root, { 'faq.md': '# FAQ\nAnswers.\n## Money back\nAsk billing within 14 days.' });
    expect(await reload(holder)).toBe('reloaded');
    const after = await tests.of(holder.get());
    expect(after.loadedAt).toBe(holder.get().loadedAt.toISOString());
    expect(after.report?.summary).toMatchObject({ cases: 1, failed: 1 });
    expect(after.report?.cases[0]!.expectations[0]!.why[0]).toBe('no section has the heading path "FAQ › Refunds"; did you mean "FAQ › Money back"?');
    expect(lines.at(-1)).toMatch(/^ERROR \[kb-test\] 1 of 1 KB tests fail for the knowledge base loaded at .*: see \/debug\/health$/);
    expect(holder.health()).toEqual({ status: 'ready' });
    expect(holder.get().index.sections.map((s) => s.id)).toContain('faq.md#money-back');
  });

  it('run again when only a test file is edited; a broken test file is reported and the KB is still served', async () => {
    const { root, holder, lines, tests } = setUp();
    write(root, { 'tests/refunds.yaml': 'cases:\n  - question: refund\n    expect: { frist: faq.md }\n' });
    expect(await reload(holder)).toBe('reloaded');
    const run = await tests.of(holder.get());
    expect(run.fileError).toBe('tests/refunds.yaml:3: "frist" is not an expectation (known: sends, not_sends, first, top, pinned, floor, sources, semantic, reply); did you mean "first"?');
    expect(lines.at(-1)).toMatch(/^ERROR \[kb-test\] the KB's tests could not be read: tests\/refunds\.yaml:3: .*\(the knowledge base is served; see \/debug\/health\)$/);
    expect(holder.ready).toBe(true);

    write(root, { 'tests/refunds.yaml': FILES['tests/refunds.yaml'], 'tests/more.yaml': 'cases:\n  - question: hi\n    expect: { floor: true }\n' });
    expect(await reload(holder)).toBe('reloaded');
    expect((await tests.of(holder.get())).report?.summary).toMatchObject({ cases: 2, passed: 2 });
  });
});
