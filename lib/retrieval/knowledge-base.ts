import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { renderSectionBlock } from './context';
import { KnowledgeBaseError } from './errors';
import { parseMarkdownDocument } from './markdown';
import { parseSynonyms } from './synonyms';
import { countTokens } from './tokens';
import type { KnowledgeBase, Section } from './types';

/**
 * Loads a knowledge base from a folder (every `.md`/`.markdown` file below it, hidden
 * files and folders skipped) or from a single markdown file. "File order" is path order,
 * except that files with a front matter `order: N` come first, ascending.
 * `synonyms.json` at the root (beside the file, for a single file) is read if present.
 *
 * Everything is checked before anything is returned: any unreadable file, bad
 * encoding, malformed front matter, empty section or duplicate id throws a
 * KnowledgeBaseError naming the file and line. A KB is served whole or not at all.
 */

export const SYNONYMS_FILE = 'synonyms.json';
const MARKDOWN = /\.(md|markdown)$/i;

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

function listMarkdownFiles(dir: string, root: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) listMarkdownFiles(full, root, out);
    else if (entry.isFile() && MARKDOWN.test(entry.name)) out.push(toPosix(path.relative(root, full)));
  }
}

function readUtf8(absolute: string, relative: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolute);
  } catch (error) {
    throw new KnowledgeBaseError(`cannot read file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, relative);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const lenient = new TextDecoder('utf-8').decode(bytes);
    const line = lenient.slice(0, lenient.indexOf('\uFFFD')).split('\n').length;
    throw new KnowledgeBaseError('not valid UTF-8', relative, line);
  }
}

/**
 * Parses markdown sources (path relative to the root → text) into sections with ids, tokens
 * and file order: sources with a front matter `order` first (ascending), then the others
 * in the order given (the loader gives them in path order).
 */
export function sectionsFromSources(sources: ReadonlyArray<{ file: string; text: string }>): Section[] {
  const documents = sources
    .map(({ file, text }) => ({ file, ...parseMarkdownDocument(file, text) }))
    .map((doc, i) => ({ ...doc, i }))
    .sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity) || a.i - b.i);
  const sections: Section[] = [];
  const firstLineOfId = new Map<string, string>();
  for (const { file, sections: parsedSections } of documents) {
    for (const parsed of parsedSections) {
      const id = `${file}#${parsed.slug}`;
      const previous = firstLineOfId.get(id);
      if (previous) {
        throw new KnowledgeBaseError(
          `duplicate section id "${id}" (first at ${previous}): give one of the headings a different title`,
          file,
          parsed.line,
        );
      }
      firstLineOfId.set(id, `${file}:${parsed.line}`);
      const section: Section = {
        id,
        title: parsed.title,
        parents: parsed.parents,
        source: file,
        line: parsed.line,
        text: parsed.text,
        tokens: 0,
        order: sections.length,
        pinned: parsed.pinned,
      };
      section.tokens = countTokens(renderSectionBlock(section));
      sections.push(section);
    }
  }
  return sections;
}

/** Loads and validates a knowledge base from a folder or a single markdown file. */
export function loadKnowledgeBase(kbPath: string): KnowledgeBase {
  const absolute = path.resolve(kbPath);
  let stats;
  try {
    stats = statSync(absolute);
  } catch {
    throw new KnowledgeBaseError('no such file or folder', kbPath);
  }
  let root: string;
  let files: string[];
  if (stats.isDirectory()) {
    root = absolute;
    files = [];
    listMarkdownFiles(root, root, files);
    files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (files.length === 0) throw new KnowledgeBaseError('no markdown files (*.md) in this folder', kbPath);
  } else {
    if (!MARKDOWN.test(absolute)) throw new KnowledgeBaseError('not a markdown file (*.md)', kbPath);
    root = path.dirname(absolute);
    files = [path.basename(absolute)];
  }

  const sources = files.map((file) => ({ file, text: readUtf8(path.join(root, file), file) }));
  const sections = sectionsFromSources(sources);
  if (sections.length === 0) throw new KnowledgeBaseError('the knowledge base has no sections', kbPath);

  const synonymsPath = path.join(root, SYNONYMS_FILE);
  let synonyms: KnowledgeBase['synonyms'] = [];
  let synonymsFile: string | undefined;
  try {
    statSync(synonymsPath);
    synonymsFile = SYNONYMS_FILE;
  } catch {
    // no synonyms file: no expansion
  }
  if (synonymsFile) synonyms = parseSynonyms(synonymsFile, readUtf8(synonymsPath, synonymsFile));

  return { root, files, sections, synonyms, synonymsFile };
}
