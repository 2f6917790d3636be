import { describe, expect, it } from 'vitest';
import { analyze, contentWords, sectionsFromSources } from '../retrieval/index';
import { vocabularyGaps, vocabularyOf } from './gaps';

const analyzer = { analyze, contentWords };
const sections = sectionsFromSources([
  { file: 'rules.md', text: '---\npinned: true\n---\n# Rules\nNever promise a refund.' },
  { file: 'refunds.md', text: '# Refund policy\nRefunds within 14 days.\n## Annual plans\nAnnual refunds are pro-rated.' },
]);

describe('vocabularyGaps', () => {
  it('reports customer words found nowhere in the KB vocabulary (through the KB analyzer), most frequent first', () => {
    const vocabulary = vocabularyOf(sections.map((s) => `${s.title}\n${s.text}`), analyzer);
    const turns = [
      { id: 'turn-2', question: 'cheap plan for my podcast' },
      { id: 'turn-1', question: 'is it cheap? 2024' },
    ];
    const gaps = vocabularyGaps(turns, vocabulary, analyzer);
    expect(gaps[0]).toEqual({ word: 'cheap', count: 2, turnIds: ['turn-2', 'turn-1'] });
    expect(gaps.map((g) => g.word)).toEqual(['cheap', 'podcast']); // "plan" meets "Annual plans"; numbers are never gaps
    expect(vocabularyGaps(turns, vocabulary, analyzer, 1)).toHaveLength(1);
  });

  it('uses the analyzer it is given', () => {
    const shouting = { analyze: (t: string) => t.split(/\s+/).filter(Boolean), contentWords: (t: string) => t.split(/\s+/).filter(Boolean) };
    expect(vocabularyGaps([{ id: 't', question: 'REFUND refund' }], new Set(['refund']), shouting).map((g) => g.word)).toEqual(['REFUND']);
  });
});
