import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusAsMarkdownFolder, corpusFile } from '@/bench/corpus';
import { DEMO_KB, REAL_DOCS_FOLDERS } from '../../testing/real-docs';
import { documentFormat } from './formats';
import { loadKnowledgeBase } from './load';
import { scannedMarkdownTree } from './markdown-scan';
import { createRetrievalIndex } from '../select/build-index';
import { TokenCounter } from '../tokens';
import type { KnowledgeBase } from '../types';

/**
 * The fast path for plain markdown (the line scanner, markdown-scan.ts) against the mdast path
 * (micromark for every file), loaded whole, folder by folder: the same sections (ids, titles,
 * parents, lines, text, token counts), notices and skipped files, and the same parts once the
 * index splits the long sections. On every real documentation folder of the tests with markdown
 * files (MDX and HTML never take the scanner), the demo KB and the 136-section corpus as 7
 * markdown files. Both loads share one token cache, as a server's loads do: a count is a function
 * of the text it counts, so equal texts are all the counts need. (`npm run bench:load -- --check-scanner`
 * compares the parse of every .md file of Next.js's whole docs, the Node.js API folder and the
 * 10,000-section corpus: too slow for every run.)
 */

/** What the markdown path may not change (the parse report says where files were parsed). */
function served(kb: KnowledgeBase) {
  const { parsing: _parsing, ...rest } = kb;
  return rest;
}

/** How many markdown files of the folder the scanner reads (the rest go to micromark either way). */
function scannedFiles(root: string): number {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => documentFormat(f) === 'markdown')
    .filter((f) => scannedMarkdownTree(readFileSync(path.join(root, f), 'utf8')) !== undefined).length;
}

const CORPUS_SIZE = 136;

describe('plain markdown by the line scanner, loaded whole, equals the mdast path', { timeout: 60_000 }, () => {
  const folders: { name: string; path: () => string | Promise<string>; missing?: boolean }[] = [
    ...REAL_DOCS_FOLDERS.filter((f) => !f.missing && !/MDX|HTML/.test(f.name)).map((f) => ({ name: f.name, path: f.path })),
    { name: 'the demo KB', path: () => DEMO_KB },
    { name: `the ${CORPUS_SIZE}-section corpus as markdown files`, path: () => corpusAsMarkdownFolder(CORPUS_SIZE), missing: !existsSync(corpusFile(CORPUS_SIZE)) },
  ];
  for (const folder of folders) {
    it.skipIf(folder.missing)(`the same sections, token counts and parts: ${folder.name}`, async () => {
      const root = await folder.path();
      const tokens = new TokenCounter();
      const fast = loadKnowledgeBase(root, { tokens });
      const mdast = loadKnowledgeBase(root, { tokens, scanMarkdown: false });
      expect(served(fast)).toEqual(served(mdast));
      expect(fast.sections.length).toBeGreaterThan(0);
      const fastIndex = createRetrievalIndex(fast, {}, { count: tokens.count });
      const mdastIndex = createRetrievalIndex(mdast, {}, { count: tokens.count });
      expect(fastIndex.sections).toEqual(mdastIndex.sections);
      // The comparison means something only where the scanner read files.
      expect(scannedFiles(root)).toBeGreaterThan(0);
    });
  }
});
