import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SEED_BUDGET, seedFiles, SEED_RULE_FILE } from './fixtures';
import type { CheckReport } from './types';

// End to end: the CLI as CI runs it, on fixture KBs written to temp folders.
const repo = path.resolve(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function writeKb(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kb-check-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

function kbCheck(...args: string[]) {
  const r = spawnSync('npx', ['tsx', 'scripts/kb-check.mts', ...args], { cwd: repo, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('npm run kb:check', { timeout: 60_000 }, () => {
  it("exits 1 on the seed's unpinned refund rule, showing that \"can I get a refund?\" does not send it", () => {
    const kb = writeKb(seedFiles());
    const r = kbCheck('--kb', kb, '--budget', String(SEED_BUDGET));
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('Rules that are not sent when they apply (2)');
    expect(r.stdout).toContain(`${SEED_RULE_FILE}:3  "Never promise a refund."`);
    expect(r.stdout).toMatch(/✗ "can I get a refund\?" → ranked \d+, did not fit/);
    expect(r.stdout).toContain('✗ failed: 2 errors');
  });

  it('exits 0 once the rule is pinned', () => {
    const kb = writeKb({
      ...seedFiles('# Notes for the support team\n<!-- pinned -->\n\nNever promise a refund. Refunds are decided by the billing team.\n'),
      'assistant.md': '---\ncompany: Seed Video\n---\n',
    });
    const r = kbCheck('--kb', kb, '--budget', String(SEED_BUDGET));
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('✓ passed: 0 errors, 0 warnings');
    expect(r.status).toBe(0);
  });

  it('prints one JSON document with --json', () => {
    const kb = writeKb(seedFiles());
    const r = kbCheck('--kb', kb, '--budget', String(SEED_BUDGET), '--json');
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout) as CheckReport;
    expect(report.summary).toMatchObject({ ok: false, errors: 2, budget: SEED_BUDGET });
    expect(report.findings[0]).toMatchObject({ kind: 'rule-not-sent', level: 'error', file: SEED_RULE_FILE, line: 3 });
  });

  it('exits 2 on usage errors', () => {
    expect(kbCheck('--nope').status).toBe(2);
    const r = kbCheck('--budget', 'lots');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--budget needs a positive whole number');
  });

  it('warns when the KB has no identity file, and exits 1 for a broken unpinned file it skipped', () => {
    const kb = writeKb({ 'a.md': '# A\n\nText.\n', 'b.md': '---\ntitle: [x\n---\n# B\n\nText.\n' });
    const r = kbCheck('--kb', kb);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('Files left out of the knowledge base (broken) (1)');
    expect(r.stdout).toMatch(/b\.md:2 +malformed front matter/);
    expect(r.stdout).toContain('no assistant.md at the root of the knowledge base');
  });

  it('exits 1 with a file:line message when the KB cannot be loaded', () => {
    const kb = writeKb({ 'a.md': '# A\n\nText.\n', 'rules.md': '---\npinned: true\ntitle: [x\n---\n# Rules\n\nNever promise a refund.\n' });
    const r = kbCheck('--kb', kb);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('rules.md:3: malformed front matter');
    expect(kbCheck('--kb', path.join(kb, 'missing')).status).toBe(1);
  });
});
