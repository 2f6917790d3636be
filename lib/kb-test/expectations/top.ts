import { z } from 'zod';
import { expectationKind, fail, listed, pass, sectionRefs } from './types';

/** `top: { n: 3, sections: [refs] }` — each ranks within the first n matched sections. */
export const top = expectationKind({
  key: 'top',
  doc: '`{ n: N, sections: [...] }`: each of these ranks within the first N',
  schema: z.strictObject({ n: z.number().int().min(1).max(1000), sections: sectionRefs }),
  needs: 'retrieval',
  refs: (value) => value.sections,
  expected: ({ n, sections }) => `ranks ${listed(sections)} within the top ${n}`,
  check({ n, sections }, { view, ref }) {
    const outside = sections.map(ref).filter((r) => (view.bestRank(r) ?? Infinity) > n);
    if (!outside.length) return pass;
    return fail(...outside.map((r) => view.describe(r)), `the top ${n}: ${view.ranked(n).join('; ') || 'nothing matched'}`);
  },
});
