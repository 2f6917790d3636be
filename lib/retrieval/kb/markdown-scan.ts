import type { Heading, Paragraph, Root, RootContent, Yaml } from 'mdast';
import type { DocumentTree } from './formats';
import { isCompleteHtmlTag } from './html-tag-line';

/**
 * The fast path for plain markdown: a line scanner that finds what the section splitter
 * (parse-document.ts) reads from a `.md` file — the front matter, the top-level headings
 * with their titles and lines, and where the text between them starts and ends — without
 * building the mdast tree. A markdown section's text is the source as written (formats.ts),
 * so those offsets are all the splitter needs; micromark's full CommonMark + GFM parse
 * (55% of a cold load) is only needed to find them.
 *
 * It gives up (undefined: the caller parses with micromark) on anything whose block
 * structure it cannot decide from the lines alone: an indented `#`–`###` heading (it may sit
 * in a list item), a setext underline under anything but a plain paragraph, an HTML block or
 * a paragraph starting with HTML that has a heading, a fence or an underline in it, a fence
 * or HTML block opened inside a container that a less indented line may close, pin markers,
 * CR line endings, a byte order mark. What it accepts it must read exactly as micromark
 * does: markdown-scan.test.ts compares the two on every real documentation folder of the
 * tests and on generated documents made of those corner cases.
 */

const BLANK = /^[ \t]*$/;
const ATX = /^( {0,3})(#{1,6})(?=[ \t]|$)/;
const ATX_CLOSING = /(?:^|[ \t]+)#+[ \t]*$/;
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const FRONT_MATTER_FENCE = /^---[ \t]*$/;
/** A line that opens a block quote or a list item: its paragraph is not a top-level one. */
const CONTAINER_START = /^[ \t]*(?:>|\[\^|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))/;
/** HTML blocks that end at a marker rather than at a blank line (CommonMark kinds 1–5): the opener, and the end marker searched after it. */
const HTML_TO_MARKER: readonly { open: RegExp; end: RegExp }[] = [
  { open: /^ {0,3}<(?:script|pre|style|textarea)(?=[ \t>]|$)/i, end: /<\/(?:script|pre|style|textarea)>/i },
  { open: /^ {0,3}<!--/, end: /-->/ },
  { open: /^ {0,3}<\?/, end: /\?>/ },
  { open: /^ {0,3}<![A-Za-z]/, end: />/ },
  { open: /^ {0,3}<!\[CDATA\[/, end: /\]\]>/ },
];
/** The HTML block names of CommonMark's kind 6 (micromark-util-html-tag-name): such a block runs to the next blank line. */
const HTML_BLOCK_NAMES =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';
const HTML_TO_BLANK = new RegExp(`^ {0,3}</?(?:${HTML_BLOCK_NAMES})(?=[ \\t>]|/>|$)`, 'i');
/** Things the scanner leaves to micromark wherever they are: pin markers, comments whose end overlaps their start, CR line endings. */
const UNSCANNABLE = /<!--\s*pinned\s*-->|<!---?>|<\?>|\r/i;

/** The width of a line's indentation, tabs to the next multiple of 4 (CommonMark). */
function indentOf(line: string): number {
  let width = 0;
  for (const ch of line) {
    if (ch === ' ') width++;
    else if (ch === '\t') width += 4 - (width % 4);
    else break;
  }
  return width;
}

interface Line {
  text: string;
  start: number;
  end: number;
}

function linesOf(source: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const end = source.indexOf('\n', start);
    if (end < 0) {
      lines.push({ text: source.slice(start), start, end: source.length });
      return lines;
    }
    lines.push({ text: source.slice(start, end), start, end });
    start = end + 1;
  }
}

class Unscannable extends Error {}

function giveUp(): never {
  throw new Unscannable();
}

/** The span of an ATX heading's text: after the opening `#`s, before the closing ones and trailing spaces. */
function atxTitleSpan(line: Line, depth: number): [number, number] {
  let rest = line.text.slice(depth);
  const lead = rest.length - rest.replace(/^[ \t]+/, '').length;
  rest = rest.slice(lead);
  const closing = ATX_CLOSING.exec(rest);
  if (closing) rest = rest.slice(0, closing.index);
  rest = rest.replace(/[ \t]+$/, '');
  const from = line.start + depth + lead;
  return [from, from + rest.length];
}

