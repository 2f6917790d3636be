import type { Nodes as HastNodes, Root as HastRoot, Element } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toMdast } from 'hast-util-to-mdast';
import type { Heading, Nodes, Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { mdxFromMarkdown } from 'mdast-util-mdx';
import { toMarkdown } from 'mdast-util-to-markdown';
import { toString } from 'mdast-util-to-string';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { mdxjs } from 'micromark-extension-mdxjs';
import { KnowledgeBaseError } from '../errors';
import { classesOf } from './hast-helpers';
import { admonitionAsQuote } from './html-admonitions';
import { isNavigationPanel } from './html-navigation';
import { isQandasetContents, qandasetAsBlocks } from './html-qandaset';

/**
 * The formats documentation comes in, each turned into one mdast tree by a real parser,
 * so the section splitter (markdown.ts) sees the same structure whatever the file was:
 *
 * - `.md`, `.markdown`: CommonMark + GFM (tables, task lists, footnotes) + YAML front
 *   matter. A section's text is the source exactly as written.
 * - `.mdx`: the same plus MDX (micromark-extension-mdxjs). ESM `import`/`export` and
 *   `{expressions}` are dropped, JSX elements are dropped with their children kept
 *   (`<Note>Read **this**</Note>` → "Read **this**"). The text is re-serialised as
 *   markdown (mdast-util-to-markdown), since the source has JSX in it. `{/* pinned *\/}`
 *   under a heading pins it, as `<!-- pinned -->` does in markdown (MDX has no HTML comments).
 * - `.html`, `.htm` (help-center exports): parsed with hast-util-from-html, reduced to
 *   `<main>` (or `<article>`, or `<body>`), comments, scripts, styles, navigation, headers, footers,
 *   forms, hidden elements, empty anchors, DocBook's navigation bars and generated tables of contents dropped, then converted with hast-util-to-mdast and
 *   serialised as markdown. DocBook's admonitions become quotes opening with their title
 *   (html-admonitions.ts), its Q&A tables headings and answers (html-qandaset.ts). Permalinks and `[src]` links are dropped from headings, and a page
 *   whose content starts at `<h2>` or below has its headings raised so its top level is 1.
 *   `<title>` is the page title, as front matter `title:` is.
 */

export type DocumentFormat = 'markdown' | 'mdx' | 'html';

export const DOCUMENT_EXTENSIONS: Readonly<Record<string, DocumentFormat>> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.mdx': 'mdx',
  '.html': 'html',
  '.htm': 'html',
};

/** The format of a file by its extension, or undefined when it is not a document. */
export function documentFormat(file: string): DocumentFormat | undefined {
  const dot = file.lastIndexOf('.');
  return dot < 0 ? undefined : DOCUMENT_EXTENSIONS[file.slice(dot).toLowerCase()];
}

/** One parsed document: its tree, and how to get the text of a run of its nodes. */
export interface DocumentTree {
  format: DocumentFormat;
  root: Root;
  /** The text of consecutive top-level nodes: the source as written (markdown) or re-serialised. */
  textOf(nodes: readonly RootContent[]): string;
  /** A heading's title: as written (markdown, inline HTML such as anchors removed) or its plain text. */
  headingTitle(heading: Heading): string;
  /** Is this node a pin marker (`<!-- pinned -->`, or `{/* pinned *\/}` in MDX)? */
  isPinMarker(node: RootContent): boolean;
  /** The page title from the document itself (HTML `<title>`). */
  title?: string;
  /** The language the document declares itself (HTML `<html lang>` or `xml:lang`). */
  lang?: string;
}

const PIN_COMMENT = /^<!--\s*pinned\s*-->$/i;
const PIN_EXPRESSION = /^\/\*\s*pinned\s*\*\/$/i;
const INLINE_TAG = /<\/?[A-Za-z][^<>]*>/g;

function start(node: Nodes): number {
  return node.position!.start.offset!;
}
function end(node: Nodes): number {
  return node.position!.end.offset!;
}

