/**
 * The context text: how selected sections are laid out for the model.
 *
 * Each section is one block, and blocks are concatenated in send order
 * (pinned in file order, then scored in rank order, then floor in file order):
 *
 *     ## Billing FAQ › Can I get a refund?
 *
 *     <the section's markdown body>
 *     <blank line>
 *
 * The heading line is the section's title path, so the model (and a person reading a
 * trace) can tell where one section ends and the next begins; the explanation's
 * `sentIds` gives the id of each block in the same order. Every block ends with a
 * blank line and starts with `#`: with o200k_base no token spans two blocks, so a
 * context's token count is exactly the sum of its blocks' counts and the budget
 * arithmetic done per section is exact for the whole text.
 */

export interface RenderableSection {
  id: string;
  title: string;
  parents: readonly string[];
  text: string;
  /** A part of a split section (split.ts). */
  part?: { index: number; count: number };
}

/** "(part 2 of 4)" for a part of a split section, else "". */
export function partLabel(section: Pick<RenderableSection, 'part'>): string {
  return section.part ? ` (part ${section.part.index} of ${section.part.count})` : '';
}

/** The heading path, outermost first: "Billing FAQ › Can I get a refund?". */
export function headingPath(section: Pick<RenderableSection, 'title' | 'parents'>): string {
  return [...section.parents, section.title].join(' › ');
}

/** The title path of the context text: the heading path, and "(part 2 of 4)" for a part. */
export function titlePath(section: Pick<RenderableSection, 'title' | 'parents' | 'part'>): string {
  return headingPath(section) + partLabel(section);
}

/** One section's block, exactly as it appears in the context text. */
export function renderSectionBlock(section: RenderableSection): string {
  return `## ${titlePath(section)}\n\n${section.text}\n\n`;
}
