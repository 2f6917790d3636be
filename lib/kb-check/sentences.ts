import type { Nodes, PhrasingContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';

/**
 * Markdown body → the units of prose the checks read: sentences, list items, headings
 * inside the body, and table cells. Parsed with mdast, so code blocks, HTML comments and
 * link targets are never read as prose, and `**bold**`, `_emphasis_` and links keep only
 * their text.
 *
 * - A paragraph is split into sentences (see `splitSentences`).
 * - A list item's paragraphs are split the same way; a list item without a full stop is
 *   one sentence.
 * - A heading inside a body (`####` and deeper) is one unit.
 * - Code blocks, HTML and thematic breaks are skipped; inline code keeps its text.
 * - A pipe table (a paragraph whose lines all start with `|`) becomes one unit per data
 *   cell, worded "row label (column header): cell", so "| Storage | 50 GB |" under the
 *   header "| | Starter |" reads "Storage (Starter): 50 GB". The parser has no GFM table
 *   extension, so tables are recognised here.
 *
 * Every unit keeps the offset of its first character in the body, so a finding can name
 * its line: the section's body line plus the newlines before that offset.
 */

export type UnitKind = 'sentence' | 'list-item' | 'heading' | 'table-cell';

export interface TextUnit {
  /** Plain text: markdown syntax removed, whitespace collapsed. */
  text: string;
  /** Offset in the markdown body of the unit's first character. */
  offset: number;
  kind: UnitKind;
}

/** Plain text of inline content, with each character's offset in the source. */
interface Flat {
  text: string;
  offsets: number[];
}

function flatten(nodes: readonly PhrasingContent[], out: Flat): void {
  for (const node of nodes) {
    const start = node.position?.start.offset ?? out.offsets.at(-1) ?? 0;
    const end = node.position?.end.offset ?? start;
    switch (node.type) {
      case 'text':
      case 'inlineCode': {
        // Inline code's value excludes the backticks: its text starts one mark in.
        const base = node.type === 'inlineCode' ? start + 1 : start;
        for (let i = 0; i < node.value.length; i++) {
          out.text += node.value[i];
          out.offsets.push(Math.min(base + i, end));
        }
        break;
      }
      case 'break':
        out.text += ' ';
        out.offsets.push(start);
        break;
      case 'image':
        for (let i = 0; i < (node.alt ?? '').length; i++) {
          out.text += node.alt![i];
          out.offsets.push(start);
        }
        break;
      case 'html':
      case 'imageReference':
      case 'footnoteReference':
        break;
      default:
        if ('children' in node) flatten(node.children as PhrasingContent[], out);
    }
  }
}

const ABBREVIATIONS = new Set([
  'e.g', 'i.e', 'etc', 'vs', 'approx', 'incl', 'excl', 'no', 'nr', 'mr', 'mrs', 'ms', 'dr', 'st',
  'inc', 'ltd', 'co', 'corp', 'fig', 'cf', 'min', 'max', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul',
  'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun',
]);

/**
 * Abbreviations with a full stop in German, French and Spanish texts (Duden's, the Imprimerie
 * nationale's and the RAE's common lists, as far as a help page uses them): a sentence does not
 * end after them. Their letter-dot forms ("z.B", "d.h") are caught by the single-letter rule.
 */
const LANGUAGE_ABBREVIATIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  de: new Set([...ABBREVIATIONS, 'ca', 'bzw', 'usw', 'ggf', 'evtl', 'inkl', 'exkl', 'zzgl', 'vgl', 'mind', 'max', 'min', 'nr', 'str', 'tel', 'abs', 'bsp', 'ebd', 'sog', 'jh', 'mio', 'mrd', 'dt', 'allg', 'bspw']),
  fr: new Set([...ABBREVIATIONS, 'env', 'ex', 'cf', 'etc', 'mme', 'mlle', 'no', 'tél', 'max', 'min', 'av', 'bd', 'fig', 'vol', 'chap', 'éd', 'hab']),
  es: new Set([...ABBREVIATIONS, 'aprox', 'ej', 'etc', 'sr', 'sra', 'srta', 'dto', 'núm', 'nº', 'ud', 'uds', 'pág', 'págs', 'tel', 'tfno', 'máx', 'mín', 'avda', 'cía', 'admón', 'dpto']),
};

