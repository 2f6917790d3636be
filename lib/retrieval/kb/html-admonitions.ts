import type { Element, ElementContent } from 'hast';
import { toString } from 'mdast-util-to-string';

/**
 * DocBook's admonitions (note, tip, important, caution, warning: Debian's manuals, PostgreSQL's,
 * FreeBSD's, GNOME's) as a quote that opens with the admonition's title in bold:
 *
 *   > **Warning**
 *   >
 *   > Back up first.
 *
 * DocBook writes them two ways, and neither reads well as markdown:
 * - with icons (`admon.graphics`), as a layout table: an icon cell, a `<th>` with the title, and
 *   a cell with the text. Converted as a table, every note was a table row with an image link and
 *   an empty cell, and a code block in it broke the table (a cell is one line).
 * - without, as a `<h3 class="title">` and the text: the title a heading, which would start a
 *   section of its own called "Note".
 * Anything else with these classes is left as it is.
 */

const ADMONITION_CLASSES = new Set(['note', 'tip', 'important', 'caution', 'warning']);
const HEADING = /^h[1-6]$/;

interface Admonition {
  title: string;
  body: ElementContent[];
}

const isElement = (node: ElementContent): node is Element => node.type === 'element';
const classesOf = (node: Element): string[] => (Array.isArray(node.properties?.className) ? node.properties.className.map(String) : []);
const textOf = (node: Element): string => toString(node).replace(/\s+/g, ' ').trim();

/** The elements under `node` (itself included) with this tag name, in document order. */
function elementsNamed(node: Element, tagName: string): Element[] {
  const found: Element[] = [];
  const walk = (n: Element): void => {
    if (n.tagName === tagName) found.push(n);
    for (const child of n.children) if (isElement(child)) walk(child);
  };
  walk(node);
  return found;
}

/** With icons: the only element is a table whose `<th>` is the title; the text is in the cells that are more than an icon. */
function withIcons(node: Element): Admonition | undefined {
  const elements = node.children.filter(isElement);
  if (elements.length !== 1 || elements[0]!.tagName !== 'table') return undefined;
  const table = elements[0]!;
  const title = elementsNamed(table, 'th').map(textOf).find((t) => t !== '');
  if (title === undefined) return undefined;
  const isIcon = (cell: Element) => textOf(cell) === '' && elementsNamed(cell, 'img').length > 0;
  const body = elementsNamed(table, 'td').filter((cell) => !isIcon(cell)).flatMap((cell) => cell.children);
  return { title, body };
}

/** Without icons: the first element is a heading with the title; the rest is the text. */
function withTitle(node: Element): Admonition | undefined {
  const first = node.children.find(isElement);
  if (!first || !HEADING.test(first.tagName) || !classesOf(first).includes('title')) return undefined;
  const title = textOf(first);
  return title === '' ? undefined : { title, body: node.children.filter((child) => child !== first) };
}

/** A DocBook admonition as a `<blockquote>` opening with its title in bold (its position kept), or undefined when `node` is not one. */
export function admonitionAsQuote(node: Element): Element | undefined {
  if (node.tagName !== 'div' || !classesOf(node).some((c) => ADMONITION_CLASSES.has(c))) return undefined;
  const admonition = withIcons(node) ?? withTitle(node);
  if (!admonition) return undefined;
  const strong: Element = { type: 'element', tagName: 'strong', properties: {}, children: [{ type: 'text', value: admonition.title }] };
  return {
    type: 'element',
    tagName: 'blockquote',
    properties: {},
    children: [{ type: 'element', tagName: 'p', properties: {}, children: [strong] }, ...admonition.body],
    ...(node.position ? { position: node.position } : {}),
  };
}
