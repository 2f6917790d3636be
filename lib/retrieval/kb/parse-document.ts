import type { Heading, RootContent, Yaml } from 'mdast';
import { parseDocument as parseYaml } from 'yaml';
import { z } from 'zod';
import { KnowledgeBaseError } from '../errors';
import { type DocumentFormat, type DocumentTree, parseDocumentTree, documentFormat } from './formats';
import { scannedMarkdownTree } from './markdown-scan';
import { isPageUrl } from './pages';
import { languageOf } from '../query/language-tags';
import type { LoadNotice } from '../types';

/**
 * A document → sections. Any format (formats.ts) arrives here as one mdast tree.
 *
 * - Headings `#`, `##` and `###` start sections; `####` and deeper stay inside the body.
 *   Only top-level headings count: a `#` inside a code block, list or quote is text.
 * - A section's body runs from its heading to the next heading of level 1–3. Sections do
 *   not overlap, so no text is sent twice; a nested section keeps its ancestors' titles in
 *   `parents` (rendered as "Parent › Child" in the context text).
 * - A heading with no body of its own is a **container**: it makes no section, its title
 *   lives on in the `parents` of the headings under it. A heading with no body and no
 *   heading under it makes nothing at all and is reported (notice `empty-heading`).
 * - A heading with no text (only an anchor or an image) is not a boundary: what follows
 *   it stays in the section before (notice `untitled-heading`).
 * - Text before the first heading becomes a section titled by the page title (front matter
 *   `title`, or HTML `<title>`), or else by the file name.
 * - A page title with no `#` heading in the file is the outermost parent of every section
 *   (Docusaurus-style pages: `title:` in front matter, content starting at `##`).
 * - An empty file, or one with only front matter, has no sections (notice `no-content`).
 * - Pinning: front matter `pinned: true` pins every section of the file; the comment
 *   `<!-- pinned -->` on the line directly under a heading pins that section only.
 * - Front matter `url:` is where customers read the page (a reply's sources link to it).
 * - Front matter `lang:` (an HTML page's `<html lang>`) is the page's language, when it is not
 *   the KB's default (identity file `language:`).
 */

export interface ParsedSection {
  title: string;
  parents: string[];
  line: number;
  text: string;
  pinned: boolean;
}

const frontMatterSchema = z.looseObject({
  pinned: z.boolean().optional(),
  title: z.string().min(1).optional(),
  /** Files with an `order` come first in file order, ascending; the rest follow by path. */
  order: z.number().finite().optional(),
  /** The language the page is written in, when it is not the KB's (identity file `language:`): a language code such as "de". */
  lang: z.string().trim().refine((tag) => languageOf(tag) !== undefined, 'must be a language code such as "de" or "pt-BR"').optional(),
  /** Where customers read this page (pages.ts): shown as the link of a reply's source. */
  url: z.string().trim().refine(isPageUrl, 'must be an http(s) URL or a path on this site starting with "/"').optional(),
});

export interface ParsedDocument {
  format: DocumentFormat;
  /** Front matter `order`, if given. */
  order?: number;
  /** Front matter `pinned: true`. */
  pinned: boolean;
  /** Front matter `url`, if given. */
  url?: string;
  /** The page's language as it declares it (front matter `lang:`, HTML `<html lang>`), as a primary subtag. */
  lang?: string;
  sections: ParsedSection[];
  /** What was skipped or read as structure (containers, empty headings, no content). */
  notices: LoadNotice[];
}

const SECTION_DEPTH = 3;

function parseFrontMatter(node: Yaml, file: string): z.infer<typeof frontMatterSchema> {
  const firstContentLine = (node.position?.start.line ?? 1) + 1;
  const doc = parseYaml(node.value, { prettyErrors: true });
  const error = doc.errors[0];
  if (error) {
    const line = firstContentLine + (error.linePos?.[0]?.line ?? 1) - 1;
    throw new KnowledgeBaseError(`malformed front matter: ${error.message.split('\n')[0]}`, file, line);
  }
  const data: unknown = doc.toJS() ?? {};
  const parsed = frontMatterSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `"${issue.path.join('.')}"` : 'front matter';
    throw new KnowledgeBaseError(`malformed front matter: ${where}: ${issue.message}`, file, firstContentLine);
  }
  return parsed.data;
}

function fileStem(file: string): string {
  return file.split('/').at(-1)!.replace(/\.[^.]+$/, '');
}

function lineOf(node: RootContent): number {
  return node.position?.start.line ?? 1;
}

function isSectionHeading(node: RootContent): node is Heading {
  return node.type === 'heading' && node.depth <= SECTION_DEPTH;
}

