import { z } from 'zod';
import { expectationKind, fail, listed, pageRef, pass } from './types';

/** `sources: [pages]` — each is among the reply's sources (the pages of the sections that scored); `sources: []`: the reply lists none. */
export const sources = expectationKind({
  key: 'sources',
  doc: 'these pages are among the sources listed under the reply (the pages of the sections that scored); `[]`: no sources',
  schema: z.union([pageRef, z.array(pageRef)]).transform((v) => (Array.isArray(v) ? v : [v])),
  needs: 'retrieval',
  refs: (pages) => pages,
  expected: (pages) => (pages.length ? `lists ${listed(pages)} as sources` : 'lists no sources'),
  check(pages, { view, ref }) {
    const listedPages = new Set(view.retrieval.sources.map((s) => s.page));
    if (!pages.length) return listedPages.size ? fail(`the sources: ${[...listedPages].join(', ')}`, view.sentSummary()) : pass;
    const missing = pages.filter((p) => !listedPages.has(p));
    if (!missing.length) return pass;
    return fail(...missing.map((p) => view.describe(ref(p))), `the sources: ${[...listedPages].join(', ') || 'none (nothing scored)'}`);
  },
});
