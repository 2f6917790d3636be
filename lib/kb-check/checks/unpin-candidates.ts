import { PINNED_SHARE_WARNING } from '../../retrieval/index';
import { ruleReader } from '../rule-languages';
import type { Finding } from '../types';
import type { Check } from './types';

/** Pinned sections at least this long, with no instruction, read as reference material. */
export const UNPIN_MIN_TOKENS = 150;
/** Share of a pinned section's units carrying a number above which it is a list of verified facts. */
const FACT_UNIT_SHARE = 0.5;

/**
 * Pinned sections that read as reference material: long, no instruction, few numbers. A section
 * in a language rules are not read in (rule-languages.ts) is never named: its instructions
 * cannot be told from its reference text.
 */
export const unpinCandidates: Check = {
  id: 'unpin-candidates',
  kinds: ['unpin-candidate'],
  run({ pinnedSections, pinnedShare, unitsOf }) {
    const findings: Finding[] = [];
    for (const s of pinnedSections) {
      const reader = ruleReader(s.language ?? 'en');
      if (s.tokens < UNPIN_MIN_TOKENS || !reader) continue;
      const units = unitsOf(s);
      if (units.some((u) => reader.isInstruction(u.text))) continue;
      const factShare = units.filter((u) => /\d/.test(u.text)).length / Math.max(1, units.length);
      if (factShare >= FACT_UNIT_SHARE) continue;
      findings.push({
        kind: 'unpin-candidate',
        level: pinnedShare > PINNED_SHARE_WARNING ? 'warning' : 'info',
        file: s.source,
        line: s.line,
        sectionId: s.id,
        message: `pinned section "${s.title}" (${s.tokens} tokens) reads as reference material: long, no instruction, few numbers — it costs ${s.tokens} tokens on every request`,
        suggestion: 'unpin it and let it be scored; keep pinned only the rules and verified facts in it',
        details: { tokens: s.tokens, units: units.length, factShare },
      });
    }
    return { findings };
  },
};
