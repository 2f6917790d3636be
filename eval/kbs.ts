/** The knowledge bases the evaluation runs on. */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCorpus, sectionsFromDocs, REPO_ROOT } from '../bench/corpus.ts';
import {
  createRetrievalIndex,
  loadKnowledgeBase,
  type KnowledgeBase,
  type RetrievalConfigInput,
  type RetrievalIndex,
  type Section,
} from '../lib/retrieval/index.ts';

export const EVAL_DIR = path.join(REPO_ROOT, 'eval');
export const DEMO_GOLDEN = path.join(EVAL_DIR, 'golden-demo.json');
export const DEBIAN_GOLDEN = path.join(EVAL_DIR, 'golden-debian-faq.json');

/**
 * Real documentation folders shipped in npm packages of package-lock.json (so on every clean
 * clone), each with its frozen question set and the pinned rule file the eval adds to it.
 */
export const DOCS_KBS = [
  {
    name: 'Next.js getting-started guide',
    dir: path.join(REPO_ROOT, 'node_modules/next/dist/docs/01-app/01-getting-started'),
    golden: path.join(EVAL_DIR, 'golden-nextjs-getting-started.json'),
    rules: path.join(EVAL_DIR, 'rules/nextjs-getting-started.md'),
  },
  {
    name: 'AI SDK troubleshooting',
    dir: path.join(REPO_ROOT, 'node_modules/ai/docs/09-troubleshooting'),
    golden: path.join(EVAL_DIR, 'golden-ai-sdk-troubleshooting.json'),
    rules: path.join(EVAL_DIR, 'rules/ai-sdk-troubleshooting.md'),
  },
] as const;

export interface EvalKb {
  name: string;
  sections: Section[];
  index: RetrievalIndex;
}

export function demoKb(config: RetrievalConfigInput = {}): EvalKb {
  const kb: KnowledgeBase = loadKnowledgeBase(path.join(REPO_ROOT, 'content'));
  return { name: 'demo KB', sections: kb.sections, index: createRetrievalIndex(kb, config) };
}

/**
 * A real docs folder as the app would serve it, with the eval's rule file pinned: the folder is
 * copied to a temporary directory (the package's own files are never touched) with the rule
 * file added as `eval-rules.md` (front matter `pinned: true`, `order: 0`), then loaded by the
 * app's own loader, so section ids are the folder's own (`path#slug`).
 */
export function docsFolderKb(name: string, dir: string, rulesFile: string, config: RetrievalConfigInput = {}): EvalKb {
  const copy = mkdtempSync(path.join(tmpdir(), 'eval-kb-'));
  try {
    cpSync(dir, copy, { recursive: true });
    cpSync(rulesFile, path.join(copy, 'eval-rules.md'));
    const kb = loadKnowledgeBase(copy);
    if (kb.skipped.length) throw new Error(`${name}: files skipped: ${kb.skipped.map((f) => f.message).join('; ')}`);
    return { name, sections: kb.sections, index: createRetrievalIndex(kb, config) };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** "7.12. How do I…" → [7, 12]; "Chapter 7. Basics…" → [7]. */
function sectionNumber(title: string): number[] {
  const last = title.split(' › ').at(-1)!;
  const numbered = /^(\d+(?:\.\d+)*)\./.exec(last);
  if (numbered) return numbered[1]!.split('.').map(Number);
  const chapter = /^Chapter (\d+)\./.exec(last);
  return chapter ? [Number(chapter[1])] : [Infinity];
}

function compareNumbers(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? -1;
    const y = b[i] ?? -1;
    if (x !== y) return x - y;
  }
  return 0;
}

/**
 * The Debian FAQ as a KB: its sections from corpus-100000 (read in place, not copied),
 * in the FAQ's own order (chapter and section numbers), no pinned sections, no synonyms.
 */
export async function debianFaqKb(config: RetrievalConfigInput = {}, prefix = 'debian-faq:'): Promise<EvalKb> {
  const docs = (await loadCorpus(100000)).filter((d) => d.id.startsWith(prefix));
  docs.sort((a, b) => compareNumbers(sectionNumber(a.title), sectionNumber(b.title)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const sections = sectionsFromDocs(docs);
  return { name: 'Debian FAQ', sections, index: createRetrievalIndex({ sections, synonyms: [] }, config) };
}
