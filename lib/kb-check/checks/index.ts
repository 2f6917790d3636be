import { declaredRules } from './declared-rules';
import { factsDisagree } from './facts-disagree';
import { identity } from './identity';
import { languages } from './languages';
import { loadReport } from './load-report';
import { splitSections } from './split-sections';
import { pinnedBudget } from './pinned-budget';
import { repeatedSections } from './repeated-sections';
import { synonyms } from './synonyms';
import type { Check } from './types';
import { unpinCandidates } from './unpin-candidates';
import { unpinnedRules } from './unpinned-rules';
import { unsendableSections } from './unsendable-sections';

/**
 * Every check `kb:check` runs, in report order: findings are sorted by the position of
 * their kind in `CHECKS.flatMap((c) => c.kinds)`, and summary `skipped` entries follow
 * this order. A new check is a module in this folder plus one line here.
 */
export const CHECKS: readonly Check[] = [
  declaredRules,
  unpinnedRules,
  unsendableSections,
  pinnedBudget,
  unpinCandidates,
  factsDisagree,
  synonyms,
  loadReport,
  identity,
  languages,
  splitSections,
  repeatedSections,
];
