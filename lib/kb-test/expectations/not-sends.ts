import { expectationKind, fail, listed, pass, sectionRefs } from './types';

/** `not_sends: [refs]` — none of them is sent. */
export const notSends = expectationKind({
  key: 'not_sends',
  doc: 'none of these sections is sent',
  schema: sectionRefs,
  needs: 'retrieval',
  refs: (refs) => refs,
  expected: (refs) => `does not send ${listed(refs)}`,
  check(refs, { view, ref }) {
    const sent = refs.map(ref).filter((r) => view.isSent(r));
    return sent.length ? fail(...sent.map((r) => view.describe(r))) : pass;
  },
});
