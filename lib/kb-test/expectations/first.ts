import { expectationKind, fail, pass, sectionRef } from './types';

/** `first: ref` — it (a section of it, for a page) ranks first among the matched sections. */
export const first = expectationKind({
  key: 'first',
  doc: 'this section (or a section of this page) ranks first',
  schema: sectionRef,
  needs: 'retrieval',
  refs: (r) => [r],
  expected: (r) => `ranks ${r} first`,
  check(r, { view, ref }) {
    const resolved = ref(r);
    if (view.bestRank(resolved) === 1) return pass;
    return fail(view.describe(resolved), `ranked first instead: ${view.ranked(1)[0] ?? 'nothing (no section matched)'}`);
  },
});
