import type { ThinMatchTurn } from '../store/ports/inspector';

/**
 * Vocabulary gaps: words customers used that occur nowhere in the knowledge base, from turns
 * that matched it thinly — candidates for synonyms.json. Pure: the KB's analyzer and its
 * vocabulary come in, the turns come from the InspectorStore.
 */

export interface VocabularyGap {
  word: string;
  /** Turns whose question used the word, newest first (ids, at most 20). */
  turnIds: string[];
  count: number;
}

/** The KB's text pipeline (lib/retrieval's analyzer). */
export interface Analyzer {
  /** Text → the analyzed terms the index holds. */
  analyze(text: string): string[];
  /** Text → its distinct content words as typed (stop words out, not stemmed). */
  contentWords(text: string): string[];
}

/** Every analyzed term of the given texts: a KB's vocabulary. */
export function vocabularyOf(texts: Iterable<string>, analyzer: Pick<Analyzer, 'analyze'>): Set<string> {
  const terms = new Set<string>();
  for (const text of texts) for (const term of analyzer.analyze(text)) terms.add(term);
  return terms;
}

/** The words of `turns` (newest first) the KB's `vocabulary` does not know, most frequent first. */
export function vocabularyGaps(turns: readonly ThinMatchTurn[], vocabulary: ReadonlySet<string>, analyzer: Analyzer, limit = 50): VocabularyGap[] {
  const gaps = new Map<string, VocabularyGap>();
  for (const { id, question } of turns) {
    for (const word of analyzer.contentWords(question)) {
      // Known if any of its analyzed terms is in the KB: "refunds" meets "refund".
      if (/^\d+$/.test(word) || analyzer.analyze(word).some((term) => vocabulary.has(term))) continue;
      let gap = gaps.get(word);
      if (!gap) gaps.set(word, (gap = { word, turnIds: [], count: 0 }));
      gap.count++;
      if (gap.turnIds.length < 20) gap.turnIds.push(id);
    }
  }
  return [...gaps.values()].sort((a, b) => b.count - a.count || a.word.localeCompare(b.word)).slice(0, limit);
}
