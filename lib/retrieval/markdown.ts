import type { Heading, Nodes, Root, Yaml } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { frontmatter } from 'micromark-extension-frontmatter';
import { slug } from 'github-slugger';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { KnowledgeBaseError } from './errors';

/**
 * Markdown → sections.
 *
 * - Headings `#`, `##` and `###` start sections; `####` and deeper stay inside the body.
 *   Only top-level headings count: a `#` inside a code block, list or quote is text.
 * - A section's body runs from its heading to the next heading of level 1–3. Sections do
 *   not overlap, so no text is sent twice; a nested section keeps its ancestors' titles in
 *   `parents` (rendered as "Parent › Child" in the context text).
 * - A heading followed directly by a deeper heading is a container: it makes no section of
 *   its own, its title lives on in its children's `parents`.
 * - A heading with no body and no deeper heading under it is an error (an empty section).
 * - Text before the first heading becomes a section titled by the front matter `title`,
 *   or else by the file name.
 * - Pinning: front matter `pinned: true` pins every section of the file; the comment
 *   `<!-- pinned -->` on the line directly under a heading pins that section only.
 */

export interface ParsedSection {
  title: string;
  parents: string[];
  slug: string;
  line: number;
  text: string;
  pinned: boolean;
}

const frontMatterSchema = z.looseObject({
  pinned: z.boolean().optional(),
  title: z.string().min(1).optional(),
  /** Files with an `order` come first in file order, ascending; the rest follow by path. */
  order: z.number().finite().optional(),
});

export interface ParsedDocument {
  /** Front matter `order`, if given. */
  order?: number;
  sections: ParsedSection[];
}

const PIN_MARKER = /^<!--\s*pinned\s*-->$/i;
const SECTION_DEPTH = 3;

function parseFrontMatter(node: Yaml, file: string): z.infer<typeof frontMatterSchema> {
  const firstContentLine = (node.position?.start.line ?? 1) + 1;
  const doc = parseDocument(node.value, { prettyErrors: true });
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

function startOffset(node: Nodes): number {
  return node.position!.start.offset!;
}
function endOffset(node: Nodes): number {
  return node.position!.end.offset!;
}

/** The heading text exactly as written: the source between the `#` marks (or above a setext underline). */
function headingText(heading: Heading, source: string): string {
  const first = heading.children[0];
  const last = heading.children.at(-1);
  if (!first || !last) return '';
  return source.slice(startOffset(first), endOffset(last)).trim();
}

function fileStem(file: string): string {
  return file.split('/').at(-1)!.replace(/\.(md|markdown)$/i, '');
}

/** Splits one markdown file into sections. `file` (relative to the KB root) is used in ids and errors. */
export function parseMarkdownFile(file: string, source: string): ParsedSection[] {
  return parseMarkdownDocument(file, source).sections;
}

/** Like parseMarkdownFile, with the file-level settings from the front matter. */
export function parseMarkdownDocument(file: string, source: string): ParsedDocument {
  const tree: Root = fromMarkdown(source, {
    extensions: [frontmatter(['yaml'])],
    mdastExtensions: [frontmatterFromMarkdown(['yaml'])],
  });

  let bodyStart = 0;
  let filePinned = false;
  let fileTitle: string | undefined;
  let order: number | undefined;
  const children = tree.children;
  const first = children[0];
  if (first?.type === 'yaml') {
    const meta = parseFrontMatter(first, file);
    filePinned = meta.pinned ?? false;
    fileTitle = meta.title;
    order = meta.order;
    bodyStart = endOffset(first);
  }

  const headings = children.filter(
    (node): node is Heading => node.type === 'heading' && node.depth <= SECTION_DEPTH,
  );
  for (const node of children) {
    if (node.type === 'html' && PIN_MARKER.test(node.value.trim())) {
      const previous = children[children.indexOf(node) - 1];
      const underHeading =
        previous?.type === 'heading' && previous.depth <= SECTION_DEPTH &&
        node.position!.start.line === previous.position!.end.line + 1;
      if (!underHeading) {
        throw new KnowledgeBaseError(
          'the <!-- pinned --> marker must be on the line directly under a heading (#, ## or ###)',
          file,
          node.position!.start.line,
        );
      }
    }
  }

  const sections: ParsedSection[] = [];
  const preamble = source.slice(bodyStart, headings[0] ? startOffset(headings[0]) : source.length).trim();
  if (preamble) {
    const title = fileTitle ?? fileStem(file);
    const line = source.slice(0, bodyStart).split('\n').length + (bodyStart > 0 ? 1 : 0);
    sections.push({ title, parents: [], slug: slug(title), line, text: preamble, pinned: filePinned });
  }

  const ancestors: { depth: number; title: string }[] = [];
  headings.forEach((heading, i) => {
    const title = headingText(heading, source);
    const line = heading.position!.start.line;
    if (!title) throw new KnowledgeBaseError('heading has no text', file, line);
    while (ancestors.length && ancestors.at(-1)!.depth >= heading.depth) ancestors.pop();
    const parents = ancestors.map((a) => a.title);
    ancestors.push({ depth: heading.depth, title });

    const next = headings[i + 1];
    const end = next ? startOffset(next) : source.length;
    let start = endOffset(heading);
    const afterHeading = children[children.indexOf(heading) + 1];
    let pinned = filePinned;
    if (afterHeading?.type === 'html' && PIN_MARKER.test(afterHeading.value.trim())) {
      pinned = true;
      start = endOffset(afterHeading);
    }
    const text = source.slice(start, end).trim();
    if (!text) {
      if (next && next.depth > heading.depth) return; // a container: its title lives on in `parents`
      throw new KnowledgeBaseError(`section "${title}" is empty: write a body or remove the heading`, file, line);
    }
    sections.push({ title, parents, slug: slug(title) || `line-${line}`, line, text, pinned });
  });
  return { order, sections };
}
