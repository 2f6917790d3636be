import type { Element, Nodes } from 'hast';
import { classesOf, HEADING_TAG } from './hast-helpers';

/**
 * The previous/up/next panels documentation generators put on every page, beyond the classes and
 * roles formats.ts drops (DocBook's navheader and navfooter, `role="navigation"`, `<nav>`):
 * - a table whose `summary` is "Navigation header" or "Navigation footer": what DocBook's
 *   stylesheets write, kept by those that drop the navheader class (Valgrind's manual, gtk-doc);
 * - Texinfo's panel before 7.x (GNU manuals): a `div.header` at the top and the foot of every node.
 */

const NAVIGATION_SUMMARY = /^navigation (header|footer)$/i;
const NAVIGATION_RELS = new Set(['next', 'prev', 'previous', 'up']);

/** Most words a navigation panel has outside its links ("Next: …, Previous: …, Up: … [Index]"). */
const NAVIGATION_LABEL_WORDS = 6;

/**
 * Texinfo's Next/Previous/Up panel: a `div.header` of links and a few words besides ("Next:",
 * "Up:"), with no heading, and either a link whose rel is next, prev or up, or (the foot's links
 * have no rel) two links or more.
 */
function isTexinfoPanel(node: Element): boolean {
  if (node.tagName !== 'div' || !classesOf(node).includes('header')) return false;
  let links = 0;
  let navigationRel = false;
  let heading = false;
  let words = 0;
  const walk = (n: Nodes, inLink: boolean): void => {
    if (n.type === 'text') {
      if (!inLink) words += n.value.split(/[^\p{L}\p{N}]+/u).filter(Boolean).length;
      return;
    }
    if (n.type !== 'element') return;
    if (HEADING_TAG.test(n.tagName)) heading = true;
    const isLink = n.tagName === 'a' && n.properties?.href !== undefined;
    if (isLink) {
      links++;
      if (Array.isArray(n.properties.rel) && n.properties.rel.some((r) => NAVIGATION_RELS.has(String(r)))) navigationRel = true;
    }
    for (const child of n.children) walk(child, inLink || isLink);
  };
  walk(node, false);
  return !heading && words <= NAVIGATION_LABEL_WORDS && (navigationRel ? links >= 1 : links >= 2);
}

/** Whether `node` is one of these panels. */
export function isNavigationPanel(node: Element): boolean {
  const { summary } = node.properties ?? {};
  return (typeof summary === 'string' && NAVIGATION_SUMMARY.test(summary)) || isTexinfoPanel(node);
}
