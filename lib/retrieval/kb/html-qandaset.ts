import type { Element, ElementContent, Nodes } from 'hast';
import { cellsOf, classesOf, element, HEADING_TAG, isElement, rowsOf, textOf } from './hast-helpers';

/**
 * DocBook's question-and-answer sets (a FAQ: Valgrind's, many HOWTOs') as headings and text.
 * DocBook's stylesheets lay a set out as a table: a row per group title (`tr.qandadiv`, its
 * `<h3>`), a row per question (`tr.question`: its number, the question in bold) and a row per
 * answer (`tr.answer`: an anchor, the answer). Converted as a table, a whole FAQ was one table
 * of run-together cells inside one section (Valgrind's: 5,502 tokens), its group titles headings
 * inside cells, which start no section. Here each group title is the heading it is, each
 * question a heading one level below it (a bold paragraph when the set has no groups), each
 * answer its paragraphs and code. The set's list of its questions (a `<dl>` of labelled links to
 * the questions' anchors at the top of `div.qandaset`) is a table of contents: it matched every
 * question asked of the FAQ, and is dropped. A table that only looks like one (a survey whose
 * rows are classed "question" and "answer") is left as it is.
 */

/** The level of the first heading under `node`, if any. */
function headingLevel(node: Element): number | undefined {
  const match = HEADING_TAG.exec(node.tagName);
  if (match) return Number(match[1]);
  for (const child of node.children) {
    if (!isElement(child)) continue;
    const level = headingLevel(child);
    if (level !== undefined) return level;
  }
  return undefined;
}

/** What DocBook writes in a Q&A table's `summary`; a table in a `div.qandaset` is one too. */
const QANDA_SUMMARY = /^q and a (set|div)$/i;
const ROW_KINDS = ['qandadiv', 'toc', 'question', 'answer'] as const;
type RowKind = (typeof ROW_KINDS)[number] | 'spacer';

const BLOCK = new Set(['p', 'pre', 'div', 'ul', 'ol', 'dl', 'table', 'blockquote']);

/** A row's kind by its class; a row of no class and no text is a spacer; anything else is not DocBook's. */
function kindOf(row: Element): RowKind | undefined {
  const classes = classesOf(row);
  const kind = ROW_KINDS.find((k) => classes.includes(k));
  if (kind) return kind;
  return textOf(row) === '' ? 'spacer' : undefined;
}

/**
 * A question row as a heading (a bold paragraph when the set has no groups, or its groups are
 * `<h6>` already): its number and the question's first line, and after the heading what else the
 * question holds (a pasted error message, code).
 */
function questionBlocks(row: Element, groupLevel: number | undefined): ElementContent[] {
  const cells = cellsOf(row);
  const label = cells.length > 1 ? cells.slice(0, -1).map(textOf).filter(Boolean).join(' ') : '';
  const question = cells.at(-1)?.children ?? [];
  let firstBlock = question.findIndex((n) => isElement(n) && BLOCK.has(n.tagName));
  let line = question.slice(0, firstBlock < 0 ? question.length : firstBlock);
  if (line.every((n) => textOf(n) === '') && firstBlock >= 0 && (question[firstBlock] as Element).tagName === 'p') {
    line = [question[firstBlock]!];
    firstBlock++;
  }
  const rest = firstBlock < 0 ? [] : question.slice(firstBlock);
  const text: ElementContent = { type: 'text', value: [label, ...line.map(textOf)].filter(Boolean).join(' ') };
  const heading = groupLevel === undefined || groupLevel >= 6 ? element('p', [element('strong', [text])], row) : element(`h${groupLevel + 1}`, [text], row);
  return [heading, ...rest];
}

/**
 * A DocBook Q&A table (`summary` "Q and A Set" or "Q and A Div", or any table directly in a
 * `div.qandaset`, every row a group title, a list of questions, a question, an answer or empty) as
 * a `<div>` of its group headings, question headings and answers; undefined when it is not one.
 */
export function qandasetAsBlocks(parent: Element | undefined, node: Element): Element | undefined {
  if (node.tagName !== 'table') return undefined;
  const summary = node.properties?.summary;
  if (!(typeof summary === 'string' && QANDA_SUMMARY.test(summary)) && !(parent && classesOf(parent).includes('qandaset'))) return undefined;
  const rows = rowsOf(node);
  const kinds = rows.map(kindOf);
  if (kinds.some((k) => k === undefined) || !kinds.includes('question') || !kinds.includes('answer')) return undefined;
  const blocks: ElementContent[] = [];
  let groupLevel: number | undefined;
  rows.forEach((row, i) => {
    if (kinds[i] === 'qandadiv') {
      for (const cell of cellsOf(row)) blocks.push(...cell.children);
      groupLevel = headingLevel(row) ?? groupLevel;
    } else if (kinds[i] === 'question') {
      blocks.push(...questionBlocks(row, groupLevel));
    } else if (kinds[i] === 'answer') {
      for (const cell of cellsOf(row)) blocks.push(...cell.children);
    }
  });
  return element('div', blocks, node);
}

/** A label of a list of questions: "1.", "2.3.", "A.1.", "Q:". */
const LABEL = /^([\p{L}\d]{1,4}[.:])+$/u;

/**
 * Whether `child` of `parent` is a Q&A set's list of its questions: a `<dl>` in `div.qandaset`
 * of links to anchors (`#…`) and labels only.
 */
export function isQandasetContents(parent: Element, child: Nodes): boolean {
  if (child.type !== 'element' || child.tagName !== 'dl' || !classesOf(parent).includes('qandaset')) return false;
  let links = 0;
  let anchorsOnly = true;
  let other = '';
  const walk = (n: ElementContent): void => {
    if (n.type === 'text') other += ` ${n.value}`;
    else if (n.type === 'element') {
      if (n.tagName === 'a' && n.properties?.href !== undefined) {
        links++;
        if (!String(n.properties.href).includes('#')) anchorsOnly = false;
      } else n.children.forEach(walk);
    }
  };
  walk(child);
  return links > 0 && anchorsOnly && other.split(/\s+/).filter(Boolean).every((word) => LABEL.test(word));
}
