import { z } from 'zod';
import { expectationKind, fail, pass } from './types';

/** `floor: true | false` — the floor filled in (nothing matched well) or did not. */
export const floor = expectationKind({
  key: 'floor',
  doc: '`true`: the floor filled in (nothing matched well enough); `false`: it did not',
  schema: z.boolean(),
  needs: 'retrieval',
  expected: (used) => (used ? 'uses the floor' : 'uses no floor'),
  check(used, { view }) {
    if (view.retrieval.selection.floorUsed === used) return pass;
    const e = view.explanation;
    if (e.floorUsed) {
      return fail(
        `the floor was used: the scored sections came to ${e.tokens.scored} tokens, under the floor of ${e.config.floor}; ${e.counts.floor} sections added in file order`,
        `query terms: ${view.terms()}; top score ${e.topScore.toFixed(2)}; ranked: ${view.ranked(3).join('; ') || 'nothing matched'}`,
      );
    }
    return fail(`the floor was not used: ${e.counts.scored} sections scored (${e.tokens.scored} tokens): ${view.ranked(3).join('; ')}`);
  },
});
