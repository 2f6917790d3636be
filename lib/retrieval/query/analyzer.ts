import { stemmer } from 'stemmer';
import { eng as englishStopWords } from 'stopword';
import { createDecompounder, knownWordTest } from './decompound';
import { ENGLISH, GENERIC_SPEC, languageSpec } from './languages';

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

// ---------------------------------------------------------------------------
// Other languages: the same pipeline with the language's parts (languages.ts)
//
//   text → words (Unicode segmentation for Chinese and Japanese) → lowercase → elision dropped
//   → stop words out → stem (Snowball, on the accented word) → accents stripped → terms
//
// Compounds joined by `-` `_` `.` give their parts and the joined form, as in English; in a
// language with compounds (German…) a long word also gives the KB words it is made of
// (decompound.ts). In a language with separable verbs (German, Dutch), a particle that ends a
// clause also gives the joined verb (separableVerb below). Accents are stripped after stemming, since the Snowball stemmers read them
// ("configuración" → "configur"), so "réseau" and "reseau" meet; a word typed without the
// accents its stemmer needs is matched by build-query.ts's spelling variants (foldWord).

/** One language's text pipeline: the same function for that language's sections and queries. */
export interface Analyzer {
  /** The language (a primary subtag: "en", "de"), or the tag of a language without an analyzer of its own. */
  readonly language: string;
  /** The terms of a text, in order, with repeats. */
  analyze(text: string): string[];
  /** The distinct lowercase words the analyzer keeps, unstemmed (typo correction, "words not in the KB"). */
  contentWords(text: string): string[];
}

/** English: the pipeline above, exactly as it always was. */
export const englishAnalyzer: Analyzer = { language: ENGLISH, analyze, contentWords };