const markdownExtensions = { extensions: [frontmatter(['yaml']), gfm()], mdastExtensions: [frontmatterFromMarkdown(['yaml']), gfmFromMarkdown()] };

function serialise(nodes: readonly RootContent[]): string {
  return toMarkdown({ type: 'root', children: [...nodes] }, { extensions: [gfmToMarkdown()] }).trim();
}

/**
 * An HTML page's text as markdown, its tables unaligned (`| a | b |`, one space around each cell):
 * aligning pads every cell to its column's widest, and a documentation table's widest cell is a
 * paragraph. Spaces the model reads nothing in, and counted in the budget.
 */
function serialiseHtml(nodes: readonly RootContent[]): string {
  return toMarkdown({ type: 'root', children: [...nodes] }, { extensions: [gfmToMarkdown({ tablePipeAlign: false })] }).trim();
}

function markdownTree(source: string): DocumentTree {
  const root = fromMarkdown(source, markdownExtensions);
  return {
    format: 'markdown',
    root,
    textOf: (nodes) => (nodes.length ? source.slice(start(nodes[0]!), end(nodes.at(-1)!)).trim() : ''),
    headingTitle(heading) {
      const first = heading.children[0];
      const last = heading.children.at(-1);
      if (!first || !last) return '';
      return source.slice(start(first), end(last)).replace(INLINE_TAG, '').replace(/\s+/g, ' ').trim();
    },
    isPinMarker: (node) => node.type === 'html' && PIN_COMMENT.test(node.value.trim()),
  };
}

type MdxNode = { type: string; value?: string; children?: MdxNode[] };

/** Drops ESM and expressions, replaces JSX elements by their children (recursively). */
function withoutMdxSyntax(nodes: MdxNode[], keepPinMarkers: boolean): MdxNode[] {
  const out: MdxNode[] = [];
  for (const node of nodes) {
    if (node.type === 'mdxjsEsm' || node.type === 'mdxTextExpression') continue;
    if (node.type === 'mdxFlowExpression') {
      if (keepPinMarkers && PIN_EXPRESSION.test((node.value ?? '').trim())) out.push(node);
      continue;
    }
    if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') {
      out.push(...withoutMdxSyntax(node.children ?? [], false));
      continue;
    }
    if (node.children) node.children = withoutMdxSyntax(node.children, false);
    out.push(node);
  }
  return out;
}

function mdxTree(file: string, source: string): DocumentTree {
  let root: Root;
  try {
    root = fromMarkdown(source, {
      extensions: [...markdownExtensions.extensions, mdxjs()],
      mdastExtensions: [...markdownExtensions.mdastExtensions, mdxFromMarkdown()],
    });
  } catch (error) {
    const { line: at, place } = error as { line?: number; place?: { line?: number; start?: { line?: number } } };
    const text = ((error as { reason?: string }).reason ?? (error as Error).message).split('\n')[0]!;
    // Some MDX errors carry their place only in the text: "… (3:1-3:7)".
    const written = /\s*\((\d+):\d+(?:-\d+:\d+)?\)$/.exec(text);
    const line = at ?? place?.line ?? place?.start?.line ?? (written ? Number(written[1]) : undefined);
    const reason = written ? text.slice(0, written.index) : text;
    throw new KnowledgeBaseError(`MDX that cannot be parsed: ${reason}`, file, line);
  }
  root.children = withoutMdxSyntax(root.children as MdxNode[], true) as RootContent[];
  return {
    format: 'mdx',
    root,
    textOf: serialise,
    headingTitle: (heading) => toString(heading).replace(/\s+/g, ' ').trim(),
    isPinMarker: (node) => (node as MdxNode).type === 'mdxFlowExpression',
  };
}

/**
 * Elements that are not content. `<hr>` too: generators put one between the navigation and the
 * page (DocBook, Texinfo), and a section whose text was only that rule ("***") was a section.
 */
