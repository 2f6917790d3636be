import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFolder } from '../testing/folders';
import { recordingLog } from '../testing/knowledge-log';
import { KnowledgeHolder, KnowledgeUnavailableError } from './holder';

/**
 * The server's holder loads its first KB in the background (`loadInBackground`): the
 * constructor returns at once, /api/health says `loading` with the files done, a chat waits
 * for the load (`whenReady`, bounded), and what the load refuses is refused as before.
 */

const GOOD = {
  'rules.md': '---\npinned: true\n---\n# Rules\nNever promise a refund.',
  'faq.md': '# FAQ\nAnswers.\n## Refunds\nAsk billing within 14 days.',
};

const holders: KnowledgeHolder[] = [];
function hold(files: Record<string, string>) {
  const log = recordingLog();
  const holder = new KnowledgeHolder({ kbPath: writeFolder(files, 'kb-background-'), log, loadInBackground: true });
  holders.push(holder);
  return { holder, log };
}
afterEach(() => {
  for (const h of holders.splice(0)) h.stop();
});

describe('a first load in the background', () => {
  it('is "loading" until it ends, then serves; a chat waits for it', async () => {
    const { holder, log } = hold(GOOD);
    expect(holder.health()).toEqual({ status: 'loading', progress: { done: 0, total: 2 } });
    expect(holder.ready).toBe(false);
    expect(() => holder.get()).toThrow(/the knowledge base is loading \(0 of 2 files\)/);
    expect(log.lines).toEqual([]);

    const knowledge = await holder.whenReady();
    expect(knowledge.index.sections.map((s) => s.id)).toEqual(['faq.md#faq', 'faq.md#refunds', 'rules.md#rules']);
    expect(holder.get()).toBe(knowledge);
    expect(holder.health()).toEqual({ status: 'ready' });
    expect(log.lines).toEqual([expect.stringMatching(/^\[knowledge\] loaded .*: 2 files read, 0 skipped, 0 ignored; 3 sections, \d+ tokens; \d+ ms$/)]);
  });

  it('counts the files done while it runs', async () => {
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`page-${i}.md`, `# Page ${i}\n${'Some text about page. '.repeat(200)}`]));
    const { holder } = hold(files);
    const seen = new Set<string>();
    while (!holder.ready) {
      const health = holder.health();
      if (health.status === 'loading') seen.add(`${health.progress.done}/${health.progress.total}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(seen.has('40/40') || seen.size > 1).toBe(true);
    expect([...seen].every((p) => /^\d+\/40$/.test(p))).toBe(true);
  });

  it('refuses what the sync load refuses, with the same log lines, and a waiting chat gets the reason', async () => {
    const { holder, log } = hold({ ...GOOD, 'rules.md': '---\npinned: [true\n---\n# Rules\nNever promise a refund.' });
    await expect(holder.whenReady()).rejects.toThrow(KnowledgeUnavailableError);
    await expect(holder.whenReady()).rejects.toThrow(/^rules\.md:\d+: malformed front matter.*\(a pinned file: the knowledge base is not served without it\)$/);
    expect(holder.health()).toMatchObject({ status: 'unavailable' });
    expect(log.errors).toEqual([
      expect.stringMatching(/^\[knowledge\] THE KNOWLEDGE BASE COULD NOT BE LOADED: rules\.md:\d+: malformed front matter/),
      '[knowledge] the chat answers 503 until this is fixed; the files are checked again when they change',
    ]);
  });

  it('lets a chat wait only so long', async () => {
    const { holder } = hold(GOOD);
    await expect(holder.whenReady(0)).rejects.toThrow(/the knowledge base is loading/);
    await holder.loaded;
    expect(holder.ready).toBe(true);
  });

  it('checks for edits only once it has ended', async () => {
    const root = writeFolder(GOOD, 'kb-background-');
    const holder = new KnowledgeHolder({ kbPath: root, log: recordingLog(), loadInBackground: true });
    holders.push(holder);
    expect(await holder.check()).toBe('unchanged'); // after the first load
    expect(holder.ready).toBe(true);
    writeFileSync(path.join(root, 'new.md'), '# Shipping\nWe ship worldwide.');
    expect(await holder.check()).toBe('changing');
    expect(await holder.check()).toBe('reloaded');
    expect(holder.get().index.sections.map((s) => s.id)).toContain('new.md#shipping');
  });
});
