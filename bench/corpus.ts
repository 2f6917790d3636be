/**
 * Benchmark input: the shared corpora of real documentation (read in place, never copied
 * into the repo) and the demo knowledge base.
 *
 *   ../shared/corpora/corpus-{136,1000,10000,100000}.jsonl.gz   {id, title, text} per line
 *   ../shared/corpora/questions.txt                              200 questions, one a line
 *
 * Paths are relative to the repo root, so a clone beside shared/ (as in CI) finds them.
 */
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { renderSectionBlock, countTokens } from '@/lib/retrieval/index';
import type { Section } from '@/lib/retrieval/index';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');
export const CORPORA_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'corpora');
export const DEMO_KB_DIR = path.join(REPO_ROOT, 'content');

/** One section of a corpus, as the libraries receive it: a title and a body. */
export interface Doc {
  id: string;
  /** Title path, outermost first, joined with " › " (as the corpus writes it). */
  title: string;
  text: string;
}

export function corpusFile(size: number): string {
  return path.join(CORPORA_DIR, `corpus-${size}.jsonl.gz`);
}

export function checkCorporaPresent(sizes: readonly number[]): void {
  for (const size of sizes) {
    if (!existsSync(corpusFile(size))) {
      throw new Error(`missing ${corpusFile(size)}: the benchmark reads the shared corpora beside the repo (../shared/corpora)`);
    }
  }
}

/** Streams a gzip'd JSONL corpus into memory. */
export async function loadCorpus(size: number, file = corpusFile(size)): Promise<Doc[]> {
  const docs: Doc[] = [];
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const { id, title, text } = JSON.parse(line) as Doc;
    docs.push({ id, title, text });
  }
  return docs;
}

/** The 200 natural-language questions written from sections of corpus-100000. */
export function corpusQuestions(): string[] {
  return readFileSync(path.join(CORPORA_DIR, 'questions.txt'), 'utf8')
    .split('\n')
    .map((q) => q.trim())
    .filter(Boolean);
}

export interface QuestionMeta {
  q: string;
  source: string;
}

export function corpusQuestionMeta(): QuestionMeta[] {
  return readFileSync(path.join(CORPORA_DIR, 'questions.meta.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as QuestionMeta);
}

/**
 * Corpus docs → selector sections. The corpus title is a path ("Chapter 7 › 7.1 What is…"):
 * the last part is the section's title, the rest its parents, as the markdown loader would
 * make them. Tokens are counted exactly (o200k_base), as for a real knowledge base.
 */
export function sectionsFromDocs(docs: readonly Doc[], count: (text: string) => number = countTokens): Section[] {
  return docs.map((doc, order) => {
    const parts = doc.title.split(' › ');
    const section: Section = {
      id: doc.id,
      title: parts.at(-1) ?? doc.title,
      parents: parts.slice(0, -1),
      source: doc.id.split('#')[0]!,
      line: 1,
      text: doc.text,
      tokens: 0,
      order,
      pinned: false,
    };
    section.tokens = count(renderSectionBlock(section));
    return section;
  });
}

/** The demo KB's markdown files, read into memory (file path relative to content/ → text), in file order. */
export function demoKbSources(root = DEMO_KB_DIR): { file: string; text: string }[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(md|markdown)$/i.test(entry.name)) files.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  walk(root);
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return files.map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));
}

/**
 * A corpus written as a knowledge-base folder in a new temporary folder: 20 sections a markdown
 * file (`part-NNNN/page.md`, a page heading, then one `##` heading per section), as a team
 * would keep real docs. The 10,000-section corpus makes 500 files (bench:load).
 */
export async function corpusAsMarkdownFolder(size: number): Promise<string> {
  const docs = await loadCorpus(size);
  const dir = mkdtempSync(path.join(tmpdir(), `kb-${size}-`));
  for (let i = 0; i < docs.length; i += 20) {
    const page = docs.slice(i, i + 20).map((d) => `## ${d.title.replace(/\n/g, ' ')}\n\n${d.text}\n`).join('\n');
    const file = path.join(dir, `part-${String(i / 20).padStart(4, '0')}`, 'page.md');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `# Page ${i / 20}\n\n${page}`);
  }
  return dir;
}
