import type { Knowledge } from '../knowledge/load';
import type { KbPage } from '../retrieval/index';

/**
 * The KB's pages that live on this site, under /help/ (front matter `url: /help/…`), by URL
 * (percent-encoded, as app/help/[...page] builds it). Worked out once per loaded KB.
 */
const byKnowledge = new WeakMap<Knowledge, Map<string, KbPage>>();

export function helpPagesByUrl(knowledge: Knowledge): Map<string, KbPage> {
  let pages = byKnowledge.get(knowledge);
  if (!pages) {
    pages = new Map([...knowledge.pages.values()].flatMap((p) => (p.url?.startsWith('/help/') ? [[p.url, p] as const] : [])));
    byKnowledge.set(knowledge, pages);
  }
  return pages;
}
