import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFolder } from '../../testing/folders';
import { DEMO_KB, REAL_DOCS_FOLDERS } from '../../testing/real-docs';
import { type BuiltDocument } from './build-document';
import { loadKnowledgeBase, loadKnowledgeBaseAsync } from './load';
import { HAND_OVER_MIN_BYTES, type ParsePool as Pool, ParsePool } from './parse-pool';
import type { PackedSectionTerms } from './section-terms';
import { createRetrievalIndex } from '../select/build-index';
import { PartsCache } from '../select/parts-cache';
import { splitOnPool } from '../select/split-on-pool';
import { TokenCounter } from '../tokens';
import type { KnowledgeBase } from '../types';

/**
 * The async load parses on worker threads (parse-pool.ts) and must give exactly what the sync
 * load gives on this thread: the same sections (ids, titles, parents, lines, text, token
 * counts), parts, notices and skipped files, and the same refusals, in the same words.
 */

// One pool for the whole file: a worker started from the TypeScript sources takes seconds to load tsx and the parsers.
const pool = new ParsePool(2);
afterAll(() => pool.close());

const kbFolder = (files: Record<string, string | Buffer>) => writeFolder(files, 'kb-async-');

/** What must not depend on where the files were parsed. */
function served(kb: KnowledgeBase) {
  const { parsing: _parsing, cachedFiles: _cachedFiles, ...rest } = kb;
  return rest;
}

const GOOD = {
  'rules.md': '---\npinned: true\n---\n# Rules\nNever promise a refund.',
  'faq.md': '# FAQ\nAnswers.\n## Refunds\nAsk billing within 14 days.',
  'guide.mdx': '# Guide\n\n<Note>Read **this** first.</Note>\n\n## Steps\nOne, two.',
  'page.html': '<html lang="en"><title>Help page</title><body><h2>Shipping</h2><p>We ship <b>worldwide</b>.</p></body></html>',
};

