import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_API_DOCS, REAL_DOCS_FOLDERS } from '../../testing/real-docs';
import { selectContext } from '../explain/explain';
import { loadKnowledgeBase } from './load';
import { parseDocument } from './parse-document';
import { createRetrievalIndex } from '../select/build-index';

/**
 * Real documentation folders (lib/testing/real-docs.ts): each must load, every unpinned
 * section or part must fit the room left after the pinned block, and a question a known
 * section answers must send it.
 */

describe('real documentation folders', () => {
  for (const folder of REAL_DOCS_FOLDERS) {
    it.skipIf(folder.missing)(`${folder.name}: loads, everything fits, and a known answer is sent`, () => {
      const kb = loadKnowledgeBase(folder.path());
      expect(kb.skipped).toEqual([]);
      expect(kb.sections.length).toBeGreaterThan(20);
      const index = createRetrievalIndex(kb);
      const room = index.config.budget - index.pinnedTokens;
      expect(index.pool.filter((s) => s.tokens > room)).toEqual([]);
      const e = selectContext(index, [folder.question]);
      expect(e.sections.find((v) => v.id === folder.answer || v.part?.sectionId === folder.answer)).toMatchObject({ sent: true, reason: 'scored' });
    });
  }
});

describe("Node.js's API pages: HTML as Debian ships it against their markdown sources", () => {
  const pages = ['events', 'timers', 'readline'];
  it.skipIf(!existsSync(NODE_API_DOCS))(`${pages.join(', ')}: the same sections, by heading path`, () => {
    // The HTML's headings start at <h2> under a dropped header and carry "#" and "[src]" links;
    // the markdown's inline code marks are not in the HTML's titles.
    const paths = (file: string) =>
      parseDocument(file, readFileSync(path.join(NODE_API_DOCS, file), 'utf8')).sections.map((s) => [...s.parents, s.title].join(' › ').replaceAll('`', ''));
    for (const page of pages) {
      const fromMarkdown = paths(`${page}.md`);
      expect(fromMarkdown.length, page).toBeGreaterThan(20);
      expect(paths(`${page}.html`), page).toEqual(fromMarkdown);
    }
  });
});