const DROPPED_ELEMENTS = new Set([
  'script', 'style', 'noscript', 'template', 'nav', 'header', 'footer', 'aside', 'form', 'button', 'svg', 'iframe', 'select', 'hr',
]);

/**
 * Classes of navigation and generated tables of contents in documentation exports: DocBook's
 * (Debian's manuals, many Linux and GNU docs: the previous/next bar of every page, the contents
 * of a chapter, which would otherwise be sections of their own that match every question), and
 * the "Skip to content" link of accessible pages (Node.js's API docs: a section of its own).
 */
const DROPPED_CLASSES = new Set([
  'navheader', 'navfooter', 'toc', 'list-of-tables', 'list-of-figures', 'list-of-examples', 'breadcrumbs', 'breadcrumb',
  'skip-to-content', 'skip-link', 'skiplink',
  // Texinfo's HTML (GNU manuals, makeinfo): the Next/Previous/Up panel (7.x) and each node's list of its subsections.
  'nav-panel', 'section-toc', 'mini-toc',
]);

/**
 * Ids of generated tables of contents that carry no class or role saying so: Node.js's
 * all.html (`<details id="toc">`, 83,000 tokens of links to every API, a section that matched
 * every question and took a load seconds to split), Asciidoctor, MediaWiki, Hugo
 * (`TableOfContents`). Compared in lower case.
 */
const DROPPED_IDS = new Set(['toc', 'table-of-contents', 'tableofcontents']);

/** An anchor with nothing in it (`<a name="x"></a>`, DocBook's `<a id>` before every heading): a link target, not content. */
function isEmptyAnchor(node: Element): boolean {
  return node.tagName === 'a' && node.children.every((c) => c.type === 'text' && c.value.trim() === '');
}

/**
 * An `<a>` with no `href` is a link target, not a link (HTML: "a placeholder for where a link
 * might otherwise have been placed"): its content is kept as plain text. XHTML pages (DocBook's:
 * Debian's manuals) write an empty target as `<a id="…"/>`, which an HTML parser reads as an
 * opening tag: the anchor then holds the heading's title and is carried into every following
 * paragraph up to the next link. Kept as links, 428 of the 448 sections of Debian's French
 * Reference began with `[` and ended their first paragraph in `]()`.
 */
function isLinkTarget(node: HastNodes): node is Element {
  return node.type === 'element' && node.tagName === 'a' && node.properties?.href === undefined;
}

function isDropped(node: Element): boolean {
  const p = node.properties ?? {};
  return (
    DROPPED_ELEMENTS.has(node.tagName) ||
    isEmptyAnchor(node) ||
    classesOf(node).some((c) => DROPPED_CLASSES.has(c)) ||
    isNavigationPanel(node) ||
    (typeof p.id === 'string' && DROPPED_IDS.has(p.id.toLowerCase())) ||
    p.hidden !== undefined ||
    p.role === 'navigation' ||
    p.role === 'banner' ||
    p.role === 'contentinfo' ||
    p.ariaHidden === 'true'
  );
}

const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const BRACKETED = /^\[[^\]]*\]$/;

/**
 * A link that documentation generators put in a heading beside its title: a permalink whose
 * text is a symbol (Node.js `#`, Sphinx and MkDocs `¶`, rustdoc `§`, Docusaurus a zero-width
 * space) or a bracketed label (Node.js `[src]`, `[source]`, `[edit]`). Page furniture: kept, it
 * made titles such as "File system#" and "Stream[src]#".
 */
function isHeadingFurniture(node: Element): boolean {
  if (node.tagName !== 'a' || node.properties?.href === undefined) return false;
  const text = toString(node).trim();
  return !LETTER_OR_DIGIT.test(text) || BRACKETED.test(text);
}

/** Inline elements: what they become is never a top-level node of the page, whose line a section takes. */
const PHRASING_ELEMENTS = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'dfn', 'em', 'i', 'img', 'kbd', 'mark', 'q', 's', 'samp', 'small',
  'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr',
]);

