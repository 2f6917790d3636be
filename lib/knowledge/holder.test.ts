import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolvePaths } from '../server/paths';
import { KB_CACHE_FORMAT, kbCacheFile } from './disk-cache';
import { recordingLog } from '../testing/knowledge-log';
import { KnowledgeHolder, KnowledgeUnavailableError } from './holder';

// Root reads every file, whatever its mode (CI runs as root), so "unreadable" is simulated:
// any file named locked.md fails to read, and any folder named locked fails to list, with
// EACCES, as a chmod 000 file or folder would for a user (scripts/kb-check.test.ts does it for real).
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const denied = (file: unknown) => Object.assign(new Error(`EACCES: permission denied, open '${String(file)}'`), { code: 'EACCES' });
  const readFileSync = ((file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (String(file).endsWith(`${path.sep}locked.md`)) throw denied(file);
    return (real.readFileSync as (...args: unknown[]) => unknown)(file, ...rest);
  }) as typeof real.readFileSync;
  const readdirSync = ((dir: fs.PathLike, ...rest: unknown[]) => {
    if (String(dir).endsWith(`${path.sep}locked`)) throw denied(dir);
    return (real.readdirSync as (...args: unknown[]) => unknown)(dir, ...rest);
  }) as typeof real.readdirSync;
  const mocked = { readFileSync, readdirSync };
  return { ...real, ...mocked, default: { ...real, ...mocked } };
});

function kb(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'kb-holder-'));
  write(root, files);
  return root;
}

function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
}

const GOOD = {
  'rules.md': '---\npinned: true\n---\n# Rules\nNever promise a refund.',
  'faq.md': '# FAQ\nAnswers.\n## Refunds\nAsk billing within 14 days.',
};
const DECLARES_ONE = '---\ncompany: Acme\nrules:\n  count: 1\n  required: [rules.md#rules]\n---\n';
const DECLARES_TWO = '---\ncompany: Acme\nrules:\n  count: 2\n---\n';

const holders: KnowledgeHolder[] = [];
function hold(root: string, settings: { KB_BUDGET?: number } = {}) {
  const log = recordingLog();
  const holder = new KnowledgeHolder({ kbPath: root, config: { budget: settings.KB_BUDGET }, log });
  holders.push(holder);
  return { holder, log };
}
afterEach(() => {
  for (const h of holders.splice(0)) h.stop();
});