/**
 * Sentence boundaries: `.`, `!` or `?` (and any closing quote or bracket after it),
 * then whitespace, then a capital letter, digit, quote, bracket or `*`. Not after a known
 * abbreviation ("e.g.", "etc.", "Inc."; in German, French and Spanish text also theirs:
 * "ca.", "bzw.", "env.", "aprox.") or a single capital letter ("B.V."); numbers ("$0.06"),
 * versions ("H.264") and addresses ("status.example.com") have no space after the dot, so
 * they never split.
 */
export function splitSentences(text: string, language = 'en'): { text: string; start: number }[] {
  const abbreviations = LANGUAGE_ABBREVIATIONS[language] ?? ABBREVIATIONS;
  const out: { text: string; start: number }[] = [];
  const boundary = /[.!?]["'”’)\]]*\s+(?=["'“‘(\[*]?[\p{Lu}\p{N}])/gu;
  let start = 0;
  for (const match of text.matchAll(boundary)) {
    const before = text.slice(start, match.index!);
    const lastWord = /([\p{L}.]+)$/u.exec(before)?.[1]?.toLowerCase() ?? '';
    if (text[match.index!] === '.' && (abbreviations.has(lastWord) || /^\p{L}$/u.test(lastWord) || /(^|\.)\p{L}\.\p{L}$/u.test(lastWord))) continue;
    pushTrimmed(text, start, match.index! + match[0].trimEnd().length, out);
    start = match.index! + match[0].length;
  }
  pushTrimmed(text, start, text.length, out);
  return out;
}

function pushTrimmed(text: string, start: number, end: number, out: { text: string; start: number }[]): void {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s]!)) s++;
  while (e > s && /\s/.test(text[e - 1]!)) e--;
  if (e > s) out.push({ text: text.slice(s, e), start: s });
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

function splitCells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => collapse(c.replace(/\\\|/g, '|')));
}

const TABLE_DELIMITER = /^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$/;

/** Units of a pipe table written as one paragraph; undefined when it is not a table. */
function tableUnits(flat: Flat): TextUnit[] | undefined {
  const lines: { text: string; start: number }[] = [];
  let start = 0;
  for (let i = 0; i <= flat.text.length; i++) {
    if (i === flat.text.length || flat.text[i] === '\n') {
      lines.push({ text: flat.text.slice(start, i), start });
      start = i + 1;
    }
  }
  if (lines.length < 2 || !lines.every((l) => l.text.trim().startsWith('|'))) return undefined;
  if (!TABLE_DELIMITER.test(lines[1]!.text.trim())) return undefined;
  const header = splitCells(lines[0]!.text);
  const units: TextUnit[] = [];
  for (const line of lines.slice(2)) {
    const cells = splitCells(line.text);
    const rowLabel = cells[0] ?? '';
    cells.slice(1).forEach((cell, c) => {
      if (!cell) return;
      const column = header[c + 1] ?? '';
      const label = [rowLabel, column && `(${column})`].filter(Boolean).join(' ');
      units.push({ text: label ? `${label}: ${cell}` : cell, offset: flat.offsets[line.start] ?? 0, kind: 'table-cell' });
    });
  }
  return units;
}

function paragraphUnits(children: readonly PhrasingContent[], kind: 'sentence' | 'list-item', language: string, out: TextUnit[]): void {
  const flat: Flat = { text: '', offsets: [] };
  flatten(children, flat);
  const table = tableUnits(flat);
  if (table) {
    out.push(...table);
    return;
  }
  for (const s of splitSentences(flat.text, language)) {
    out.push({ text: collapse(s.text), offset: flat.offsets[s.start] ?? 0, kind });
  }
}

function walk(node: Nodes, inList: boolean, language: string, out: TextUnit[]): void {
  switch (node.type) {
    case 'paragraph':
      paragraphUnits(node.children, inList ? 'list-item' : 'sentence', language, out);
      return;
    case 'heading': {
      const flat: Flat = { text: '', offsets: [] };
      flatten(node.children, flat);
      const text = collapse(flat.text);
      if (text) out.push({ text, offset: flat.offsets[0] ?? 0, kind: 'heading' });
      return;
    }
    case 'code':
    case 'html':
    case 'thematicBreak':
    case 'definition':
    case 'yaml':
      return;
    case 'listItem':
      for (const child of node.children) walk(child, true, language, out);
      return;
    default:
      if ('children' in node) for (const child of node.children) walk(child as Nodes, inList, language, out);
  }
}

/** The prose units of a markdown body, in order; `language`: the body's (its abbreviations). */
export function textUnits(markdown: string, language = 'en'): TextUnit[] {
  const out: TextUnit[] = [];
  walk(fromMarkdown(markdown), false, language, out);
  return out;
}
