import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KnowledgeBaseError, RetrievalConfigError } from '../retrieval/index';
import { loadKnowledge } from './load';
import { resolvePaths } from '../server/paths';

function kb(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'knowledge-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe('loadKnowledge', () => {
  it('loads and indexes a KB (KB_PATH resolved against the working directory: lib/server/paths.ts), with the budget settings', () => {
    const root = kb({ 'faq.md': '# FAQ\nAnswers.\n## Refunds\nAsk billing.' });
    const { kb: kbPath } = resolvePaths({ KB_PATH: path.basename(root), KB_CACHE_PATH: '', TRACE_DB_PATH: 'traces.db' }, path.dirname(root));
    const knowledge = loadKnowledge(kbPath, { budget: 500, floor: 0 });
    expect(knowledge.path).toBe(root);
    expect(knowledge.files).toEqual(['faq.md']);
    expect(knowledge.index.sections).toHaveLength(2);
    expect(knowledge.index.config).toMatchObject({ budget: 500, floor: 0 });
  });

  it('skips a broken unpinned file, and refuses a broken pinned one, naming file and line', () => {
    const root = kb({ 'a.md': '# Good\nFine.', 'b.md': '---\ntitle: [x\n---\n# B\nText.' });
    const knowledge = loadKnowledge(root);
    expect(knowledge.kb.skipped.map((s) => s.message)).toEqual([expect.stringMatching(/^b\.md:2: malformed front matter/)]);
    expect(knowledge.summary).toMatch(/^1 files read, 1 skipped, 0 ignored; 1 sections, \d+ tokens; \d+ ms$/);
    const pinned = kb({ 'a.md': '# Good\nFine.', 'b.md': '---\npinned: true\ntitle: [x\n---\n# B\nText.' });
    expect(() => loadKnowledge(pinned)).toThrow(KnowledgeBaseError);
    expect(() => loadKnowledge(pinned)).toThrow(/^b\.md:3: malformed front matter.*\(a pinned file/);
    expect(() => loadKnowledge(path.join(root, 'missing'))).toThrow(/no such file or folder/);
  });

  it('refuses a budget the pinned sections do not fit in', () => {
    const root = kb({ 'rules.md': `---\npinned: true\n---\n# Rules\n${'Never promise a refund. '.repeat(10)}` });
    expect(() => loadKnowledge(root, { budget: 5 })).toThrow(RetrievalConfigError);
  });
});