/** The index of the line that closes a fence opened at `open` (or the last line), giving up where a container may end it sooner. */
function fenceEnd(lines: readonly Line[], open: number, marker: string, indent: number): number {
  const closer = new RegExp(`^( *)${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
  for (let i = open + 1; i < lines.length; i++) {
    const text = lines[i]!.text;
    const close = closer.exec(text);
    if (indent > 0 && !BLANK.test(text) && (indentOf(text) < indent || (close && close[1]!.length !== indent))) giveUp();
    if (close && close[1]!.length <= 3) return i;
  }
  return lines.length - 1;
}

/** The index of the last line of an HTML block that starts at `open`, or undefined when the line starts no HTML block. */
function htmlEnd(lines: readonly Line[], open: number): number | undefined {
  const first = lines[open]!.text;
  const kind = HTML_TO_MARKER.find((k) => k.open.test(first));
  if (kind) {
    const indent = indentOf(first);
    if (kind.end.test(first.slice(kind.open.exec(first)![0].length))) return open;
    for (let i = open + 1; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (indent > 0 && !BLANK.test(text) && indentOf(text) < indent) giveUp();
      if (kind.end.test(text)) return i;
    }
    return lines.length - 1;
  }
  if (!HTML_TO_BLANK.test(first) && !isCompleteHtmlTag(first)) return undefined;
  // An HTML block that ends at a blank line, or (a complete tag cannot interrupt a paragraph)
  // a paragraph going on: nothing in it may be structure that the two readings disagree on.
  for (let i = open + 1; i < lines.length; i++) {
    const text = lines[i]!.text;
    if (BLANK.test(text)) return i - 1;
    if (ATX.test(text) || FENCE.test(text) || SETEXT_UNDERLINE.test(text) || HTML_TO_MARKER.some((k) => k.open.test(text))) giveUp();
  }
  return lines.length - 1;
}

/** Front matter as micromark-extension-frontmatter reads it: `---` on the first line, closed by `---`. */
function frontMatter(lines: readonly Line[]): { node: Yaml; next: number } | undefined {
  if (lines.length < 2 || !FRONT_MATTER_FENCE.test(lines[0]!.text)) return undefined;
  const close = lines.findIndex((l, i) => i > 0 && FRONT_MATTER_FENCE.test(l.text));
  if (close < 0) return undefined;
  const node: Yaml = {
    type: 'yaml',
    value: lines.slice(1, close).map((l) => l.text).join('\n'),
    position: { start: { line: 1, column: 1, offset: 0 }, end: point(lines, close, lines[close]!.end) },
  };
  return { node, next: close + 1 };
}

function point(lines: readonly Line[], index: number, offset: number) {
  return { line: index + 1, column: offset - lines[index]!.start + 1, offset };
}

/** The top level as the section splitter needs it: front matter, `#`–`###` headings, and one node per run of anything else. */
class TopLevel {
  readonly children: RootContent[] = [];
  readonly titles = new Map<Heading, [number, number]>();
  private run: { first: number; last: number } | undefined;

  constructor(private readonly lines: readonly Line[]) {}

  /** Lines `first`…`last` are content: part of the run of content in progress. */
  content(first: number, last: number): void {
    if (this.run) this.run.last = last;
    else this.run = { first, last };
  }

  /** A heading of lines `first`…`last` (two for a setext heading), its title at `title`. */
  heading(first: number, last: number, depth: number, title: [number, number]): void {
    this.endRun();
    const { lines } = this;
    const node: Heading = {
      type: 'heading',
      depth: depth as Heading['depth'],
      children: [],
      position: { start: point(lines, first, lines[first]!.start), end: point(lines, last, lines[last]!.end) },
    };
    this.titles.set(node, title);
    this.children.push(node);
  }

  /** Gives back the lines from `from` on (a paragraph that turned out to be a setext heading's text). */
  takeBack(from: number): void {
    if (!this.run) return;
    let last = from - 1;
    while (last >= this.run.first && BLANK.test(this.lines[last]!.text)) last--;
    if (last < this.run.first) this.run = undefined;
    else this.run.last = last;
  }

  endRun(): void {
    if (!this.run) return;
    const { lines } = this;
    const { first, last } = this.run;
    const start = lines[first]!.start + /^[ \t]*/.exec(lines[first]!.text)![0].length;
    const node: Paragraph = { type: 'paragraph', children: [], position: { start: point(lines, first, start), end: point(lines, last, lines[last]!.end) } };
    this.children.push(node);
    this.run = undefined;
  }
}

/** A paragraph in progress: its first line, and whether a setext underline under it would make a top-level heading for sure. */
interface OpenParagraph {
  first: number;
  plain: boolean;
}

function scan(source: string): { root: Root; titles: Map<Heading, [number, number]> } {
  const lines = linesOf(source);
  const top = new TopLevel(lines);
  const matter = frontMatter(lines);
  if (matter) top.children.push(matter.node);
  let paragraph: OpenParagraph | undefined;
  for (let i = matter?.next ?? 0; i < lines.length; i++) {
    const line = lines[i]!;
    const text = line.text;
    if (BLANK.test(text)) {
      paragraph = undefined;
      continue;
    }
    const atx = ATX.exec(text);
    if (atx) {
      const depth = atx[2]!.length;
      if (depth <= 3 && atx[1]!.length > 0) giveUp(); // an indented heading may sit in a list item
      if (depth <= 3) top.heading(i, i, depth, atxTitleSpan(line, depth));
      else top.content(i, i);
      paragraph = undefined;
      continue;
    }
    if (SETEXT_UNDERLINE.test(text) && paragraph) {
      if (!paragraph.plain || indentOf(text) > 0) giveUp();
      top.takeBack(paragraph.first);
      top.heading(paragraph.first, i, text.trim()[0] === '=' ? 1 : 2, [lines[paragraph.first]!.start, lines[i - 1]!.end]);
      paragraph = undefined;
      continue;
    }
    const fence = FENCE.exec(text);
    const last = fence && !(fence[2]![0] === '`' && fence[3]!.includes('`')) ? fenceEnd(lines, i, fence[2]!, fence[1]!.length) : text.trimStart().startsWith('<') ? htmlEnd(lines, i) : undefined;
    if (last !== undefined || THEMATIC_BREAK.test(text)) {
      top.content(i, last ?? i);
      i = last ?? i;
      paragraph = undefined;
      continue;
    }
    top.content(i, i);
    if (paragraph) paragraph.plain &&= !CONTAINER_START.test(text) && !text.includes('|');
    else paragraph = { first: i, plain: indentOf(text) === 0 && !CONTAINER_START.test(text) && !text.includes('|') && !text.startsWith('[') };
  }
  top.endRun();
  return { root: { type: 'root', children: top.children }, titles: top.titles };
}

const INLINE_TAG = /<\/?[A-Za-z][^<>]*>/g;

/** The tree of a plain markdown document by the line scanner, or undefined when only micromark can tell. */
export function scannedMarkdownTree(source: string): DocumentTree | undefined {
  if (UNSCANNABLE.test(source) || source.charCodeAt(0) === 0xfeff) return undefined;
  let scanned;
  try {
    scanned = scan(source);
  } catch (error) {
    if (error instanceof Unscannable) return undefined;
    throw error;
  }
  const { root, titles } = scanned;
  const start = (node: RootContent) => node.position!.start.offset!;
  const end = (node: RootContent) => node.position!.end.offset!;
  return {
    format: 'markdown',
    root,
    textOf: (nodes) => (nodes.length ? source.slice(start(nodes[0]!), end(nodes.at(-1)!)).trim() : ''),
    headingTitle(heading) {
      const [from, to] = titles.get(heading)!;
      return source.slice(from, to).replace(INLINE_TAG, '').replace(/\s+/g, ' ').trim();
    },
    isPinMarker: () => false,
  };
}
