import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { DEMO_KB, REAL_DOCS_FOLDERS } from '../../testing/real-docs';
import { loadKnowledgeBase } from '../kb/load';
import { blockTree, splitSection } from './split';
import { countTokens } from '../tokens';

/**
 * A split reads only a section's blocks (split.ts `blockTree`: micromark without its inline
 * constructs). On every section of the real documentation folders of the tests, those blocks are
 * the full CommonMark + GFM parse's: the same kinds at the same offsets, the same list items, the
 * same code blocks' info and lines. So the parts are the ones the full parse would give.
 */

const fullTree = (text: string) => fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

/** What a split reads of a tree. */
function blocksOf(tree: Root): string[] {
  return tree.children.map((node) => {
    const at = `${node.type} ${node.position!.start.offset}–${node.position!.end.offset}`;
    if (node.type === 'list') return `${at} items ${node.children.map((item) => `${item.position!.start.offset}–${item.position!.end.offset}`).join(',')}`;
    if (node.type === 'code') return `${at} ${JSON.stringify([node.lang, node.value])}`;
    return at;
  });
}

const folders = [...REAL_DOCS_FOLDERS.filter((f) => !f.missing).map((f) => ({ name: f.name, path: f.path })), { name: 'the demo KB', path: () => DEMO_KB }];

describe('the blocks a split reads', () => {
  for (const folder of folders) {
    it(`are the full parse's, on every section of ${folder.name}`, () => {
      const { sections } = loadKnowledgeBase(folder.path());
      const differ = sections.filter((s) => JSON.stringify(blocksOf(blockTree(s.text))) !== JSON.stringify(blocksOf(fullTree(s.text)))).map((s) => s.id);
      expect(differ).toEqual([]);
      expect(sections.length).toBeGreaterThan(20);
    });
  }

  it('inline syntax never changes the blocks: a link, inline HTML or emphasis across lines is cut by the block that starts on the next line, in both', () => {
    const text = [
      'A paragraph with `code | pipes`, a [link\n# not a heading](x) and <span>inline\n> html</span> *emphasis\n- not an item*.',
      '',
      '| a | b |\n|---|---|\n| `x|y` | [z](w) |',
      '',
      '```c\\+\\+\nint main();\n```',
      '',
      '- an item with **bold**\n- another with ~~strike~~ and https://example.com',
    ].join('\n');
    expect(blocksOf(blockTree(text))).toEqual(blocksOf(fullTree(text)));
    expect(blockTree(text).children.map((n) => n.type)).toEqual(['paragraph', 'heading', 'blockquote', 'list', 'table', 'code', 'list']);
  });

  it('parts of a long section: each fits, and together they hold all its words', () => {
    const { sections } = loadKnowledgeBase(DEMO_KB);
    const long = [...sections].sort((a, b) => b.tokens - a.tokens)[0]!;
    const parts = splitSection(long, Math.floor(long.tokens / 3), countTokens);
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.every((p) => p.tokens <= Math.floor(long.tokens / 3))).toBe(true);
    const words = (t: string) => t.match(/\p{L}+/gu)?.join(' ');
    expect(words(parts.map((p) => p.text).join('\n'))).toBe(words(long.text));
  });
});
