import { PINNED_SHARE_ERROR, PINNED_SHARE_WARNING } from '../../retrieval/index';
import type { CheckContext } from '../context';
import type { Finding } from '../types';
import { percent } from './message-text';
import type { Check } from './types';

/** The pinned block takes over a third of the budget, over a half, or more than all of it. */
export const pinnedBudget: Check = {
  id: 'pinned-budget',
  kinds: ['pinned-budget'],
  run(context) {
    if (context.indexError) return { findings: [overBudgetFinding(context, context.indexError)] };
    if (context.pinnedShare > PINNED_SHARE_WARNING) return { findings: [largeShareFinding(context)] };
    return { findings: [] };
  },
};

function overBudgetFinding({ pinnedSections, pinnedTokens, pinnedShare, config }: CheckContext, error: Error): Finding {
  return {
    kind: 'pinned-budget',
    level: 'error',
    file: pinnedSections[0]?.source ?? '',
    line: pinnedSections[0]?.line,
    message: `${error.message} — nothing but the pinned block could ever be sent, so reachability was not checked`,
    suggestion: 'unpin reference material (see unpin candidates) or raise the budget',
    details: { pinnedTokens, budget: config.budget, share: pinnedShare },
  };
}

function largeShareFinding({ pinnedSections, pinnedTokens, pinnedShare, availableTokens, config }: CheckContext): Finding {
  const overHalf = pinnedShare > PINNED_SHARE_ERROR;
  return {
    kind: 'pinned-budget',
    level: overHalf ? 'error' : 'warning',
    file: pinnedSections[0]!.source,
    line: pinnedSections[0]!.line,
    message: `pinned sections take ${pinnedTokens} of ${config.budget} tokens (${percent(pinnedShare)}, over one ${overHalf ? 'half' : 'third'}): only ${availableTokens} tokens are left for the content that answers the question`,
    suggestion: 'keep only rules and verified facts pinned; unpin reference material (see unpin candidates)',
    details: {
      pinnedTokens,
      budget: config.budget,
      share: pinnedShare,
      sections: pinnedSections.map((s) => ({ id: s.id, tokens: s.tokens })),
    },
  };
}
