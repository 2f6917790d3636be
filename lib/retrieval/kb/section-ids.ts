import { slug } from 'github-slugger';
import { headingPath } from '../context-text';
import type { ParsedSection } from './parse-document';
import type { LoadNotice } from '../types';

/**
 * Section ids: unique by construction, stable under edits elsewhere.
 *
 * 1. A heading whose slug (GitHub's) is unique in its file: `file#slug` —
 *    `billing/billing-faq.md#can-i-get-a-refund`. This is every id of a KB without
 *    repeated headings, and the id the loader has always given.
 * 2. Headings of one file that share a slug: each is qualified by its heading path,
 *    parents first, joined by `/` — `api.md#usage/example`, `api.md#advanced/example`.
 *    Slugs never contain `/`, so a qualified id cannot collide with a plain one.
 * 3. Two sections with the very same heading path in one file: the first keeps the
 *    qualified id, the next get `-2`, `-3`… in file order, and a `duplicate-heading`
 *    notice names both lines (kb:check warns). Never a refusal.
 * A part of a split section is `${sectionId}~${part}` (split.ts).
 *
 * So an id changes only when its own heading (or, for a qualified id, a parent) is
 * renamed, or when a heading with the same slug is added to or removed from its file.
 */

function headingSlug(section: ParsedSection): string {
  return slug(section.title) || `line-${section.line}`;
}

function qualifiedSlug(section: ParsedSection): string {
  return [...section.parents, section.title].map((t) => slug(t)).filter(Boolean).join('/') || headingSlug(section);
}

/** Ids (in the order given) for one file's sections, and a notice for each repeated heading path. */
export function assignSectionIds(file: string, sections: readonly ParsedSection[]): { ids: string[]; notices: LoadNotice[] } {
  const slugs = sections.map(headingSlug);
  const perSlug = new Map<string, number>();
  for (const s of slugs) perSlug.set(s, (perSlug.get(s) ?? 0) + 1);

  const taken = new Set(slugs.filter((s) => perSlug.get(s) === 1));
  const firstLine = new Map<string, number>();
  const notices: LoadNotice[] = [];
  const ids = sections.map((section, i) => {
    const plain = slugs[i]!;
    if (perSlug.get(plain) === 1) return `${file}#${plain}`;
    const qualified = qualifiedSlug(section);
    let id = qualified;
    for (let n = 2; taken.has(id); n++) id = `${qualified}-${n}`;
    taken.add(id);
    if (id !== qualified) {
      notices.push({
        kind: 'duplicate-heading',
        file,
        line: section.line,
        message: `the heading path "${headingPath(section)}" repeats line ${firstLine.get(qualified)}: this one is #${id}; rename one of them`,
      });
    } else {
      firstLine.set(qualified, section.line);
    }
    return `${file}#${id}`;
  });
  return { ids, notices };
}
