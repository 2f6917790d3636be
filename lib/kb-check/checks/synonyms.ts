import { checkSynonyms } from '../synonym-checks';
import type { Check } from './types';

/** Synonym groups that cannot work as intended (see `../synonym-checks.ts`). */
export const synonyms: Check = {
  id: 'synonyms',
  kinds: ['synonyms-unused', 'synonyms-duplicate'],
  run({ kb, scoredSections, scoredTermFrequencies, readSource }) {
    if (!kb.synonyms.length) return { findings: [] };
    const scoredTerms = new Set(scoredTermFrequencies().keys());
    const file = kb.synonymsFile ?? 'synonyms.json';
    return { findings: checkSynonyms(kb.synonyms, scoredSections, scoredTerms, file, readSource(file)) };
  },
};
