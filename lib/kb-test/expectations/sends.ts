import { expectationKind, fail, listed, pass, sectionRefs } from './types';

/** `sends: [refs]` — each is sent (pinned, scored or by the floor). */
export const sends = expectationKind({
  key: 'sends',
  doc: 'these sections are sent (for any reason: pinned, scored or the floor)',
  schema: sectionRefs,
  needs: 'retrieval',
  refs: (refs) => refs,
  expected: (refs) => `sends ${listed(refs)}`,
  check(refs, { view, ref }) {
    const missing = refs.map(ref).filter((r) => !view.isSent(r));
    return missing.length ? fail(...missing.map((r) => view.describe(r)), view.sentSummary()) : pass;
  },
});
