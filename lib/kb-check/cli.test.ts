import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SEED_BUDGET, seedFiles, SEED_RULE_FILE } from './fixtures';
import type { CheckReport } from './types';
import { runInProcess } from '@/scripts/cli';
import { main } from '@/scripts/kb-check.mts';

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

/** The CLI in process (its `main`), as `npm run kb:check -- …` runs it; the spawned tests below run it for real. */
async function kbCheck(...args: string[]) {
  const r = await runInProcess(main, args);
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

/** The CLI as a process, as CI runs it. */
function spawnKbCheck(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(repo, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/kb-check.mts', ...args], { cwd: repo, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('npm run kb:check', { timeout: 60_000 }, () => {
  it("exits 1 on the seed's unpinned refund rule, showing that \"can I get a refund?\" does not send it", async () => {
    const kb = writeKb(seedFiles());
    const r = await kbCheck('--kb', kb, '--budget', String(SEED_BUDGET));
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('Rules that are not sent when they apply (2)');
    expect(r.stdout).toContain(`${SEED_RULE_FILE}:3  "Never promise a refund."`);
    expect(r.stdout).toMatch(/✗ "can I get a refund\?" → ranked \d+, did not fit/);
    expect(r.stdout).toContain('✗ failed: 2 errors');
  });

  it('exits 0 once the rule is pinned', async () => {
    const kb = writeKb({
      ...seedFiles('# Notes for the support team\n<!-- pinned -->\n\nNever promise a refund. Refunds are decided by the billing team.\n'),
      'assistant.md': '---\ncompany: Seed Video\n---\n',
    });
    const r = await kbCheck('--kb', kb, '--budget', String(SEED_BUDGET));
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('✓ passed: 0 errors, 0 warnings');
    expect(r.status).toBe(0);
  });

  it('prints one JSON document with --json', async () => {
    const kb = writeKb(seedFiles());
    const r = await kbCheck('--kb', kb, '--budget', String(SEED_BUDGET), '--json');
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout) as CheckReport;
    expect(report.summary).toMatchObject({ ok: false, errors: 2, budget: SEED_BUDGET });
    expect(report.findings[0]).toMatchObject({ kind: 'rule-not-sent', level: 'error', file: SEED_RULE_FILE, line: 3 });
  });

  it('exits 2 on usage errors', async () => {
    expect((await kbCheck('--nope')).status).toBe(2);
    const r = await kbCheck('--budget', 'lots');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--budget needs a positive whole number');
  });

  it('warns when the KB has no identity file, and exits 1 for a broken unpinned file it skipped', async () => {
    const kb = writeKb({ 'a.md': '# A\n\nText.\n', 'b.md': '---\ntitle: [x\n---\n# B\n\nText.\n' });
    const r = await kbCheck('--kb', kb);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('Files left out of the knowledge base (broken) (1)');
    expect(r.stdout).toMatch(/b\.md:2 +malformed front matter/);
    expect(r.stdout).toContain('no assistant.md at the root of the knowledge base');
  });

  it('exits 1 with a file:line message when the KB cannot be loaded', async () => {
    const kb = writeKb({ 'a.md': '# A\n\nText.\n', 'rules.md': '---\npinned: true\ntitle: [x\n---\n# Rules\n\nNever promise a refund.\n' });
    const r = await kbCheck('--kb', kb);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('rules.md:3: malformed front matter');
    expect((await kbCheck('--kb', path.join(kb, 'missing'))).status).toBe(1);
  });
});

// Each way of losing a rule, for real: file modes (as an unprivileged user when the tests run
// as root, who reads everything), a dangling link, a symlinked rules folder.
describe('npm run kb:check: rules that must not vanish', { timeout: 60_000 }, () => {
  const asRoot = process.getuid?.() === 0;
  const NOBODY = 65534;

  /** The demo KB copied to a folder every user can read, edited by `edit`. */
  function demoKb(edit: (kb: string) => void): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'kb-check-rules-'));
    dirs.push(dir);
    chmodSync(dir, 0o755);
    const kb = path.join(dir, 'content');
    cpSync(path.join(repo, 'content'), kb, { recursive: true });
    edit(kb);
    return kb;
  }

  /** kb:check as a user whom file modes apply to. */
  function kbCheckUnprivileged(kb: string) {
    const tsx = path.join(repo, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const r = spawnSync(process.execPath, [tsx, 'scripts/kb-check.mts', '--kb', kb], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 30_000,
      ...(asRoot ? { uid: NOBODY, gid: NOBODY, env: { ...process.env, HOME: tmpdir() } } : {}),
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it('exits 1 when the rules folder cannot be read, naming it', async () => {
    const r = kbCheckUnprivileged(demoKb((kb) => chmodSync(path.join(kb, 'rules'), 0o000)));
    expect(r.stdout).toContain('Rules the server would not serve (1)');
    expect(r.stdout).toMatch(/error {3}assistant\.md:\d+ {2}the server refuses this knowledge base: the declared rules are not all there: .*not read: rules\/: cannot read folder: EACCES/);
    expect(r.status).toBe(1);
  });

  it('exits 1 when a pinned file cannot be read, naming it', async () => {
    const r = kbCheckUnprivileged(demoKb((kb) => chmodSync(path.join(kb, 'rules', 'assistant-rules.md'), 0o000)));
    expect(r.stdout).toMatch(/the declared rules are not all there: rules\/assistant-rules\.md#refunds is not in the knowledge base; 13 pinned sections are declared, 5 found; not read: rules\/assistant-rules\.md: cannot read file: EACCES/);
    expect(r.status).toBe(1);
  });

  it('exits 1 when an unpinned file cannot be read and the KB declares no rules (it may have held one)', async () => {
    const r = kbCheckUnprivileged(
      demoKb((kb) => {
        writeFileSync(path.join(kb, 'assistant.md'), '---\ncompany: Lumacast\n---\n');
        chmodSync(path.join(kb, 'billing', 'refund-policy.md'), 0o000);
      }),
    );
    expect(r.stdout).toMatch(/error {3}billing\/refund-policy\.md {2}the server refuses this knowledge base: cannot read file: EACCES: it may hold pinned rules/);
    expect(r.status).toBe(1);
  });

  it('exits 1 for a dangling rules link', async () => {
    const r = await kbCheck('--kb', demoKb((kb) => {
      rmSync(path.join(kb, 'rules'), { recursive: true });
      symlinkSync(path.join(kb, 'no-such-rules'), path.join(kb, 'rules'));
    }));
    expect(r.stdout).toMatch(/not read: rules: cannot follow link: ENOENT/);
    expect(r.status).toBe(1);
  });

  it('follows a symlinked rules folder: all 13 pinned sections, exit 0', async () => {
    const r = await kbCheck('--kb', demoKb((kb) => {
      const elsewhere = path.join(path.dirname(kb), 'shared-rules');
      renameSync(path.join(kb, 'rules'), elsewhere);
      symlinkSync(elsewhere, path.join(kb, 'rules'));
    }));
    expect(r.stdout).toMatch(/sections \(13 pinned\)/);
    expect(r.stdout).toContain('✓ passed: 0 errors');
    expect(r.status).toBe(0);
  });
});

describe('npm run kb:check (spawned)', { timeout: 60_000 }, () => {
  it('checks the demo KB as a process: the report on stdout, exit 0', () => {
    const r = spawnKbCheck();
    expect(r.stdout).toContain('✓ passed: 0 errors');
    expect(r.status).toBe(0);
  });
});