describe('the async load on parse workers', { timeout: 60_000 }, () => {
  const folders = [
    ...REAL_DOCS_FOLDERS.filter((f) => !f.missing).map((f) => ({ name: f.name, path: f.path() })),
    { name: 'the demo KB', path: DEMO_KB },
  ];
  for (const folder of folders) {
    it(`gives the same sections, parts, token counts and index as the sync load: ${folder.name}`, async () => {
      const sync = loadKnowledgeBase(folder.path);
      const sectionTerms = new Map<string, PackedSectionTerms>();
      const parts = new PartsCache();
      const onParsed = (kb: KnowledgeBase, on: Pool) => splitOnPool(kb, on, {}, parts, sectionTerms);
      const pooled = await loadKnowledgeBaseAsync(folder.path, { pool, sectionTerms, onParsed });
      expect(pooled.parsing).toMatchObject({ workers: 2, parsedFiles: sync.files.length });
      expect(pooled.parsing.fallback).toBeUndefined();
      expect(pooled.parsing.figures.reduce((n, w) => n + w.files, 0)).toBe(sync.files.length + sync.skipped.length);
      expect(served(pooled)).toEqual(served(sync));
      const here = createRetrievalIndex(sync);
      const splitHere = here.sections.filter((s) => s.part);
      expect(sectionTerms.size).toBe(sync.identity.language === 'en' ? sync.sections.length + splitHere.length : 0);
      const mainThread = new TokenCounter(); // counts anything the index build would still split here
      const fromWorkers = createRetrievalIndex(pooled, {}, { terms: sectionTerms, parts, count: mainThread.count });
      expect(mainThread.tokenized).toBe(0);
      expect(fromWorkers.sections).toEqual(here.sections);
      expect(fromWorkers.bm25).toEqual(here.bm25);
    });
  }

  it('skips a broken unpinned file and refuses a broken pinned one, in the words of the sync load', async () => {
    const skipping = kbFolder({ ...GOOD, 'bad.md': Buffer.concat([Buffer.from('# A\nfine\n'), Buffer.from([0xff]), Buffer.from('\n')]) });
    const pooled = await loadKnowledgeBaseAsync(skipping, { pool });
    expect(pooled.skipped).toEqual(loadKnowledgeBase(skipping).skipped);
    expect(pooled.skipped.map((s) => s.message)).toEqual(['bad.md:3: not valid UTF-8']);

    const refusing = kbFolder({ ...GOOD, 'z.md': '# Z\nText.\n\n<!-- pinned -->' });
    const expected = (() => {
      try {
        loadKnowledgeBase(refusing);
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(expected).toMatch(/^z\.md:\d+: .*\(a pinned file: the knowledge base is not served without it\)$/);
    await expect(loadKnowledgeBaseAsync(refusing, { pool })).rejects.toThrow(expected);
  });

  it('takes a long document in pieces (200 sections a message) and gives the same KB and terms as the sync load', async () => {
    const long = (title: string) => Array.from({ length: 450 }, (_, i) => `## ${title} ${i}\n\nSection ${i} of ${title}: the ${i}th refund answer.\n`).join('\n');
    const folder = kbFolder({ 'long.md': `# Long\n\n${long('Topic')}`, 'lang.md': `---\nlang: de\n---\n# Lang\n\n${long('Thema')}`, 'short.md': '# Short\n\nOne section.' });
    const sync = loadKnowledgeBase(folder);
    const sectionTerms = new Map<string, PackedSectionTerms>();
    const pooled = await loadKnowledgeBaseAsync(folder, { pool, sectionTerms });
    expect(sync.sections.filter((s) => s.source === 'long.md')).toHaveLength(450);
    expect(served(pooled)).toEqual(served(sync));
    // The English file's terms came back with its pieces, in section order: the index is the same.
    expect(sectionTerms.size).toBe(450 + 1);
    expect(createRetrievalIndex(pooled, {}, { terms: sectionTerms }).bm25).toEqual(createRetrievalIndex(sync).bm25);
  });

  it('parses a large file on this thread, read again, when its worker dies holding the bytes it was handed', async () => {
    // A worker that dies on its first file: the pool hands a file of HAND_OVER_MIN_BYTES or more
    // over without a copy, so the load's own bytes of it are gone when the worker is lost.
    const script = path.join(mkdtempSync(path.join(tmpdir(), 'dying-worker-')), 'worker.mjs');
    writeFileSync(script, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n");
    const large = `# Large\n\n${Array.from({ length: 2000 }, (_, i) => `## Topic ${i}\n\n${'Refunds take fourteen days to arrive. '.repeat(15)}\n`).join('\n')}`;
    expect(Buffer.byteLength(large)).toBeGreaterThan(HAND_OVER_MIN_BYTES);
    const folder = kbFolder({ ...GOOD, 'large.md': large });
    const dying = new ParsePool(1, pathToFileURL(script));
    try {
      const pooled = await loadKnowledgeBaseAsync(folder, { pool: dying });
      expect(pooled.parsing.fallback).toMatch(/parsed on the main thread: a parse worker exited \(code 3\)/);
      expect(served(pooled)).toEqual(served(loadKnowledgeBase(folder)));
      expect(pooled.sections.filter((s) => s.source === 'large.md')).toHaveLength(2000);
    } finally {
      await dying.close();
    }
  });

  it('reports progress file by file', async () => {
    const seen: number[] = [];
    await loadKnowledgeBaseAsync(kbFolder(GOOD), { pool, onProgress: (p) => seen.push(p.done / p.total) });
    expect(seen).toHaveLength(5);
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(1);
  });
});

describe('the unchanged-file path', { timeout: 60_000 }, () => {
  it('parses and tokenizes nothing again: every file from the parse cache, every count from the token cache', async () => {
    const root = kbFolder(GOOD);
    writeFileSync(path.join(root, 'long.md'), `# Long\n${'A sentence that goes on and on about refunds. '.repeat(2000)}`);
    const tokens = new TokenCounter();
    const documents = new Map<string, BuiltDocument>();
    const parts = new PartsCache();
    const first = await loadKnowledgeBaseAsync(root, { tokens, documents, pool, onParsed: (kb, on) => splitOnPool(kb, on, {}, parts) });
    createRetrievalIndex(first, {}, { count: tokens.count, parts }); // the long section was split on a worker
    expect(parts.toJSON()).toHaveLength(1);
    const tokenized = tokens.tokenized;

    const again = await loadKnowledgeBaseAsync(root, { tokens, documents });
    const index = createRetrievalIndex(again, {}, { count: tokens.count, parts });
    expect(again.cachedFiles).toBe(5);
    expect(again.parsing).toEqual({ parsedFiles: 0, workers: 0, figures: [] });
    expect(tokens.tokenized).toBe(tokenized);
    expect(index.sections.filter((s) => s.part).length).toBeGreaterThan(1);
    expect(served(again)).toEqual(served(first));

    writeFileSync(path.join(root, 'faq.md'), `${GOOD['faq.md']}\n## Invoices\nIn Billing.`);
    const edited = loadKnowledgeBase(root, { tokens, documents });
    expect(edited.parsing.parsedFiles).toBe(1);
    expect(edited.cachedFiles).toBe(4);
  });
});
