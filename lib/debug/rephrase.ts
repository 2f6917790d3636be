import type { ConversationTurn } from '../store/ports/inspector';
import type { Analyzer } from './gaps';

/**
 * Synonym candidates learned from rephrasing. When a customer's question matched the KB
 * thinly (the floor filled in, or the best score was low) and their next question in the
 * same conversation matched well, they probably said the same thing twice: the words of the
 * first that the KB does not know, and the KB words the second added, are candidate synonym
 * pairs ("laggy" → "buffering"). Pure: the turns come from the InspectorStore, what the KB
 * knows from the caller. Nothing is applied: synonymsWithCandidates() writes the
 * synonyms.json a support lead may paste.
 */

export interface RephraseOptions {
  /** A question matched thinly below this top score (or when the floor was used). Default 2, as vocabulary gaps. */
  lowScore?: number;
  /** The next question matched well from this top score (and no floor). Default 4. */
  goodScore?: number;
}

export interface RephraseExample {
  conversationId: string;
  /** The question that matched thinly, and the rephrasing that matched. */
  first: { turnId: string; question: string };
  second: { turnId: string; question: string };
}

export interface SynonymCandidate {
  /** The customer's word the KB does not know, as typed. */
  word: string;
  /** The KB word it was most often rephrased as. */
  as: string;
  /** Conversations in which `word` was rephrased as `as`. */
  count: number;
  /** Other KB words the rephrasings added, most often first. */
  alsoAs: string[];
  /** Up to three conversations it was seen in, newest first. */
  examples: RephraseExample[];
}

/** Which words the KB knows: a word that occurs in it, or is in one of its synonym groups. */
export type KnownWord = (word: string) => boolean;

const thin = (t: ConversationTurn, low: number) => t.floorUsed || t.topScore < low;
const good = (t: ConversationTurn, high: number) => !t.floorUsed && t.topScore >= high;

/** The rephrasings: consecutive questions of one conversation, the first thin and the second good. */
export function rephrasings(turns: readonly ConversationTurn[], options: RephraseOptions = {}): [ConversationTurn, ConversationTurn][] {
  const { lowScore = 2, goodScore = 4 } = options;
  const pairs: [ConversationTurn, ConversationTurn][] = [];
  for (let i = 0; i + 1 < turns.length; i++) {
    const [a, b] = [turns[i]!, turns[i + 1]!];
    if (a.conversationId === b.conversationId && thin(a, lowScore) && good(b, goodScore)) pairs.push([a, b]);
  }
  return pairs;
}

/** The candidates, most frequent first: one per unknown word, with the KB word it was most often rephrased as. */
export function synonymCandidates(
  turns: readonly ConversationTurn[],
  analyzer: Analyzer,
  known: KnownWord,
  options: RephraseOptions & { limit?: number } = {},
): SynonymCandidate[] {
  const byWord = new Map<string, { as: Map<string, number>; examples: RephraseExample[] }>();
  for (const [first, second] of rephrasings(turns, options)) {
    const unknown = analyzer.contentWords(first.question).filter((w) => !/^\d+$/.test(w) && !known(w));
    const before = new Set(analyzer.analyze(first.question));
    const added = analyzer.contentWords(second.question).filter((w) => known(w) && !analyzer.analyze(w).some((t) => before.has(t)));
    if (unknown.length === 0 || added.length === 0) continue;
    const example: RephraseExample = {
      conversationId: first.conversationId,
      first: { turnId: first.id, question: first.question },
      second: { turnId: second.id, question: second.question },
    };
    for (const word of new Set(unknown.map((w) => w.toLowerCase()))) {
      let entry = byWord.get(word);
      if (!entry) byWord.set(word, (entry = { as: new Map(), examples: [] }));
      for (const kbWord of new Set(added.map((w) => w.toLowerCase()))) entry.as.set(kbWord, (entry.as.get(kbWord) ?? 0) + 1);
      entry.examples.push(example);
    }
  }
  const candidates = [...byWord].map(([word, entry]): SynonymCandidate => {
    const ranked = [...entry.as].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    return {
      word,
      as: ranked[0]![0],
      count: ranked[0]![1],
      alsoAs: ranked.slice(1).map(([w]) => w),
      examples: entry.examples.slice(-3).reverse(),
    };
  });
  return candidates.sort((a, b) => b.count - a.count || a.word.localeCompare(b.word)).slice(0, options.limit ?? 30);
}

/**
 * The synonym groups with the candidates added: each candidate's word joins the first group
 * that holds its KB word (compared as analyzed terms, so "refunds" finds "refund"), or starts
 * a new group with it. Returns the new groups and, per candidate, where it went.
 */
export function synonymsWithCandidates(
  groups: readonly (readonly string[])[],
  candidates: readonly Pick<SynonymCandidate, 'word' | 'as'>[],
  analyze: Analyzer['analyze'],
): { groups: string[][]; placed: { word: string; group: number; created: boolean }[] } {
  const next = groups.map((g) => [...g]);
  const sameTerms = (a: string, b: string) => analyze(a).join(' ') === analyze(b).join(' ');
  const placed: { word: string; group: number; created: boolean }[] = [];
  for (const { word, as } of candidates) {
    if (next.some((g) => g.some((w) => sameTerms(w, word)))) continue; // already in a group
    const at = next.findIndex((g) => g.some((w) => sameTerms(w, as)));
    if (at >= 0) {
      next[at]!.push(word);
      placed.push({ word, group: at, created: false });
    } else {
      next.push([as, word]);
      placed.push({ word, group: next.length - 1, created: true });
    }
  }
  return { groups: next, placed };
}

/** A synonyms.json text in the demo KB's layout: one group per line. */
export function formatSynonymsFile(groups: readonly (readonly string[])[]): string {
  const lines = groups.map((g) => `    ${JSON.stringify(g).replace(/","/g, '", "')}`);
  return `{\n  "groups": [\n${lines.join(',\n')}\n  ]\n}\n`;
}
