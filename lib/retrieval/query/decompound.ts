/**
 * Compound words (German "Paketverwaltung", "Verbindungsaufbau"; Dutch, Swedish, Danish,
 * Norwegian alike) split into the words they are made of, so "Pakete verwalten" meets
 * "Paketverwaltung". A dictionary splitter, as Lucene's DictionaryCompoundWordTokenFilter,
 * with the KB's own vocabulary as the dictionary: a word is split only into words the KB uses
 * on their own.
 *
 * - Only words of at least 2 × MIN_PART letters are split, into parts of at least MIN_PART.
 * - Heads are tried longest first; a head may end in a linking letter of the language ("s" in
 *   "Verbindungs|aufbau"), which is dropped when the head without it is a word.
 * - The tail must be a word or split itself; a head that is a compound is split too, so
 *   "Paketverwaltungsprogramm" gives paket, verwaltung, programm. At most MAX_PARTS parts.
 * - A word that cannot be split whole is left as it is (no partial splits).
 * - With the language's stemmer, a part is also a word when its stem is the stem of a KB word:
 *   a compound's parts stand in it uninflected, while the KB may use them only inflected
 *   ("Grafik|karte" when the KB has "Karten" but never "Karte"), and a modifier often stands
 *   in its stem form ("Sprach|kurs" beside "Sprache").
 *
 * The analyzer (analyzer.ts) indexes the parts and the whole word, as it does for "e-mail".
 */

export const MIN_PART = 4;
const MAX_PARTS = 4;
const LETTERS = /^\p{L}+$/u;

export interface Decompounder {
  /**
   * The parts of a lowercase word, or undefined when it is not a compound of the vocabulary's
   * words. `remember`: memoise the answer (while an index is built only: a memo filled from
   * customer text would grow with what they type, as analyzer.ts explains).
   */
  split(word: string, remember?: boolean): string[] | undefined;
}

/**
 * A test of whether a lowercase word is a KB word: in `vocabulary`, or — with the language's
 * stemmer — the stem of a vocabulary word (the stems are computed on first use). Shared by the
 * compound splitter and the separable-verb join (analyzer.ts).
 */
export function knownWordTest(vocabulary: ReadonlySet<string>, stem?: (word: string) => string): (word: string) => boolean {
  let stems: Set<string> | undefined;
  return (word) => {
    if (vocabulary.has(word)) return true;
    if (!stem) return false;
    stems ??= new Set([...vocabulary].map(stem));
    return stems.has(stem(word));
  };
}

/** A splitter whose parts must pass `isWord` (knownWordTest), with the language's linking letters. */
export function createDecompounder(isWord: (word: string) => boolean, linkers: readonly string[]): Decompounder {
  const memo = new Map<string, string[] | null>();

  function asPart(head: string): string | undefined {
    if (isWord(head)) return head;
    for (const l of linkers) {
      if (head.endsWith(l) && head.length - l.length >= MIN_PART && isWord(head.slice(0, -l.length))) return head.slice(0, -l.length);
    }
    return undefined;
  }

  function parts(word: string, budget: number): string[] | undefined {
    if (budget < 2 || word.length < 2 * MIN_PART) return undefined;
    for (let cut = word.length - MIN_PART; cut >= MIN_PART; cut--) {
      const head = asPart(word.slice(0, cut));
      if (!head) continue;
      const rest = word.slice(cut);
      const tail = isWord(rest) ? [rest] : parts(rest, budget - 1);
      if (!tail) continue;
      const heads = parts(head, budget - tail.length) ?? [head];
      return [...heads, ...tail];
    }
    return undefined;
  }

  return {
    split(word, remember = false) {
      if (word.length < 2 * MIN_PART || !LETTERS.test(word)) return undefined;
      let found = memo.get(word);
      if (found === undefined) {
        found = parts(word, MAX_PARTS) ?? null;
        if (remember) {
          if (memo.size >= 200_000) memo.clear();
          memo.set(word, found);
        }
      }
      return found ?? undefined;
    },
  };
}
