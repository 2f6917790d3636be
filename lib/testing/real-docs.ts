import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Real documentation folders nobody on the team wrote, as shipped on this machine: docs
 * inside installed npm packages (in package-lock, so on every clean clone) and Node.js's
 * HTML API docs from Debian's nodejs package. The KB tests load them (lib/retrieval/kb); the
 * questions were written from the docs' tables of contents, in a customer's words.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
export const NODE_API_DOCS = '/usr/share/doc/nodejs/api';

/** A few pages of the Node.js API docs copied to a folder of their own (the whole folder is 23 MB). */
function nodeApiSubset(pages: readonly string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'node-api-'));
  for (const page of pages) copyFileSync(path.join(NODE_API_DOCS, page), path.join(dir, page));
  return dir;
}

export interface RealDocsFolder {
  name: string;
  path: () => string;
  /** A question a customer might ask, and the id of the section that answers it. */
  question: string;
  answer: string;
  /** Not on this machine (Debian's nodejs docs are not installed). */
  missing?: boolean;
}

export const REAL_DOCS_FOLDERS: readonly RealDocsFolder[] = [
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
    path: () => nodeApiSubset(['events.html', 'timers.html', 'readline.html']),
    question: 'how do I listen for an event only once',
    answer: 'events.html#handling-events-only-once',
    missing: !existsSync(NODE_API_DOCS),
  },
  {
    name: 'Node.js API docs (the markdown sources of the same three pages)',
    path: () => nodeApiSubset(['events.md', 'timers.md', 'readline.md']),
    question: 'how do I listen for an event only once',
    answer: 'events.md#handling-events-only-once',
    missing: !existsSync(NODE_API_DOCS),
  },
];

/** The demo KB of this repository. */
export const DEMO_KB = path.join(ROOT, 'content');
