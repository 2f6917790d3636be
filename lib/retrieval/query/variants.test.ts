import { describe, expect, it } from 'vitest';
import { selectContext } from '../explain/explain';
import { formatExplanation } from '../explain/format';
import { sectionsFromSources } from '../kb/load';
import { wordVariants } from './variants';
import { createRetrievalIndex } from '../select/build-index';

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

  it('never returns the word itself or a stub of under four letters', () => {
    for (const word of ['refund', 'an', 'plan', 'a', 'tour', 'span']) {
      const variants = wordVariants(word);
      expect(variants).not.toContain(word);
      expect(variants.every((v) => v.length >= 4)).toBe(true);
    }
  });

  it('does not turn ordinary words into other words', () => {
    expect(wordVariants('media')).not.toContain('median');
    expect(wordVariants('library')).not.toContain('librarian');
    expect(wordVariants('vegan')).not.toContain('vega');
    expect(wordVariants('filing')).not.toContain('filling');
    expect(wordVariants('ruling')).not.toContain('rulling');
    expect(wordVariants('tour')).not.toContain('tor');
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

  it('works the same without a typo index (typoWeight 0, or a KB over 5,000 sections), on stems', () => {
    const noTypos = createRetrievalIndex({ sections, synonyms: [] }, { budget: 1000, floor: 0, typoWeight: 0 });
    expect(noTypos.typos).toBeUndefined();
    expect(selectContext(noTypos, ['how do I optimise my videos?']).sections.find((s) => s.rank === 1)?.id).toBe('player.md#optimize-playback');
    // an inflected variant meets the KB's word on its stem: "optimised" → optimized → optim
    expect(selectContext(noTypos, ['optimised']).query.terms).toContainEqual({ term: 'optim', weight: 1, source: 'variant', from: 'optimised' });
  });

  it('gives the variant the typed word’s weight even when the previous message had the term at less', () => {
    const terms = selectContext(index, ['what color can the player be', 'and the colour of the buttons?']).query.terms;
    expect(terms.find((t) => t.term === 'color')).toMatchObject({ weight: 1, source: 'variant', from: 'colour' });
    // variants come before any typo correction, whatever the word order
    const both = selectContext(index, ['collor or colour']).query.terms;
    expect(both.find((t) => t.term === 'color')).toMatchObject({ weight: 1, source: 'variant' });
  });

  it('is off with wordVariants: false, and the explain CLI names the variant', () => {
    const off = createRetrievalIndex({ sections, synonyms: [] }, { budget: 1000, floor: 0, wordVariants: false, typoWeight: 0 });
    expect(selectContext(off, ['optimise']).counts.matched).toBe(0);
    // without variants, "colour" is left to typo correction, at typoWeight, as before they existed
    const typosOnly = createRetrievalIndex({ sections, synonyms: [] }, { budget: 1000, floor: 0, wordVariants: false });
    expect(selectContext(typosOnly, ['colour']).query.terms).toContainEqual({ term: 'color', weight: 0.5, source: 'typo', from: 'colour' });
    expect(formatExplanation(selectContext(index, ['optimise']))).toContain('spelling: optim (for "optimise")');
  });
});