const APOSTROPHE = /['’]/g;
// Combining marks, except the kana voicing marks (バ is not ハ): stripped from the words of languages other than English.
const MARKS = /(?![\u3099\u309A])\p{M}+/gu;

/** Lowercase and accents stripped, for the languages other than English (English keeps normalizeWord, which predates kana). */
function stripAccents(word: string): string {
  const lower = word.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFKD').replace(MARKS, '').normalize('NFC') : lower;
}
const ELIDED = /^(\p{L}+)['’](\p{L}.*)$/u;
/** After a word: what ends its clause (punctuation, a line break, the end of the text), past spaces, quotes and brackets. */
const CLAUSE_END = /[\s"'“”„«»)\]]*(?:[.,;:!?…\n]|$)/uy;
/** A character that starts a new clause. */
const CLAUSE_BREAK = /[.,;:!?…\n(]/u;
/** How far back a clause is read for the verb of a separable particle. */
const MAX_CLAUSE_CHARS = 300;
const LETTERS = /^\p{L}+$/u;
/** Fewest letters of the verb after a separable verb's infix ("ein·zu·*richten*"). */
const MIN_VERB = 4;

/** Lowercase, accents stripped; German umlauts and ß folded to their spelled-out forms ("größe" → "groesse"): the key of a word typed without its accents. */
export function foldWord(word: string, language: string): string {
  let w = word.toLowerCase();
  if (language === 'de') w = w.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss');
  return stripAccents(w);
}

/** The analyzer of a language other than English; `vocabulary`: the KB's words in it, for splitting compounds. */
export function createAnalyzer(language: string, { vocabulary }: { vocabulary?: ReadonlySet<string> } = {}): Analyzer {
  if (language === ENGLISH) return englishAnalyzer;
  const spec = languageSpec(language) ?? GENERIC_SPEC;
  const stopWords = new Set(spec.stopWords.map((w) => w.normalize('NFC').toLowerCase()));
  const foldedStopWords = new Set(spec.stopWords.map(stripAccents));
  const elisions = new Set(spec.elisions ?? []);
  const isKbWord = vocabulary ? knownWordTest(vocabulary, (w) => stemOf(w)) : undefined;
  const compounds = spec.compounds && isKbWord ? createDecompounder(isKbWord, spec.compounds.linkers) : undefined;
  const particles = spec.separable && isKbWord ? new Set(spec.separable.particles) : undefined;
  const longestParticle = Math.max(0, ...(spec.separable?.particles ?? []).map((p) => p.length));
  const infix = particles ? spec.separable!.infinitiveInfix : undefined;
  const segmenter = spec.segmented ? new Intl.Segmenter(language, { granularity: 'word' }) : undefined;
  const stems = new Map<string, string>();
  const memo = new Map<string, readonly string[]>();

  /** Lowercase (NFC), the elided article dropped, other apostrophes removed. */
  function surface(raw: string): string {
    let word = raw.normalize('NFC').toLowerCase();
    const elided = elisions.size ? ELIDED.exec(word) : null;
    if (elided && elisions.has(elided[1]!)) word = elided[2]!;
    return word.replace(APOSTROPHE, '');
  }

  // A word with its accents is a stop word only as written: the accents tell words apart
  // (German "ändern" is not "andern", French "sûr" is not "sur"); a word typed without any
  // accents may be a stop word typed without them ("fur" for "für").
  const isStop = (word: string) => stopWords.has(word) || (stripAccents(word) === word && foldedStopWords.has(word));

  function stemOf(word: string): string {
    let s = stems.get(word);
    if (s === undefined) {
      s = /^\d/.test(word) || !spec.stem ? word : spec.stem(word);
      s = stripAccents(s);
      if (memoising) {
        if (stems.size >= STEM_CACHE_LIMIT) stems.clear();
        stems.set(word, s);
      }
    }
    return s;
  }

  function push(word: string, out: string[]): void {
    if (word.length < 2 && !/\d/.test(word)) return;
    if (word.length > MAX_WORD_LENGTH || isStop(word)) return;
    const parts = compounds?.split(word, memoising);
    if (parts) for (const part of parts) if (!isStop(part)) out.push(stemOf(part));
    out.push(stemOf(word));
    const verb = infix ? withoutInfix(word) : undefined;
    if (verb !== undefined) out.push(stemOf(verb));
  }

  /** A separable verb's infinitive with its infix taken out, when the KB has that verb ("einzurichten" → "einrichten"). */
  function withoutInfix(word: string): string | undefined {
    for (let cut = 2; cut <= Math.min(longestParticle, word.length - infix!.length - MIN_VERB); cut++) {
      if (!word.startsWith(infix!, cut) || !particles!.has(word.slice(0, cut))) continue;
      const verb = word.slice(0, cut) + word.slice(cut + infix!.length);
      if (isKbWord!(verb)) return verb;
    }
    return undefined;
  }

  function termsOf(raw: string): readonly string[] {
    let terms = memo.get(raw);
    if (terms !== undefined) return terms;
    const out: string[] = [];
    const word = surface(raw);
    if (COMPOUND_SEPARATOR.test(word)) {
      const parts = word.split(COMPOUND_SEPARATOR).filter(Boolean);
      for (const part of parts) push(part, out);
      // Only stop words joined ("est-ce", "peut-être"): no term of its own either.
      if (out.length > 0) push(parts.join(''), out);
    } else push(word, out);
    terms = out;
    if (memoising) {
      if (memo.size >= BULK_WORD_CACHE_LIMIT) memo.clear();
      memo.set(raw, terms);
    }
    return terms;
  }

  /**
   * The separable verb whose particle is the word at `start`–`end` of `text`, as one term, when the
   * particle ends its clause (punctuation or the end of the text follows) and a word of the clause
   * before it, joined to it, is a KB word (or its stem is a KB word's stem): "Wie richte ich das
   * WLAN ein?" → einricht, as "einrichten" and "Einrichtung". The first such word of the clause
   * is the verb: the finite verb stands first or second in a main clause. The particle and the
   * verb keep their own terms. Undefined when nothing joins.
   */
  function separableVerb(text: string, start: number, end: number): string | undefined {
    CLAUSE_END.lastIndex = end;
    if (!CLAUSE_END.test(text)) return undefined;
    const particle = surface(text.slice(start, end));
    let from = start;
    while (from > 0 && start - from < MAX_CLAUSE_CHARS && !CLAUSE_BREAK.test(text[from - 1]!)) from--;
    for (const raw of text.slice(from, start).match(WORD) ?? []) {
      const verb = surface(raw);
      if (verb.length < 2 || isStop(verb) || particles!.has(verb) || !LETTERS.test(verb)) continue;
      if (isKbWord!(particle + verb)) return stemOf(particle + verb);
    }
    return undefined;
  }

  /** The terms of a text in a language with separable verbs: each word's, and a joined verb after its particle. */
  function analyzeClauses(text: string, out: string[]): void {
    const scan = new RegExp(WORD.source, WORD.flags);
    let match: RegExpExecArray | null;
    while ((match = scan.exec(text)) !== null) {
      for (const t of termsOf(match[0])) out.push(t);
      if (match[0].length > longestParticle || !particles!.has(surface(match[0]))) continue;
      const joined = separableVerb(text, match.index, match.index + match[0].length);
      if (joined !== undefined) out.push(joined);
    }
  }

  /** The raw words of a text: Unicode segmentation, or the WORD pattern. */
  function* words(text: string): Generator<string> {
    if (segmenter) {
      for (const s of segmenter.segment(text)) if (s.isWordLike) yield* s.segment.match(WORD) ?? [];
      return;
    }
    WORD_SCAN.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = WORD_SCAN.exec(text)) !== null) yield match[0];
  }

  return {
    language,
    analyze(text) {
      const out: string[] = [];
      if (particles) analyzeClauses(text, out);
      else for (const raw of [...words(text)]) for (const t of termsOf(raw)) out.push(t);
      return out;
    },
    contentWords(text) {
      const kept = new Set<string>();
      for (const raw of [...words(text)]) {
        const word = surface(raw);
        if (word.length >= 2 && !isStop(word)) kept.add(word);
      }
      return [...kept];
    },
  };
}