/**
 * Drops what is not content (isDropped, comments, a heading's furniture), makes DocBook's
 * admonitions quotes (html-admonitions.ts), its Q&A tables headings and text (html-qandaset.ts)
 * and anchors without href text, and drops the positions no
 * section reads: a section's line is its heading's, or its first block's. hast-util-to-mdast
 * deep-copies the whole tree before converting it, and a position is three objects of that copy:
 * without those of text and inline elements, Node.js's all.html (8.4 MB) parses in 10.5 s instead
 * of 12.0 s, with the same sections and lines on every HTML page of the real docs in the tests.
 */
function prune(node: HastNodes, inHeading = false): void {
  if (node.type === 'text' || (node.type === 'element' && PHRASING_ELEMENTS.has(node.tagName))) delete node.position;
  if (!('children' in node)) return;
  const parent = node.type === 'element' ? node : undefined;
  const kept: HastNodes[] = [];
  for (const original of node.children) {
    if (original.type === 'comment' || (original.type === 'element' && (isDropped(original) || (inHeading && isHeadingFurniture(original))))) continue;
    if (parent && isQandasetContents(parent, original)) continue;
    const child = (original.type === 'element' && (admonitionAsQuote(original) ?? qandasetAsBlocks(parent, original))) || original;
    prune(child, inHeading || (child.type === 'element' && HEADING_TAGS.has(child.tagName)));
    if (isLinkTarget(child)) kept.push(...child.children);
    else kept.push(child);
  }
  node.children = kept as typeof node.children;
}

/**
 * Raises the headings of a page whose content starts below `<h1>` (the site's name in a header
 * that was dropped, the page's title an `<h2>`): its top level becomes depth 1, so sections
 * split at the same three levels as a markdown page (parse-document.ts SECTION_DEPTH). Node.js's
 * API pages, for one, would otherwise split at h2–h3 and leave every function (h4) inside a
 * section of 100 KB, where their markdown sources give a section per function.
 */
function raiseHeadings(root: Root): void {
  let top = 7;
  for (const child of root.children) if (child.type === 'heading') top = Math.min(top, child.depth);
  if (top === 7 || top === 1) return;
  const by = top - 1;
  const raise = (node: Nodes): void => {
    if (node.type === 'heading') node.depth = (node.depth - by) as Heading['depth'];
    if ('children' in node) for (const child of node.children) raise(child);
  };
  raise(root);
}

function findElement(node: HastNodes, tagName: string): Element | undefined {
  if (node.type === 'element' && node.tagName === tagName) return node;
  if (!('children' in node)) return undefined;
  for (const child of node.children) {
    const found = findElement(child, tagName);
    if (found) return found;
  }
  return undefined;
}

function htmlTree(source: string): DocumentTree {
  const hast: HastRoot = fromHtml(source);
  const titleElement = findElement(hast, 'title');
  const title = titleElement ? toString(toMdast(titleElement)).replace(/\s+/g, ' ').trim() : undefined;
  const htmlProps = findElement(hast, 'html')?.properties ?? {};
  const lang = [htmlProps.lang, htmlProps.xmlLang].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  const content = findElement(hast, 'main') ?? findElement(hast, 'article') ?? findElement(hast, 'body') ?? hast;
  prune(content);
  const root = toMdast({ type: 'root', children: content.type === 'root' ? content.children : [content] }) as Root;
  raiseHeadings(root);
  return {
    format: 'html',
    root,
    title: title || undefined,
    ...(lang ? { lang } : {}),
    textOf: serialiseHtml,
    headingTitle: (heading) => toString(heading).replace(/\s+/g, ' ').trim(),
    isPinMarker: () => false,
  };
}

/** Parses a document of any supported format; throws KnowledgeBaseError (`file:line`) when it cannot. */
export function parseDocumentTree(file: string, source: string, format: DocumentFormat): DocumentTree {
  if (format === 'mdx') return mdxTree(file, source);
  if (format === 'html') return htmlTree(source);
  return markdownTree(source);
}
