import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEMO_KB, REAL_DOCS_FOLDERS } from '../../testing/real-docs';
import { documentFormat } from './formats';
import { scannedMarkdownTree } from './markdown-scan';
import { parseDocument } from './parse-document';

/**
 * The line scanner must read every markdown file it accepts exactly as micromark does:
 * the same sections (titles, parents, lines, text), notices, front matter. Checked on the
 * markdown files of every real documentation folder of the tests and the demo KB, and on
 * generated documents made of the lines block structure hinges on.
 * (`npm run bench:load -- --check-scanner` checks all of Next.js's docs, the Node.js API
 * sources and the 10,000-section corpus the same way: too slow for every run.)
 */

function bothWays(file: string, source: string) {
  const read = (scanMarkdown: boolean) => {
    try {
      return parseDocument(file, source, 'markdown', { scanMarkdown });
    } catch (error) {
      return String(error);
    }
  };
  return { scanned: read(true), micromark: read(false) };
}

function markdownFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => documentFormat(f) === 'markdown')
    .sort();
}

const folders = [...REAL_DOCS_FOLDERS.filter((f) => !f.missing).map((f) => ({ name: f.name, path: f.path })), { name: 'the demo KB', path: () => DEMO_KB }];

describe('the markdown line scanner', () => {
  for (const folder of folders) {
    const root = folder.path();
    const files = markdownFiles(root);
    it.skipIf(files.length === 0)(`reads every file of ${folder.name} as micromark does, and takes most of them`, () => {
      let scanned = 0;
      for (const file of files) {
        const source = readFileSync(path.join(root, file), 'utf8');
        if (scannedMarkdownTree(source)) scanned++;
        const { scanned: fast, micromark } = bothWays(file, source);
        expect(fast, file).toEqual(micromark);
      }
      expect(scanned / files.length).toBeGreaterThanOrEqual(0.6);
    });
  }

  const LINES = [
    '# Title', '## Title ##', '### T #', '#### Deep', '  ## Indented', '   # three', '#NoSpace', '####### seven', '## ', '#', '# <a id="x"></a>',
    '## `code` *em*', '## foo \\#', '## foo#', '# a # b', '##\tTab', '## trailing \\',
    'text', 'more text', '  indented text', '    code line', '\tTab code', ' lead', 'trailing  ', '&#35; entity', '\\# escaped',
    '---', '===', '--', '-', '***', '- - -', '___', '= =', '  ---', '    ---', '---  ',
    '```', '```js', '~~~', '````', '  ```', '   ~~~', '``` foo`bar', '~~~ a`b', '    ```', ' ```', '  ~~~~', '  ```js',
    '<div>', '</div>', '<div class="x">', '<span>', '<my-el a="1">', '<a x=b=c>', '<QuerySet [<x>]>', '<!-- c', '-->', '--->', '<!-- one -->',
    '<?php', '?>', '<!DOCTYPE html>', '<![CDATA[', ']]>', '<script>', '</script>', '<pre>', '<pre/>', '<textarea x>', '  <div>', '<div/>',
    '<a href="x>y">', '<b>bold</b> text', '</span>', '  <!-- c', '  -->',
    '- item', '* item', '+ item', '1. item', '2) item', '  - nested', '> quote', '> # quoted heading', '>', '- # heading in list', '1. ## h',
    '-   wide', '- ```', '> ```', '  # two', '*', '1.', '10. x', '  > q', '   - deep', '   text',
    '| a | b |', '|---|---|', 'a | b', '--|--', '| x |',
    '[ref]: /url', '[ref]: /url "title', '"continued title"', '[^1]: note', '[link](x)', '[^note]: x',
    '', '', '', '   ', '\t',
  ];
  const documents = fc
    .tuple(fc.boolean(), fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 20 }), fc.boolean())
    .map(([frontMatter, lines, newline]) => (frontMatter ? ['---', 'title: X', '---', ...lines] : lines).join('\n') + (newline ? '\n' : ''));

  it('reads generated documents made of the lines block structure hinges on as micromark does, or leaves them to it', () => {
    let scanned = 0;
    fc.assert(
      fc.property(documents, (source) => {
        if (!scannedMarkdownTree(source)) return;
        scanned++;
        const { scanned: fast, micromark } = bothWays('x.md', source);
        expect(fast).toEqual(micromark);
      }),
      { numRuns: 1000 },
    );
    expect(scanned).toBeGreaterThan(300);
  });

  it('leaves to micromark what only it can tell', () => {
    for (const source of [
      '- item\n\n  ## Inside the item?',
      '> quote\nlazy\n---',
      '<div>\n# inside the HTML block?\n</div>',
      '# A\n<!-- pinned -->\nRule.',
      '# A\r\nB',
      '\uFEFF# A\nB',
      '- item\n  ```\n# closes the item\n  ```',
    ]) {
      expect(scannedMarkdownTree(source), JSON.stringify(source)).toBeUndefined();
    }
  });

  it('reads setext headings, front matter, fences and comments', () => {
    const source = '---\ntitle: Page\n---\nIntro.\n\nSetext\nheading\n===\nBody.\n```\n# not a heading\n```\n<!--\n# nor this\n-->\n## Closed ##\nEnd.';
    expect(scannedMarkdownTree(source)).toBeDefined();
    const { scanned } = bothWays('p.md', source);
    expect(scanned).toMatchObject({
      sections: [
        { title: 'Page', line: 4, text: 'Intro.' },
        { title: 'Setext heading', parents: [], line: 6, text: 'Body.\n```\n# not a heading\n```\n<!--\n# nor this\n-->' },
        { title: 'Closed', parents: ['Setext heading'], line: 16, text: 'End.' },
      ],
    });
  });
});
