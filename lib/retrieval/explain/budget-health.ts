import type { RetrievalIndex } from '../select/build-index';

/**
 * Budget health: how much of the KB the model can ever see, and how much of the budget
 * the pinned block takes before any question is asked.
 */

export const PINNED_SHARE_WARNING = 1 / 3;
export const PINNED_SHARE_ERROR = 1 / 2;

export interface BudgetHealth {
  sections: number;
  pinnedSections: number;
  kbTokens: number;
  kbCharacters: number;
  budget: number;
  /** budget ÷ KB tokens: the share of the KB one request can carry at most (capped at 1). */
  coverage: number;
  pinnedTokens: number;
  /** pinned tokens ÷ budget. */
  pinnedShare: number;
  /** Tokens left for scored and floor sections. */
  availableTokens: number;
  warnings: { level: 'warning' | 'error'; message: string }[];
}

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

export function budgetHealth(index: RetrievalIndex): BudgetHealth {
  const { budget } = index.config;
  const pinnedShare = index.pinnedTokens / budget;
  const coverage = Math.min(1, budget / Math.max(1, index.kbTokens));
  const warnings: BudgetHealth['warnings'] = [];
  if (pinnedShare > PINNED_SHARE_ERROR) {
    warnings.push({
      level: 'error',
      message: `pinned sections take ${percent(pinnedShare)} of the budget (over one half): scored knowledge is squeezed out`,
    });
  } else if (pinnedShare > PINNED_SHARE_WARNING) {
    warnings.push({
      level: 'warning',
      message: `pinned sections take ${percent(pinnedShare)} of the budget (over one third)`,
    });
  }
  return {
    sections: index.sections.length,
    pinnedSections: index.pinned.length,
    kbTokens: index.kbTokens,
    kbCharacters: index.sections.reduce((sum, s) => sum + s.text.length, 0),
    budget,
    coverage,
    pinnedTokens: index.pinnedTokens,
    pinnedShare,
    availableTokens: budget - index.pinnedTokens,
    warnings,
  };
}
