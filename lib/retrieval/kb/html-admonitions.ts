import type { Element, ElementContent } from 'hast';
import { cellsOf, classesOf, element, HEADING_TAG, isElement, rowsOf, textOf } from './hast-helpers';

/**
 * DocBook's admonitions (note, tip, important, caution, warning: Debian's manuals, PostgreSQL's,
 * FreeBSD's, GNOME's) as a quote that opens with the admonition's title in bold:
 *
 *   > **Warning**
 *   >
 *   > Back up first.
 *
 * DocBook writes them two ways, and neither reads well as markdown:
 * - with icons (`admon.graphics`), as a layout table of two rows: an icon cell spanning both and
 *   a `<th>` with the title, then a cell with the text. Converted as a table, every note was a
 *   table row with an image link and an empty cell, and a code block in it broke the table (a
 *   cell is one line).
 * - without, as a `<h3 class="title">` and the text: the title a heading, which would start a
 *   section of its own called "Note".
 * Anything else with these classes (a site's own `div.note` holding a data table) is left as it is.
 */

const ADMONITION_CLASSES = new Set(['note', 'tip', 'important', 'caution', 'warning']);

interface Admonition {
  title: string;
  body: ElementContent[];
}

const isIcon = (cell: Element): boolean => cell.tagName === 'td' && textOf(cell) === '' && cell.children.filter(isElement).some((c) => c.tagName === 'img');

/**
 * With icons: the only element is a table of two rows, [icon, `<th>` title] and [text cell] — or
 * [icon, title] with the text in the same row after the title.
 */
function withIcons(node: Element): Admonition | undefined {
  const elements = node.children.filter(isElement);
  if (elements.length !== 1 || elements[0]!.tagName !== 'table') return undefined;
  const rows = rowsOf(elements[0]!).map(cellsOf);
  if (rows.length < 1 || rows.length > 2) return undefined;
  const [icon, title, ...rest] = rows[0]!;
  if (!icon || !isIcon(icon) || !title || title.tagName !== 'th' || textOf(title) === '') return undefined;
  const textCells = [...rest, ...(rows[1] ?? [])];
  if (textCells.length !== 1 || textCells[0]!.tagName !== 'td') return undefined;
  return { title: textOf(title), body: textCells[0]!.children };
}

/** Without icons: the first element is a heading of class `title` with the title; the rest is the text. */
function withTitle(node: Element): Admonition | undefined {
  const first = node.children.find(isElement);
  if (!first || !HEADING_TAG.test(first.tagName) || !classesOf(first).includes('title')) return undefined;
  const title = textOf(first);
  return title === '' ? undefined : { title, body: node.children.filter((child) => child !== first) };
}

/** A DocBook admonition as a `<blockquote>` opening with its title in bold (its position kept), or undefined when `node` is not one. */
export function admonitionAsQuote(node: Element): Element | undefined {
  if (node.tagName !== 'div' || !classesOf(node).some((c) => ADMONITION_CLASSES.has(c))) return undefined;
  const admonition = withIcons(node) ?? withTitle(node);
  if (!admonition) return undefined;
  const title = element('p', [element('strong', [{ type: 'text', value: admonition.title }])]);
  return element('blockquote', [title, ...admonition.body], node);
}
