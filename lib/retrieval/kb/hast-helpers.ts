import type { Element, ElementContent } from 'hast';

/** Small readers of hast trees shared by the HTML rewrites (html-admonitions.ts, html-qandaset.ts, html-navigation.ts). */

export const isElement = (node: ElementContent): node is Element => node.type === 'element';

/** A heading's tag (`h1` … `h6`), its level captured. */
export const HEADING_TAG = /^h([1-6])$/;

/** A new element, with the position of `from` when given (a section's line is its first block's). */
export const element = (tagName: string, children: ElementContent[], from?: Element): Element => ({
  type: 'element',
  tagName,
  properties: {},
  children,
  ...(from?.position ? { position: from.position } : {}),
});

export const classesOf = (node: Element): string[] => (Array.isArray(node.properties?.className) ? node.properties.className.map(String) : []);

/** The text of a node, comments left out, whitespace runs made one. */
export function textOf(node: ElementContent): string {
  const parts: string[] = [];
  const walk = (n: ElementContent): void => {
    if (n.type === 'text') parts.push(n.value);
    else if (n.type === 'element') n.children.forEach(walk);
  };
  walk(node);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** A table's own rows (in its `<thead>`, `<tbody>`, `<tfoot>` or directly in it), not those of a table nested in a cell. */
export function rowsOf(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of table.children.filter(isElement)) {
    if (child.tagName === 'tr') rows.push(child);
    else if (['thead', 'tbody', 'tfoot'].includes(child.tagName)) rows.push(...child.children.filter(isElement).filter((row) => row.tagName === 'tr'));
  }
  return rows;
}

/** A row's cells. */
export const cellsOf = (row: Element): Element[] => row.children.filter(isElement).filter((cell) => cell.tagName === 'td' || cell.tagName === 'th');
