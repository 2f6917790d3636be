import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runInProcess } from './cli';
import { configurationTables, CONFIGURATION_PAGE, defaultOf, withGeneratedTables } from './config-doc';
import { main } from './docs-config.mts';

const ROOT = path.resolve(import.meta.dirname, '..');
const committed = () => readFileSync(path.join(ROOT, CONFIGURATION_PAGE), 'utf8');

describe('docs/configuration.md: generated from the settings schemas', () => {
  it('is what `npm run docs:config` writes from lib/env.ts and lib/retrieval/config.ts (run it after changing a setting)', () => {
    const page = committed();
    expect(withGeneratedTables(page) === page, `${CONFIGURATION_PAGE} differs from the settings schemas: run \`npm run docs:config\``).toBe(true);
  });

  it('lists every variable once, its default as the environment spells it, a retired one only as such', () => {
    const { settings, advanced, retired, retrieval } = configurationTables();
    const variables = (table: string) => [...table.matchAll(/^\|[^|]*\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(variables(settings)).toContain('OPENAI_API_KEY');
    expect(variables(advanced)).toContain('MODEL_TIMEOUT_MS');
    expect(variables(settings).filter((name) => variables(advanced).includes(name))).toEqual([]);
    expect(settings).toMatch(/^\| Model \| `OPENAI_API_KEY` \| unset \| /m); // a group is named on its first row
    expect(settings).toMatch(/^\| {2}\| `OPENAI_MODEL` \| `gpt-4o-mini` \| /m);
    expect(settings).toMatch(/\| `KB_BUDGET` \| 3700 \|/); // the selector's budget, KB_BUDGET unset
    expect(advanced).toMatch(/\| `OIDC_ASSUME_EMAIL_VERIFIED` \| `false` \|/); // before its transform to a boolean
    expect(advanced).toMatch(/\| `EMBEDDING_BASE_URL` \| `OPENAI_BASE_URL` \|/);
    expect(retired).toMatch(/^\| `MODEL_MAX_RETRIES` \| a failed model call/m);
    expect(`${settings}\n${advanced}`).not.toMatch(/MODEL_MAX_RETRIES|BENCH_BASELINE_ROUTE/);
    expect(retrieval).toMatch(/^\| `budget` \| 3700 \| .* The server's: `KB_BUDGET`\. \|$/m);
    expect(retrieval).not.toMatch(/headingField|headingB/);
  });

  it('reads a default through a transform, and none from an optional setting', () => {
    expect(defaultOf(z.enum(['true', 'false']).default('false').transform((v) => v === 'true'))).toBe('false');
    expect(defaultOf(z.coerce.number().default(15))).toBe(15);
    expect(defaultOf(z.string().optional())).toBeUndefined();
  });

  it('refuses a page without the generated blocks, naming the missing one', () => {
    expect(() => withGeneratedTables('# Configuration\n')).toThrow(/has no "<!-- generated: settings \(npm run docs:config\) -->"/);
  });
});

describe('npm run docs:config', () => {
  it('rewrites an edited table, says so, and --check fails on a stale page (exit 1) and passes on a current one', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'docs-config-'));
    mkdirSync(path.join(root, 'docs'));
    const file = path.join(root, CONFIGURATION_PAGE);
    const stale = committed().replace(/^\|.*`OPENAI_MODEL` \|.*\n/m, ''); // a table row lost in a hand edit
    expect(stale).not.toBe(committed());
    writeFileSync(file, stale);
    const run = (args: string[]) => runInProcess((argv, output) => main(argv, output, root), args);

    expect(await run(['--check'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/differs from the settings schemas: run `npm run docs:config`/) });
    expect(readFileSync(file, 'utf8')).toBe(stale);
    expect(await run([])).toMatchObject({ code: 0, stdout: expect.stringMatching(/wrote the tables/) });
    expect(readFileSync(file, 'utf8')).toBe(committed());
    expect(await run(['--check'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/is current/) });
  });
});
