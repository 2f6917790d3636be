import { describe, expect, it } from 'vitest';
import { sectionsFromSources } from './knowledge-base';
import { formatExplanation } from './report';
import { createRetrievalIndex, selectContext } from './select';
import { wordVariants } from './variants';

describe('wordVariants', () => {
  it('gives the other spelling of British/American pairs and place adjectives', () => {
    for (const [word, variant] of <[string, string][]>[
      ['optimise', 'optimize'],
      ['optimized', 'optimised'],
      ['organisation', 'organization'],
      ['analyse', 'analyze'],
      ['colour', 'color'],
      ['behavior', 'behaviour'],
      ['favourite', 'favorite'],
      ['centre', 'center'],
      ['meters', 'metres'],
      ['catalogue', 'catalog'],
      ['licence', 'license'],
      ['defense', 'defence'],
      ['cancelled', 'canceled'],
      ['traveling', 'travelling'],
      ['europe', 'european'],
      ['european', 'europe'],
      ['canada', 'canadian'],
      ['italy', 'italian'],
      ['america', 'american'],
    ]) {
      expect(wordVariants(word), word).toContain(variant);
    }
  });

  it('never returns the word itself or a stub of under three letters', () => {
    for (const word of ['refund', 'an', 'plan', 'a']) {
      const variants = wordVariants(word);
      expect(variants).not.toContain(word);
      expect(variants.every((v) => v.length >= 3)).toBe(true);
    }
  });
});

describe('spelling variants in the query', () => {
  const sections = sectionsFromSources([
    { file: 'player.md', text: '# Player color\nChange the player color in Settings.\n# Optimize playback\nOptimize videos for mobile viewers.' },
    { file: 'privacy.md', text: '# Data location\nVideos are stored in European data centers.\n# Four plans\nWe have four plans.' },
    { file: 'legal.md', text: '# Licence\nEach seat needs a licence.' },
  ]);
  const index = createRetrievalIndex({ sections, synonyms: [] }, { budget: 1000, floor: 0 });

  it('finds the KB spelling of a word the KB lacks, at the typed weight, and names the word typed', () => {
    const e = selectContext(index, ['how do I optimise my videos?']);
    expect(e.query.terms).toContainEqual({ term: 'optim', weight: 1, source: 'variant', from: 'optimise' });
    expect(e.sections.find((s) => s.rank === 1)?.id).toBe('player.md#optimize-playback');
    expect(selectContext(index, ['can I change the colour']).sections.find((s) => s.rank === 1)?.id).toBe('player.md#player-color');
    expect(selectContext(index, ['is my data kept in Europe']).sections.find((s) => s.rank === 1)?.id).toBe('privacy.md#data-location');
    // American customer, British KB
    expect(selectContext(index, ['do I need a license']).sections.find((s) => s.rank === 1)?.id).toBe('legal.md#licence');
  });

  it('leaves words the KB has alone, and prefers a variant to a typo correction', () => {
    expect(selectContext(index, ['four plans']).query.terms.every((t) => t.source === 'question')).toBe(true);
    // "colour" is one edit from "color" too: the spelling variant is used, not a typo correction at half weight
    const terms = selectContext(index, ['colour']).query.terms;
    expect(terms.filter((t) => t.source === 'typo')).toEqual([]);
    expect(terms).toContainEqual({ term: 'color', weight: 1, source: 'variant', from: 'colour' });
  });

  it('is off with wordVariants: false, and the explain CLI names the variant', () => {
    const off = createRetrievalIndex({ sections, synonyms: [] }, { budget: 1000, floor: 0, wordVariants: false, typoWeight: 0 });
    expect(selectContext(off, ['optimise']).counts.matched).toBe(0);
    expect(formatExplanation(selectContext(index, ['optimise']))).toContain('spelling: optim (for "optimise")');
  });
});
