import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess, type CliMain } from './cli';
import { main as docsConfigMain } from './docs-config.mts';
import { main as explainMain } from './explain.mts';
import { main as kbCheckMain } from './kb-check.mts';
import { main as kbImpactMain } from './kb-impact.mts';
import { main as kbTestMain } from './kb-test.mts';

/**
 * Every CLI in package.json answers `--help` with its usage (exit 0) and a bad flag with what
 * is wrong and its usage (exit 2), before doing any work — no stack trace. Spawned as npm runs
 * them (node with tsx), one per core at a time: ≈ 0.3 s of CPU each, tsx's start (they parse
 * their command line before loading the app's modules: cli.ts).
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const CLIS = Object.entries(scripts).flatMap(([name, command]) => {
  const file = /scripts\/([\w-]+\.mts)/.exec(command)?.[1];
  return file ? [{ name, file }] : [];
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', path.join('scripts', file), ...args], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

/** `jobs` run at most `limit` at a time, results in order. */
async function pooled<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await jobs[i]!();
      }
    }),
  );
  return results;
}

describe('the CLIs: --help and bad flags', () => {
  it('lists every CLI of package.json', () => {
    expect(CLIS.map((c) => c.name).sort()).toEqual(
      ['bench', 'bench:callback-flood', 'bench:handoff-flood', 'bench:help', 'bench:kb-test', 'bench:languages', 'bench:load', 'bench:quick', 'bench:route', 'bench:traces', 'data:delete', 'db:migrate', 'docs:config', 'eval', 'explain', 'kb:check', 'kb:impact', 'kb:test', 'load', 'test:crash'].sort(),
    );
  });

  it('each: --help prints its usage and exits 0; an unknown flag prints the problem and the usage and exits 2', { timeout: 180_000 }, async () => {
    // The CLIs that export `main` are run in process (their own tests spawn them once); the others as npm runs them.
    const inProcess: Record<string, CliMain> = { 'docs:config': docsConfigMain, explain: explainMain, 'kb:check': kbCheckMain, 'kb:impact': kbImpactMain, 'kb:test': kbTestMain };
    const jobs = CLIS.flatMap(({ name, file }) => {
      const main = inProcess[name];
      return main ? [() => runInProcess(main, ['--help']), () => runInProcess(main, ['--no-such-flag'])] : [() => run(file, ['--help']), () => run(file, ['--no-such-flag'])];
    });
    const results = await pooled(jobs, Math.max(2, availableParallelism()));
    CLIS.forEach(({ name }, i) => {
      const [help, bad] = [results[2 * i]!, results[2 * i + 1]!];
      const usage = new RegExp(`^usage: npm run ${name}\\b`, 'm');
      expect({ name, code: help.code, usage: usage.test(help.stdout), stderr: help.stderr }).toEqual({ name, code: 0, usage: true, stderr: '' });
      expect({ name, code: bad.code, usage: usage.test(bad.stderr), stdout: bad.stdout }).toEqual({ name, code: 2, usage: true, stdout: '' });
      expect(bad.stderr, name).toMatch(new RegExp(`^${name}: Unknown option '--no-such-flag'`));
      expect(bad.stderr, name).not.toMatch(/\n\s+at /); // no stack trace
    });
  });
});

describe('eval --set', () => {
  it('names an unknown setting or a bad value as a usage error (exit 2), not a stack trace', { timeout: 120_000 }, async () => {
    const [unknown, bad] = await Promise.all([run('eval.mts', ['--set', 'k2=0.9']), run('eval.mts', ['--set', 'k1=notanumber'])]);
    expect({ code: unknown.code, stdout: unknown.stdout }).toEqual({ code: 2, stdout: '' });
    expect(unknown.stderr).toMatch(/^eval: --set: no selector setting named k2 \(the settings: budget, /);
    expect({ code: bad.code, stdout: bad.stdout }).toEqual({ code: 2, stdout: '' });
    expect(bad.stderr).toMatch(/^eval: --set: k1: /);
    for (const r of [unknown, bad]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
