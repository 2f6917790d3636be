import type { KbPage, Selection } from '../retrieval/index';

/**
 * The sources of a reply: the help pages it was grounded in. Those are the pages of the
 * sections sent because they **scored** (matched the question), grouped by page, in the order
 * of each page's best-ranked section. Not among them:
 * - pinned sections (the assistant's rules and verified facts: sent with every question,
 *   never chosen for this one, and not pages a customer should be sent to);
 * - floor sections (sent in file order only because nothing matched well: not grounding).
 *
 * They travel to the client as the AI SDK's own source parts (lib/chat/source-parts.ts), and
 * are stored with the turn (the conversation history gives them back).
 */

export interface ReplySource {
  /** The page's file, relative to the KB root: the part's `sourceId`. */
  page: string;
  title: string;
  url?: string;
}

export function replySources(selection: Selection, pages: ReadonlyMap<string, KbPage>): ReplySource[] {
  const sources = new Map<string, ReplySource>();
  for (const sent of selection.sent) {
    if (sent.reason !== 'scored') continue;
    const section = selection.index.pool[sent.doc]!;
    if (sources.has(section.source)) continue;
    const page = pages.get(section.source);
    const title = page?.title ?? section.parents[0] ?? section.title;
    sources.set(section.source, { page: section.source, title, ...(page?.url ? { url: page.url } : {}) });
  }
  return [...sources.values()];
}
