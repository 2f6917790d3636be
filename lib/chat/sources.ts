import type { KbPage, Selection } from '../retrieval/index';

/**
 * The sources of a reply: the help pages it was grounded in. Those are the pages of the
 * sections sent because they **scored** (matched the question), grouped by page, in the order
 * of each page's best-ranked section. Not among them:
 * - pinned sections (the assistant's rules and verified facts: sent with every question,
 *   never chosen for this one, and not pages a customer should be sent to);
 * - floor sections (sent in file order only because nothing matched well: not grounding).
 *
 * They travel to the client as the AI SDK's own source parts (`source-url` for a page with a
 * URL, `source-document` otherwise), so any AI SDK client shows them, and are stored with the
 * turn (the conversation history gives them back).
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

export type SourcePart =
  | { type: 'source-url'; sourceId: string; url: string; title: string }
  | { type: 'source-document'; sourceId: string; mediaType: string; title: string; filename: string };

/** The media type of a KB file, for a `source-document` part. */
function mediaTypeOf(file: string): string {
  if (/\.html?$/i.test(file)) return 'text/html';
  if (/\.mdx$/i.test(file)) return 'text/mdx';
  return 'text/markdown';
}

/** A source as the AI SDK's UI stream part (and UI message part: the same shape). */
export function sourcePart(source: ReplySource): SourcePart {
  return source.url
    ? { type: 'source-url', sourceId: source.page, url: source.url, title: source.title }
    : { type: 'source-document', sourceId: source.page, mediaType: mediaTypeOf(source.page), title: source.title, filename: source.page };
}
