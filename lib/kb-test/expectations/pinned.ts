import { expectationKind, fail, listed, pass, sectionRefs } from './types';

/** `pinned: [refs]` — each is a pinned section, and sent (the rules a question must always get). */
export const pinned = expectationKind({
  key: 'pinned',
  doc: 'these sections are pinned, and sent (the rules every answer must follow)',
  schema: sectionRefs,
  needs: 'retrieval',
  refs: (refs) => refs,
  expected: (refs) => `sends the pinned ${listed(refs)}`,
  check(refs, { view, ref }) {
    const wrong = refs.map(ref).filter((r) => !(r.units.every((u) => u.pinned) && view.isSent(r)));
    return wrong.length ? fail(...wrong.map((r) => `${r.units.every((u) => u.pinned) ? '' : 'NOT PINNED: '}${view.describe(r)}`)) : pass;
  },
});