/** Throws unless every pin marker sits on the line directly under a section heading. */
function checkPinMarkers(tree: DocumentTree, children: readonly RootContent[], file: string): void {
  children.forEach((node, i) => {
    if (!tree.isPinMarker(node)) return;
    const previous = children[i - 1];
    const underHeading =
      previous !== undefined && isSectionHeading(previous) && lineOf(node) === previous.position!.end.line + 1;
    if (!underHeading) {
      throw new KnowledgeBaseError(
        `the ${tree.format === 'mdx' ? '{/* pinned */}' : '<!-- pinned -->'} marker must be on the line directly under a heading (#, ## or ###)`,
        file,
        lineOf(node),
      );
    }
  });
}

interface OpenHeading {
  node: Heading;
  index: number;
  title: string;
}

export interface ParseOptions {
  /** Plain markdown by the line scanner where it can tell (markdown-scan.ts, 50× faster); false: always micromark. Default true. */
  scanMarkdown?: boolean;
}

/** Splits one document into sections. `file` (relative to the KB root) is used in errors and notices. */
export function parseDocument(file: string, source: string, format = documentFormat(file) ?? 'markdown', { scanMarkdown = true }: ParseOptions = {}): ParsedDocument {
  const scanned = format === 'markdown' && scanMarkdown ? scannedMarkdownTree(source) : undefined;
  const tree = scanned ?? parseDocumentTree(file, source, format);
  const all = tree.root.children;
  let meta: z.infer<typeof frontMatterSchema> = {};
  let children = all;
  if (all[0]?.type === 'yaml') {
    meta = parseFrontMatter(all[0], file);
    children = all.slice(1);
  }
  checkPinMarkers(tree, children, file);
  const filePinned = meta.pinned ?? false;
  const pageTitle = meta.title ?? tree.title;
  const notices: LoadNotice[] = [];

  // Section headings with text; a heading with no text is no boundary.
  const headings: OpenHeading[] = [];
  children.forEach((node, index) => {
    if (!isSectionHeading(node)) return;
    const title = tree.headingTitle(node);
    if (title) headings.push({ node, index, title });
    else notices.push({ kind: 'untitled-heading', file, line: lineOf(node), message: 'a heading with no text: its content stays in the section before' });
  });
  const hasTopHeading = headings.some((h) => h.node.depth === 1);
  const rootParents = pageTitle && !hasTopHeading ? [pageTitle] : [];

  const sections: ParsedSection[] = [];
  const preamble = children.slice(0, headings[0]?.index ?? children.length);
  const preambleText = tree.textOf(preamble);
  if (preambleText) {
    sections.push({ title: pageTitle ?? fileStem(file), parents: [], line: lineOf(preamble[0]!), text: preambleText, pinned: filePinned });
  }

  const ancestors: { depth: number; title: string }[] = [];
  headings.forEach((heading, i) => {
    const { node, title } = heading;
    while (ancestors.length && ancestors.at(-1)!.depth >= node.depth) ancestors.pop();
    const parents = [...rootParents, ...ancestors.map((a) => a.title)];
    ancestors.push({ depth: node.depth, title });

    const next = headings[i + 1];
    let body = children.slice(heading.index + 1, next?.index ?? children.length);
    let pinned = filePinned;
    if (body[0] && tree.isPinMarker(body[0])) {
      pinned = true;
      body = body.slice(1);
    }
    const text = tree.textOf(body);
    const line = lineOf(node);
    if (text) {
      sections.push({ title, parents, line, text, pinned });
    } else if (next && next.node.depth > node.depth) {
      notices.push({ kind: 'container', file, line, message: `heading "${title}" has no text of its own: a container, its title lives on in the headings under it` });
    } else {
      notices.push({ kind: 'empty-heading', file, line, message: `heading "${title}" has no text under it and no headings below it: skipped` });
    }
  });
  if (sections.length === 0 && headings.length === 0) {
    notices.push({ kind: 'no-content', file, line: 1, message: 'no content (an empty file, or only front matter)' });
  }
  const lang = languageOf(meta.lang ?? tree.lang);
  return { format, order: meta.order, pinned: filePinned, ...(meta.url ? { url: meta.url } : {}), ...(lang ? { lang } : {}), sections, notices };
}

/** Does this file's raw text ask to be pinned? Used to decide whether a file that fails to parse may be skipped. */
export function looksPinned(source: string): boolean {
  return /^pinned\s*:(?!\s*(false|no|off)\s*$)/im.test(source) || /<!--\s*pinned\s*-->|\{\/\*\s*pinned\s*\*\/\}/i.test(source);
}
