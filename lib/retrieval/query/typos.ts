import { type Steps, runSteps } from '../steps';
import { contentWords } from './analyzer';
import { LruMemo, ownCopy } from './lru-memo';

/**
 * Typo tolerance: a word the customer typed that the knowledge base does not contain
 * ("refnud", "vidoe", "subscripton") is matched to the KB's words one edit away
 * ("refund", "video", "subscription"): one letter inserted, deleted, replaced, or two
 * neighbouring letters swapped (optimal string alignment distance 1).
 *
 * - Only unknown words are corrected: a word that is in the KB is taken as typed.
 * - Only words of at least MIN_TYPO_LENGTH letters (no digits) are corrected, against KB
 *   words of at least MIN_TYPO_LENGTH − 1 letters: short words have too many neighbours.
 * - The first letter must match: people rarely mistype it, and allowing it turned
 *   "yearly" into "early" and "nearly" on the golden set.
 * - Words are compared before stemming (stems hide typos: "subscripton" is one edit from
 *   "subscription" but two from its stem "subscript"). A correction then enters the
 *   query as the corrected word's term, with weight `typoWeight` (config.ts) × the weight
 *   of the typed word, and the explanation names the word it came from.
 * - Lookup uses a deletion index (every KB word with one letter removed → the words), so
 *   a question costs a few map lookups per unknown word, not a scan of the vocabulary.
 *   The index is built for knowledge bases of up to TYPO_INDEX_MAX_SECTIONS sections.
 */

export const MIN_TYPO_LENGTH = 5;
export const TYPO_INDEX_MAX_SECTIONS = 5000;
/** At most this many corrections per unknown word, the KB's most frequent words first. */
export const MAX_CORRECTIONS = 3;

export interface TypoIndex {
  /** Surface words of the KB (normalised, unstemmed, letters only) → how many sections contain them. */
  words: Map<string, number>;
  /** A KB word with one letter deleted → the KB words that give it. */
  deletions: Map<string, string[]>;
  /** Letters in the longest of `words`: a longer word + 1 cannot be one edit from any of them. */
  longest: number;
}

const LETTERS_ONLY = /^\p{L}+$/u;

function deletionsOf(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Builds the typo index from the texts of the KB's sections (title path and body), with a language's `words` (default: English's contentWords). */
export function buildTypoIndex(texts: Iterable<string>, words: (text: string) => string[] = contentWords): TypoIndex {
  return runSteps(typoIndexSteps(texts, words));
}

/** Texts read, or words indexed, between yields while an index is built in slices (steps.ts). */
const TEXTS_PER_STEP = 32;
const WORDS_PER_STEP = 2000;

/** The same in steps (steps.ts), so that a server's index build keeps the event loop free. */
export function* typoIndexSteps(texts: Iterable<string>, words: (text: string) => string[] = contentWords): Steps<TypoIndex> {
  const counts = new Map<string, number>();
  let read = 0;
  for (const text of texts) {
    for (const word of words(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
    if (++read % TEXTS_PER_STEP === 0) yield;
  }
  return yield* vocabularyIndexSteps(counts);
}

/** The typo index of a vocabulary: each word and how many sections contain it. */
export function typoIndexOf(vocabulary: ReadonlyMap<string, number>): TypoIndex {
  return runSteps(vocabularyIndexSteps(vocabulary));
}

function* vocabularyIndexSteps(vocabulary: ReadonlyMap<string, number>): Steps<TypoIndex> {
  const words = new Map<string, number>();
  for (const [word, n] of vocabulary) {
    if (word.length < MIN_TYPO_LENGTH - 1 || !LETTERS_ONLY.test(word)) continue;
    words.set(word, n);
  }
  const deletions = new Map<string, string[]>();
  let longest = 0;
  let indexed = 0;
  for (const word of words.keys()) {
    longest = Math.max(longest, word.length);
    for (const d of deletionsOf(word)) {
      const list = deletions.get(d);
      if (!list) deletions.set(d, [word]);
      else if (list.at(-1) !== word) list.push(word);
    }
    if (++indexed % WORDS_PER_STEP === 0) yield;
  }
  return { words, deletions, longest };
}

/** Optimal string alignment distance, stopping early: true when a and b are at most one edit apart. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // replacement
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1); // deletion / insertion
}

/** KB words one edit away from an unknown word, most frequent first (at most MAX_CORRECTIONS). */
export function typoCorrections(word: string, index: TypoIndex): string[] {
  if (word.length < MIN_TYPO_LENGTH || word.length > index.longest + 1 || index.words.has(word) || !LETTERS_ONLY.test(word)) return [];
  let memo = correctionsMemo.get(index);
  if (!memo) correctionsMemo.set(index, (memo = new LruMemo(CORRECTIONS_MEMO_LIMIT)));
  let found = memo.get(word);
  if (found === undefined) {
    found = findCorrections(word, index);
    memo.set(ownCopy(word), found);
  }
  return [...found];
}

/**
 * Unknown words recur (the same typos, the same off-topic words): their corrections are memoised
 * per index, for the CORRECTIONS_MEMO_LIMIT words looked up most recently. What it holds: each
 * word (a copy, at most the KB's longest word + 1 letters: a longer one is never looked up) and
 * its ≤ MAX_CORRECTIONS corrections (strings of the index): about 1.2 MiB at the cap with 19-letter
 * words. A miss costs a lookup per deletion of the word: ≈ 30 µs for a 19-letter word, against
 * ≈ 6 µs for a hit (one run on the shared 2-core machine).
 */
export const CORRECTIONS_MEMO_LIMIT = 10_000;
const correctionsMemo = new WeakMap<TypoIndex, LruMemo<string, readonly string[]>>();

function findCorrections(word: string, index: TypoIndex): string[] {
  const found = new Set<string>();
  for (const w of index.deletions.get(word) ?? []) found.add(w); // the customer left a letter out
  for (const d of deletionsOf(word)) {
    if (index.words.has(d)) found.add(d); // the customer typed a letter too many
    for (const w of index.deletions.get(d) ?? []) if (withinOneEdit(word, w)) found.add(w); // replaced or swapped
  }
  return [...found]
    .filter((w) => w[0] === word[0])
    .sort((a, b) => index.words.get(b)! - index.words.get(a)! || (a < b ? -1 : 1))
    .slice(0, MAX_CORRECTIONS);
}
