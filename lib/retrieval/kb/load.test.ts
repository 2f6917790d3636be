import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFolder } from '../../testing/folders';
import { renderSectionBlock } from '../context-text';
import { listKnowledgeFiles } from './list-files';
import { loadKnowledgeBase } from './load';
import { countTokens } from '../tokens';

const kbFolder = (files: Record<string, string | Buffer>) => writeFolder(files, 'kb-');

describe('loadKnowledgeBase', () => {
  it('reads every markdown file below the root in path order, with ids, order and real token counts', () => {
    const root = kbFolder({
      'b.md': '# Beta\nSecond file.',
      'a/x.md': '# Alpha\nFirst file.\n## Sub\nMore.',
      'notes.txt': 'ignored',
      '.hidden/y.md': '# Hidden\nignored',
    });
    const kb = loadKnowledgeBase(root);
    expect(kb.files).toEqual(['a/x.md', 'b.md']);
    expect(kb.sections.map((s) => [s.id, s.source, s.order])).toEqual([
      ['a/x.md#alpha', 'a/x.md', 0],
      ['a/x.md#sub', 'a/x.md', 1],
      ['b.md#beta', 'b.md', 2],
    ]);
    for (const s of kb.sections) expect(s.tokens).toBe(countTokens(renderSectionBlock(s)));
  });

  it('lists tests/ as the tests of the KB, never as content: its YAML files are tests, anything else in it is ignored', () => {
    const root = kbFolder({
      'faq.md': '# FAQ\nAnswers.',
      'tests/refunds.yaml': 'cases: []',
      'tests/billing/prices.yml': 'cases: []',
      'tests/README.md': '# How to write a test\nNot a help page.',
      'guides/tests/setup.md': '# Test setup\nA help page in a folder that happens to be called tests.',
    });
    const listing = listKnowledgeFiles(root);
    expect(listing.tests).toEqual(['tests/billing/prices.yml', 'tests/refunds.yaml']);
    expect(listing.documents).toEqual(['faq.md', 'guides/tests/setup.md']);
    const kb = loadKnowledgeBase(root);
    expect(kb.sections.map((s) => s.id)).toEqual(['faq.md#faq', 'guides/tests/setup.md#test-setup']);
    expect(kb.ignored.other).toBe(1);
    expect(listKnowledgeFiles(path.join(root, 'faq.md')).tests).toEqual(['tests/billing/prices.yml', 'tests/refunds.yaml']);
  });

  it('puts files with a front matter order first in file order', () => {
    const root = kbFolder({ 'a.md': '# A\nx', 'z/welcome.md': '---\norder: 1\n---\n# Welcome\ny', 'b.md': '---\norder: 2\n---\n# B\nz' });
    expect(loadKnowledgeBase(root).sections.map((s) => [s.id, s.order])).toEqual([
      ['z/welcome.md#welcome', 0],
      ['b.md#b', 1],
      ['a.md#a', 2],
    ]);
  });

  it('loads a single markdown file', () => {
    const root = kbFolder({ 'faq.md': '# FAQ\nAnswers.', 'other.md': '# Other\nNot read.' });
    const kb = loadKnowledgeBase(path.join(root, 'faq.md'));
    expect(kb.sections.map((s) => s.id)).toEqual(['faq.md#faq']);
  });

  it('gives two sections with the same heading path an ordinal, and a notice naming both lines', () => {
    const kb = loadKnowledgeBase(kbFolder({ 'faq.md': '# FAQ\nA.\n## Refunds\nB.\n## Refunds\nC.' }));
    expect(kb.sections.map((s) => s.id)).toEqual(['faq.md#faq', 'faq.md#faq/refunds', 'faq.md#faq/refunds-2']);
    expect(kb.notices).toEqual([
      { kind: 'duplicate-heading', file: 'faq.md', line: 5, message: expect.stringMatching(/"FAQ › Refunds" repeats line 3: this one is #faq\/refunds-2/) },
    ]);
  });

  it('names a file that is not valid UTF-8, with the line', () => {
    const root = kbFolder({ 'bad.md': Buffer.concat([Buffer.from('# A\nfine\n'), Buffer.from([0xff, 0xfe]), Buffer.from('\n')]) });
    expect(() => loadKnowledgeBase(root)).toThrow('bad.md:3: not valid UTF-8');
  });

  it('names a missing path and an empty folder', () => {
    expect(() => loadKnowledgeBase('/no/such/kb')).toThrow('/no/such/kb: no such file or folder');
    expect(() => loadKnowledgeBase(kbFolder({ 'a.txt': 'x' }))).toThrow(/no documents \(\.md, \.markdown, \.mdx, \.html, \.htm\) in this folder/);
  });

  it('reads synonyms.json at the root and rejects a wrong shape, naming the file', () => {
    const ok = loadKnowledgeBase(kbFolder({ 'a.md': '# A\nB', 'synonyms.json': '{"groups": [["price", "cost", "money back"]]}' }));
    expect(ok.synonyms[0]!.terms).toEqual([['price'], ['cost'], ['monei', 'back']]);
    expect(() =>
      loadKnowledgeBase(kbFolder({ 'a.md': '# A\nB', 'synonyms.json': '{"groups": {"price": "cost"}}' })),
    ).toThrow(/^synonyms\.json: wrong shape at \.groups/);
    expect(() => loadKnowledgeBase(kbFolder({ 'a.md': '# A\nB', 'synonyms.json': '{\n"groups": [\n["a" "b"]]}' }))).toThrow(
      /^synonyms\.json:3: invalid JSON/,
    );
    expect(() =>
      loadKnowledgeBase(kbFolder({ 'a.md': '# A\nB', 'synonyms.json': '{"groups": [["help", "support"]]}' })),
    ).toThrow(/groups\[0\]\[0\] "help" is only stop words/);
  });
});
