import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectContext } from '../explain/explain';
import { loadKnowledgeBase } from './load';
import { createRetrievalIndex } from '../select/build-index';

/**
 * Real documentation folders nobody on the team wrote, as shipped on this machine: docs
 * inside installed npm packages (in package-lock, so on every clean clone) and Node.js's
 * HTML API docs from Debian's nodejs package. Each must load, every unpinned section or
 * part must fit the room left after the pinned block, and a question a known section
 * answers must send it. The questions were written from the docs' tables of contents,
 * in a customer's words.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const NODE_API_HTML = '/usr/share/doc/nodejs/api';

function nodeHtmlSubset(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'node-api-html-'));
  for (const page of ['events.html', 'timers.html', 'readline.html']) copyFileSync(path.join(NODE_API_HTML, page), path.join(dir, page));
  return dir;
}

const folders: { name: string; path: () => string; question: string; answer: string; skip?: boolean }[] = [
  {
    name: 'Next.js getting-started guide (markdown, node_modules/next/dist/docs)',
    path: () => path.join(ROOT, 'node_modules/next/dist/docs/01-app/01-getting-started'),
    question: 'how do I add a google font to my app',
    answer: '13-fonts.md#google-fonts',
  },
  {
    name: 'AI SDK core docs (MDX, node_modules/ai/docs)',
    path: () => path.join(ROOT, 'node_modules/ai/docs/03-ai-sdk-core'),
    question: 'how can I test my code without calling a real model',
    answer: '55-testing.mdx#testing',
  },
  {
    name: 'undici docs (markdown in nested folders, node_modules/undici/docs)',
    path: () => path.join(ROOT, 'node_modules/undici/docs'),
    question: 'how do I mock requests in my tests',
    answer: 'docs/best-practices/mocking-request.md#mocking-request',
  },
  {
    name: 'Node.js API docs (HTML pages from Debian, three of them)',
    path: nodeHtmlSubset,
    question: 'how do I listen for an event only once',
    answer: 'events.html#handling-events-only-once',
    skip: !existsSync(NODE_API_HTML),
  },
];

describe('real documentation folders', () => {
  for (const folder of folders) {
    it.skipIf(folder.skip)(`${folder.name}: loads, everything fits, and a known answer is sent`, () => {
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
