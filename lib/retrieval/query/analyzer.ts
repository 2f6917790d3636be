import { stemmer } from 'stemmer';
import { eng as englishStopWords } from 'stopword';

/**
 * The one text pipeline shared by sections and queries:
 *
 *   text → words → normalise → drop stop words → stem → terms
 *
 * - Words are runs of Unicode letters and digits. Inside a word, `'` `’` `-` `_` `.`
 *   may join parts ("don't", "e-mail", "h.264", "stream_key", "video.created").
 * - Normalise: lowercase, strip accents (NFKD without combining marks: "café" → "cafe").
 * - Apostrophes: a possessive `'s` is dropped ("customer's" → "customer"), other
 *   apostrophes are removed ("don't" → "dont").
 * - Compounds joined by `-` `_` `.` yield each part *and* the joined form, so
 *   "e-mail", "email" and "e mail" all meet on "email", and "h.264" matches "264".
 * - Single letters are dropped; numbers are kept ("4k", "1080p", "264").
 * - Stop words: the `stopword` package's English list (minus a few words that carry meaning in
 *   how-to questions, KEPT_STOP_WORDS), plus a few chat fillers
 *   ("hi", "hello", "thanks", "please", "help", "need", "support") and pronoun-like words ("one",
 *   "thing") that carry no subject — that is what makes "hi, can you help me?" an empty
 *   query that gets the floor, and "what about that one?" lean on the previous message.
 * - Stemming: Porter (the `stemmer` package), so refund / refunds / refunded meet.
 */

/** Words that say nothing about *what* the customer asks in a support chat. */
export const CHAT_FILLER_WORDS = [
  'hi', 'hello', 'hey', 'hiya', 'thanks', 'thank', 'thx', 'please', 'pls', 'help',
  'need', 'question', 'questions', 'ok', 'okay', 'yes', 'yeah', 'anyone', 'someone',
  'dont', 'doesnt', 'cant', 'im', 'ive', 'id', 'youre', 'whats', 'wont', 'isnt',
  // in a support chat "support" is the setting, not the subject: "do you support live
  // streaming?" is about streaming, and "contact support" is about contacting
  'support', 'supports', 'supported', 'supporting',
  // pronoun-like words: "what about that one?" names no subject of its own
  'one', 'ones', 'thing', 'things', 'stuff', 'something', 'anything',
] as const;

/**
 * Words of the `stopword` list that we keep as content: in how-to questions they carry the
 * meaning ("what runs *before* a package is installed", "the machine starts *up*", "log *out*",
 * "went *over* the limit"); the eval's before/after row for this change is in eval/README.md
 * ("keep before, between, under, …"). "after" stays a stop word: kb:check's facts check pairs
 * sentences by shared terms, and "after" made two different retention periods look like one fact.
 */
export const KEPT_STOP_WORDS = ['before', 'between', 'under', 'up', 'over', 'out', 'through'] as const;

const STOP_WORDS: ReadonlySet<string> = new Set(
  [...englishStopWords, ...CHAT_FILLER_WORDS].filter((w) => !(KEPT_STOP_WORDS as readonly string[]).includes(w)),
);

const WORD = /[\p{L}\p{N}]+(?:['’_.-][\p{L}\p{N}]+)*/gu;
const COMPOUND_SEPARATOR = /[_.-]/;
const NON_ASCII = /[^\x00-\x7f]/;
const COMBINING_MARKS = /\p{M}+/gu;
const MAX_WORD_LENGTH = 40;

/** Lowercase and strip accents. */
export function normalizeWord(raw: string): string {
  const lower = raw.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFKD').replace(COMBINING_MARKS, '') : lower;
}

// Stemming dominates indexing time; the vocabulary is small, so memoise it — while an index
// is built only (see analyzeInBulk): a question's words are looked up, never added, so what
// customers type cannot grow the memo.
const stemCache = new Map<string, string>();
const STEM_CACHE_LIMIT = 200_000;

function stem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = /^\d/.test(word) ? word : stemmer(word);
    if (memoising) {
      if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
      stemCache.set(word, stemmed);
    }
  }
  return stemmed;
}

function pushTerm(word: string, out: string[]): void {
  if (word.length < 2 && !/\d/.test(word)) return;
  if (word.length > MAX_WORD_LENGTH || STOP_WORDS.has(word)) return;
  out.push(stem(word));
}

/** Splits one matched word into its index forms (see the module comment) and appends their terms. */
function analyzeWord(raw: string, out: string[]): void {
  let word = normalizeWord(raw).replace(/['’]s$/, '').replace(/['’]/g, '');
  if (!COMPOUND_SEPARATOR.test(word)) {
    pushTerm(word, out);
    return;
  }
  const parts = word.split(COMPOUND_SEPARATOR).filter(Boolean);
  for (const part of parts) pushTerm(part, out);
  word = parts.join('');
  pushTerm(word, out);
}

// Most words repeat across sections, so the terms of each raw word are memoised while an
// index is built: analysing a 100,000-section corpus then costs little more than the regex
// scan. Questions read the memo (their KB words hit it) but never add to it: a memo filled
// from customer text would grow with every unique word sent (and V8 keeps a long word as a
// slice of its whole message), so hostile input could grow the heap request by request.
const wordCache = new Map<string, readonly string[]>();
/** Entries kept between builds (the KB's own words, which questions mostly use). */
const WORD_CACHE_LIMIT = 100_000;
/** Entries allowed while an index is built: a 100,000-section corpus has ~1M distinct words, and a memo that keeps clearing itself cost a third of the build. */
const BULK_WORD_CACHE_LIMIT = 2_000_000;
/** True inside analyzeInBulk: the only time the memos grow. */
let memoising = false;

/** Runs `work` (e.g. analysing every section of a KB) with the memos on, then shrinks them back. */
export function analyzeInBulk<T>(work: () => T): T {
  const outer = memoising;
  memoising = true;
  try {
    return work();
  } finally {
    memoising = outer;
    if (!outer && wordCache.size > WORD_CACHE_LIMIT) wordCache.clear();
  }
}

function termsOfWord(raw: string): readonly string[] {
  let terms = wordCache.get(raw);
  if (terms === undefined) {
    const out: string[] = [];
    analyzeWord(raw, out);
    terms = out;
    if (memoising) {
      if (wordCache.size >= BULK_WORD_CACHE_LIMIT) wordCache.clear();
      wordCache.set(raw, terms);
    }
  }
  return terms;
}

const WORD_SCAN = new RegExp(WORD.source, WORD.flags);

/** The terms of a text, in order, with repeats: the same function for sections and queries. */
export function analyze(text: string): string[] {
  const out: string[] = [];
  WORD_SCAN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = WORD_SCAN.exec(text)) !== null) {
    const terms = termsOfWord(match[0]);
    for (let i = 0; i < terms.length; i++) out.push(terms[i]!);
  }
  return out;
}

/** The distinct normalised words of a text that the analyzer keeps, unstemmed (for "words not in the KB" reports). */
export function contentWords(text: string): string[] {
  const words = new Set<string>();
  for (const match of text.matchAll(WORD)) {
    const word = normalizeWord(match[0]).replace(/['’]s$/, '').replace(/['’]/g, '');
    if (word.length >= 2 && !STOP_WORDS.has(word)) words.add(word);
  }
  return [...words];
}
