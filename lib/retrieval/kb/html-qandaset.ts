import type { Element, ElementContent, Nodes } from 'hast';
import { cellsOf, classesOf, isElement, rowsOf, textOf } from './hast-helpers';

/**
 * DocBook's question-and-answer sets (a FAQ: Valgrind's, many HOWTOs') as headings and text.
 * DocBook's stylesheets lay a set out as a table: a row per group title (`tr.qandadiv`, its
 * `<h3>`), a row per question (`tr.question`: its number, the question in bold) and a row per
 * answer (`tr.answer`: an anchor, the answer). Converted as a table, a whole FAQ was one table
 * of run-together cells inside one section (Valgrind's: 5,502 tokens), its group titles headings
 * inside cells, which start no section. Here each group title is the heading it is, each
 * question a heading one level below it (a bold paragraph when the set has no groups), each
 * answer its paragraphs and code: a section per group, the questions its sub-headings. The set's
 * list of its questions (a `<dl>` of numbered links at the top of `div.qandaset`) is a table of
 * contents: it matched every question asked of the FAQ, and is dropped.
 */

const HEADING = /^h([1-6])$/;

/** The level of the first heading under `node`, if any. */
function headingLevel(node: Element): number | undefined {
  const match = HEADING.exec(node.tagName);
  if (match) return Number(match[1]);
  for (const child of node.children) {
    if (!isElement(child)) continue;
    const level = headingLevel(child);
    if (level !== undefined) return level;
  }
  return undefined;
}

const element = (tagName: string, children: ElementContent[], from?: Element): Element => ({
  type: 'element',
  tagName,
  properties: {},
  children,
  ...(from?.position ? { position: from.position } : {}),
});

/** A DocBook Q&A table as a `<div>` of its group headings, question headings and answers, or undefined when `node` is not one. */
export function qandasetAsBlocks(node: Element): Element | undefined {
  if (node.tagName !== 'table') return undefined;
  const rows = rowsOf(node);
  const kinds = rows.map((row) => classesOf(row));
  if (!kinds.some((k) => k.includes('question')) || !kinds.some((k) => k.includes('answer'))) return undefined;
  const blocks: ElementContent[] = [];
  let groupLevel: number | undefined;
  rows.forEach((row, i) => {
    const cells = cellsOf(row);
    if (kinds[i]!.includes('qandadiv')) {
      for (const cell of cells) blocks.push(...cell.children);
      groupLevel = headingLevel(row) ?? groupLevel;
    } else if (kinds[i]!.includes('question')) {
      const question = cells.map(textOf).filter(Boolean).join(' ');
      const text: ElementContent = { type: 'text', value: question };
      blocks.push(groupLevel === undefined ? element('p', [element('strong', [text])], row) : element(`h${Math.min(6, groupLevel + 1)}`, [text], row));
    } else if (kinds[i]!.includes('answer')) {
      const answer = cells.at(-1);
      if (answer) blocks.push(...answer.children);
    }
  });
  return element('div', blocks, node);
}

/** Text outside links that is only numbering ("1.", "2.3.") and spaces. */
const NUMBERING = /^[\d.\s]*$/;

/** Whether `child` of `parent` is a Q&A set's list of its questions: a `<dl>` in `div.qandaset` of numbered links only. */
export function isQandasetContents(parent: Element, child: Nodes): boolean {
  if (child.type !== 'element' || child.tagName !== 'dl' || !classesOf(parent).includes('qandaset')) return false;
  let links = 0;
  let other = '';
  const walk = (n: ElementContent): void => {
    if (n.type === 'text') other += n.value;
    else if (n.type === 'element') {
      if (n.tagName === 'a' && n.properties?.href !== undefined) links++;
      else n.children.forEach(walk);
    }
  };
  walk(child);
  return links > 0 && NUMBERING.test(other);
}
