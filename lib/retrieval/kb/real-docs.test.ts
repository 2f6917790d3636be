import { describe, expect, it } from 'vitest';
import { REAL_DOCS_FOLDERS } from '../../testing/real-docs';
import { selectContext } from '../explain/explain';
import { loadKnowledgeBase } from './load';
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