describe('a broken knowledge base at start-up', () => {
  const refusals: { kind: string; files: Record<string, string | Buffer>; settings?: { KB_BUDGET?: number }; error: RegExp }[] = [
    { kind: 'a pinned file with malformed front matter', files: { ...GOOD, 'rules.md': '---\npinned: [true\n---\n# Rules\nNever promise a refund.' }, error: /^rules\.md:\d+: malformed front matter.*\(a pinned file: the knowledge base is not served without it\)$/ },
    { kind: 'a pinned file that is not valid UTF-8', files: { ...GOOD, 'rules.md': Buffer.concat([Buffer.from('---\npinned: true\n---\n# Rules\n'), Buffer.from([0xff]), Buffer.from('\n')]) }, error: /^rules\.md:5: not valid UTF-8 \(a pinned file/ },
    { kind: 'pinned block over the budget', files: GOOD, settings: { KB_BUDGET: 3 }, error: /pinned sections need \d+ tokens but the budget is 3: raise the budget or unpin some of: rules\.md#rules/ },
    { kind: 'synonyms file of the wrong shape', files: { ...GOOD, 'synonyms.json': '{"groups": {"price": "cost"}}' }, error: /^synonyms\.json: wrong shape at \.groups/ },
    { kind: 'synonyms file that is not JSON', files: { ...GOOD, 'synonyms.json': '{\n"groups": [\n["a" "b"]]}' }, error: /^synonyms\.json:3: invalid JSON/ },
    { kind: 'identity file with an unknown field', files: { ...GOOD, 'assistant.md': '---\ncompany: Acme\ncolour: red\n---\n' }, error: /^assistant\.md:3: "colour": unknown field/ },
    { kind: 'an unreadable file (it may hold a rule)', files: { ...GOOD, 'locked.md': '# Locked\nText.' }, error: /^locked\.md: cannot read file: EACCES: it may hold pinned rules, so the knowledge base is not served without it/ },
    { kind: 'an unreadable pinned file', files: { ...GOOD, 'rules/locked.md': GOOD['rules.md'] }, error: /^rules\/locked\.md: cannot read file: EACCES: it may hold pinned rules/ },
    { kind: 'an unreadable folder', files: { ...GOOD, 'locked/rules.md': GOOD['rules.md'] }, error: /^locked\/: cannot read folder: EACCES: it may hold pinned rules/ },
    { kind: 'declared rules that are missing', files: { ...GOOD, 'assistant.md': DECLARES_TWO }, error: /^assistant\.md:3: the declared rules are not all there: 2 pinned sections are declared, 1 found$/ },
  ];
  for (const { kind, files, settings, error } of refusals) {
    it(`${kind}: refuses to serve it, logs the file (and line), and get() throws the same`, () => {
      const { holder, log } = hold(kb(files), settings);
      expect(holder.ready).toBe(false);
      expect(() => holder.get()).toThrow(KnowledgeUnavailableError);
      expect(() => holder.get()).toThrow(error);
      expect(log.errors[0]).toMatch(/^\[knowledge\] THE KNOWLEDGE BASE COULD NOT BE LOADED: /);
      expect(log.errors[0]!.replace('[knowledge] THE KNOWLEDGE BASE COULD NOT BE LOADED: ', '')).toMatch(error);
    });
  }

  const skips: { kind: string; files: Record<string, string | Buffer>; error: RegExp }[] = [
    { kind: 'an unreadable file, all declared rules found', files: { ...GOOD, 'assistant.md': DECLARES_ONE, 'locked.md': '# Locked\nText.' }, error: /^locked\.md: cannot read file: EACCES$/ },
    { kind: 'malformed front matter', files: { ...GOOD, 'page.md': '---\ntitle: [unclosed\n---\n# A\nB' }, error: /^page\.md:\d+: malformed front matter/ },
    { kind: 'invalid UTF-8', files: { ...GOOD, 'bad.md': Buffer.concat([Buffer.from('# A\nfine\n'), Buffer.from([0xff, 0xfe]), Buffer.from('\n')]) }, error: /^bad\.md:3: not valid UTF-8$/ },
    { kind: 'MDX that does not parse', files: { ...GOOD, 'page.mdx': '# A\n\n<Note>\nunclosed\n' }, error: /^page\.mdx:\d+: MDX that cannot be parsed/ },
  ];
  for (const { kind, files, error } of skips) {
    it(`${kind} (unpinned): skipped and logged with file:line, the rest is served`, () => {
      const { holder, log } = hold(kb(files));
      expect(holder.ready).toBe(true);
      const { kb: loaded, index } = holder.get();
      expect(loaded.skipped.map((s) => s.message)).toEqual([expect.stringMatching(error)]);
      expect(index.sections.map((s) => s.id)).toEqual(['faq.md#faq', 'faq.md#refunds', 'rules.md#rules']);
      expect(log.errors).toEqual([expect.stringMatching(/^\[knowledge\] skipped .* \(the rest of the knowledge base is served\)$/)]);
      expect(log.lines[0]).toMatch(/^\[knowledge\] loaded .*: 2 files read, 1 skipped, 0 ignored; 3 sections, \d+ tokens; \d+ ms$/);
      expect(holder.health()).toEqual({ status: 'degraded', reasons: [expect.stringMatching(/^1 file left out: /)] });
    });
  }

  it('is picked up once fixed, without a restart', async () => {
    const root = kb({ ...GOOD, 'synonyms.json': '{"groups": 1}' });
    const { holder, log } = hold(root);
    expect(await holder.check()).toBe('unchanged');
    write(root, { 'synonyms.json': '{"groups": []}', 'b.md': '# Other\nTwo.' });
    expect(await holder.check()).toBe('changing');
    expect(await holder.check()).toBe('reloaded');
    expect(holder.get().index.sections.map((s) => s.id)).toContain('b.md#other');
    expect(log.lines.at(-1)).toMatch(/^\[knowledge\] loaded the fixed knowledge base: 3 files read, 0 skipped, 0 ignored; 4 sections/);
  });
});

describe('a knowledge base edited while running', () => {
  it('tells onReload the KB it replaced and the new one (not at the first load, not after a refused edit)', async () => {
    const root = kb(GOOD);
    const reloads: [number, number][] = [];
    const holder = new KnowledgeHolder({ kbPath: root, log: recordingLog() });
    holder.onReload((previous, next) => void reloads.push([previous.index.sections.length, next.index.sections.length]));
    holders.push(holder);
    write(root, { 'b.md': '# Other\nTwo.' });
    await holder.check();
    expect(await holder.check()).toBe('reloaded');
    expect(reloads).toEqual([[3, 4]]);
    write(root, { 'rules.md': '---\npinned: true\n---\n# Rules\n<!-- pinned --> misplaced\n\n<!-- pinned -->' });
    await holder.check();
    expect(await holder.check()).toBe('refused');
    expect(reloads).toHaveLength(1);
  });

  it('is reloaded once the edit has settled', async () => {
    const root = kb(GOOD);
    const { holder, log } = hold(root);
    const before = holder.get();
    expect(before.index.sections).toHaveLength(3);
    write(root, { 'new.md': '# Shipping\nWe ship worldwide.' });
    expect(await holder.check()).toBe('changing');
    expect(holder.get()).toBe(before); // not yet: another file may still be on its way
    write(root, { 'faq.md': GOOD['faq.md'] + '\n## Invoices\nInvoices are in Billing.' });
    expect(await holder.check()).toBe('changing'); // still moving: wait again
    expect(await holder.check()).toBe('reloaded');
    expect(holder.get().index.sections.map((s) => s.id)).toEqual(expect.arrayContaining(['new.md#shipping', 'faq.md#invoices']));
    expect(await holder.check()).toBe('unchanged');
    expect(log.lines.at(-1)).toMatch(/^\[knowledge\] reloaded after an edit: 3 files read, 0 skipped, 0 ignored; 5 sections, \d+ tokens; \d+ ms$/);
  });

  it('keeps the last good version in service after a broken edit, says why once, and takes the fix', async () => {
    const root = kb(GOOD);
    const { holder, log } = hold(root);
    const good = holder.get();
    // The rules file was pinned in the version in service: broken, it refuses the edit even
    // though its broken text no longer says it is pinned.
    write(root, { 'rules.md': Buffer.from([0x23, 0x20, 0xff, 0x0a]) });
    await holder.check();
    expect(await holder.check()).toBe('refused');
    expect(holder.get()).toBe(good);
    expect(log.errors).toHaveLength(1);
    expect(log.errors[0]).toMatch(
      /^\[knowledge\] the edited knowledge base was NOT loaded: rules\.md:1: not valid UTF-8 \(a pinned file: .*\)\. Still serving the version loaded at \d{4}-\d\d-\d\dT.*Z \(3 sections\)\.$/,
    );
    expect(await holder.check()).toBe('unchanged'); // the same broken files: no new attempt, no new log line
    expect(log.errors).toHaveLength(1);

    write(root, { 'rules.md': GOOD['rules.md'], 'faq.md': '# FAQ\nAnswers.\n## Refunds\nA.\n## Refund timelines\nB.' });
    await holder.check();
    expect(await holder.check()).toBe('reloaded');
    expect(holder.get().index.sections.map((s) => s.id)).toContain('faq.md#refund-timelines');
  });

  it('skips a broken edit of an unpinned file and serves the rest', async () => {
    const root = kb(GOOD);
    const { holder, log } = hold(root);
    write(root, { 'faq.md': '---\ntitle: [unclosed\n---\n# FAQ\nAnswers.' });
    await holder.check();
    expect(await holder.check()).toBe('reloaded');
    expect(holder.get().kb.skipped.map((s) => s.file)).toEqual(['faq.md']);
    expect(holder.get().index.sections.map((s) => s.id)).toEqual(['rules.md#rules']);
    expect(log.errors).toEqual([expect.stringMatching(/^\[knowledge\] skipped faq\.md:2: malformed front matter/)]);
  });

  it('notices a deleted file and a missing folder', async () => {
    const root = kb({ ...GOOD, 'extra.md': '# Extra\nMore.' });
    const { holder, log } = hold(root);
    fs.rmSync(path.join(root, 'extra.md'));
    await holder.check();
    expect(await holder.check()).toBe('reloaded');
    expect(holder.get().index.sections.map((s) => s.id)).not.toContain('extra.md#extra');
    fs.rmSync(root, { recursive: true });
    await holder.check();
    expect(await holder.check()).toBe('refused');
    expect(holder.get().index.sections).toHaveLength(3);
    expect(log.errors.at(-1)).toMatch(/NOT loaded: .*no such file or folder/);
  });

  it('refuses an edit that makes a file or a folder unreadable, and health says degraded until it is fixed', async () => {
    const root = kb({ ...GOOD, 'docs/a.md': '# A\nText.' });
    const { holder, log } = hold(root);
    expect(holder.health()).toEqual({ status: 'ready' });
    const good = holder.get();
    fs.renameSync(path.join(root, 'docs'), path.join(root, 'locked'));
    await holder.check();
    expect(await holder.check()).toBe('refused');
    expect(holder.get()).toBe(good);
    expect(log.errors.at(-1)).toMatch(/NOT loaded: locked\/: cannot read folder: EACCES: it may hold pinned rules/);
    expect(holder.health()).toEqual({
      status: 'degraded',
      reasons: [expect.stringMatching(/^the edited knowledge base was refused at .*: locked\/: cannot read folder: EACCES: .*; serving the version loaded at /)],
    });

    fs.renameSync(path.join(root, 'locked'), path.join(root, 'docs'));
    write(root, { 'locked.md': '# Locked\nText.' });
    await holder.check();
    expect(await holder.check()).toBe('refused');
    expect(log.errors.at(-1)).toMatch(/NOT loaded: locked\.md: cannot read file: EACCES/);

    fs.rmSync(path.join(root, 'locked.md'));
    await holder.check();
    expect(await holder.check()).toBe('reloaded');
    expect(holder.health()).toEqual({ status: 'ready' });
  });

  it('refuses an edit that drops a declared rule, and logs a change in the number of pinned sections', async () => {
    const root = kb({ ...GOOD, 'more-rules.md': '# More rules\n<!-- pinned -->\nNever share a password.' });
    const { holder, log } = hold(root);
    write(root, { 'more-rules.md': '# More rules\nNever share a password.' });
    await holder.check();
    expect(await holder.check()).toBe('reloaded');
    expect(log.lines.at(-1)).toMatch(/; pinned sections: 2 → 1$/);

    write(root, { 'assistant.md': DECLARES_ONE });
    await holder.check();
    expect(await holder.check()).toBe('reloaded');
    write(root, { 'rules.md': GOOD['rules.md'].replace('pinned: true', 'pinned: false') });
    await holder.check();
    expect(await holder.check()).toBe('refused');
    expect(holder.get().index.pinned.map((s) => s.id)).toEqual(['rules.md#rules']);
    expect(log.errors.at(-1)).toMatch(/NOT loaded: assistant\.md:3: the declared rules are not all there: rules\.md#rules is not pinned; 1 pinned section is declared, 0 found\./);
  });

  it('checks by itself every interval', async () => {
    const root = kb(GOOD);
    const { holder } = hold(root);
    holder.watch(20);
    write(root, { 'new.md': '# Shipping\nWe ship worldwide.' });
    await vi.waitFor(() => expect(holder.get().index.sections.map((s) => s.id)).toContain('new.md#shipping'), { timeout: 2000, interval: 20 });
  });
});

describe('the parsed KB kept on disk between processes', () => {
  function holdWithCache(root: string, cacheFile: string) {
    const log = recordingLog();
    const holder = new KnowledgeHolder({ kbPath: root, log, cacheFile });
    holders.push(holder);
    return { holder, log };
  }

  it('lets the next process reuse every unchanged file, and parses only what changed', () => {
    const root = kb(GOOD);
    const cacheFile = path.join(kb({}), 'kb-cache.json');
    const first = holdWithCache(root, cacheFile);
    expect(first.log.lines[0]).toMatch(/: 2 files read, 0 skipped, 0 ignored; 3 sections, \d+ tokens; \d+ ms$/);
    expect(fs.existsSync(cacheFile)).toBe(true);

    const second = holdWithCache(root, cacheFile);
    expect(second.log.lines[0]).toMatch(/; \d+ ms, 2 of 2 files from the cache$/);
    expect(second.holder.get().index.sections).toEqual(first.holder.get().index.sections);

    write(root, { 'faq.md': '# FAQ\nAnswers.\n## Refunds\nAsk billing within 30 days.' });
    const third = holdWithCache(root, cacheFile);
    expect(third.log.lines[0]).toMatch(/, 1 of 2 files from the cache$/);
    expect(third.holder.get().index.sections.find((s) => s.id === 'faq.md#refunds')!.text).toBe('Ask billing within 30 days.');
  });

  it('ignores a corrupt cache or one of another format, and rewrites it', () => {
    const root = kb(GOOD);
    const cacheFile = path.join(kb({}), 'kb-cache.json');
    writeFileSync(cacheFile, '{"format": "kb-sections-0", "tokens": [], "documents": [["faq.md\\u0000x", {"sections": []}]]}');
    const a = holdWithCache(root, cacheFile);
    expect(a.log.lines[0]).not.toMatch(/from the cache/);
    expect(a.holder.get().index.sections).toHaveLength(3);
    writeFileSync(cacheFile, '{not json');
    const b = holdWithCache(root, cacheFile);
    expect(b.holder.get().index.sections).toHaveLength(3);
    expect(JSON.parse(fs.readFileSync(cacheFile, 'utf8')).format).toBe(KB_CACHE_FORMAT);
  });
});

describe('kbCacheFile', () => {
  it('gives each KB folder its own cache file in the cache folder, and none when the cache is off', () => {
    const paths = (kbPath: string, cwd: string, cache = 'data/kb-cache') => resolvePaths({ KB_PATH: kbPath, KB_CACHE_PATH: cache, TRACE_DB_PATH: 'traces.db' }, cwd);
    const a = paths('content', '/srv/app').kbCache;
    expect(a).toMatch(/^\/srv\/app\/data\/kb-cache\/[0-9a-f]{16}\.json$/);
    expect(kbCacheFile('data/kb-cache', '/srv/app/content')).toBe(path.relative('/srv/app', a!));
    expect(paths('/srv/app/content', '/srv/app').kbCache).toBe(a);
    expect(paths('other-kb', '/srv/app').kbCache).not.toBe(a);
    expect(kbCacheFile('', '/srv/app/content')).toBeUndefined();
  });
});
