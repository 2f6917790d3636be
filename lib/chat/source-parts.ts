import type { ReplySource } from '../knowledge/sources';

/**
 * A reply's sources (lib/knowledge/sources.ts) as the AI SDK's own source parts: `source-url`
 * for a page with a URL, `source-document` otherwise, so any AI SDK client shows them.
 */

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
