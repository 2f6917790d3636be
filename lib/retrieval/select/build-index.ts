import { type RetrievalConfig, type RetrievalConfigInput, retrievalConfig } from '../config';
import { titlePath, renderSectionBlock } from '../context-text';
import { RetrievalConfigError } from '../errors';
import { type Analyzer, analyzeInBulk, createAnalyzer, englishAnalyzer, foldWord } from '../query/analyzer';
import { ENGLISH_ANALYSIS, type QueryAnalysis, type TypoLookup } from '../query/build-query';
import { MIN_PART } from '../query/decompound';
import { ENGLISH } from '../query/languages';
import { prepareSynonyms } from '../query/synonyms';
import { thesaurusGroups, thesaurusSteps } from '../query/thesaurus';
import { TYPO_INDEX_MAX_SECTIONS, typoIndexOf, typoIndexSteps } from '../query/typos';
import { Bm25Builder, type Bm25Index, subsetStatistics } from '../rank/bm25';
import { type Steps, runSteps, runStepsAsync } from '../steps';
import { type PackedSectionTerms, sectionTerms, unpackTerms } from '../kb/section-terms';
import type { PartsCache } from './parts-cache';
import { splitLongSectionsSteps } from './split';
import { type CountTokens, countTokens } from '../tokens';
import type { KnowledgeBase, Section, SynonymGroup } from '../types';

/**
 * The index a KB is made into for selection (docs/retrieval.md): the
 * scored pool (unpinned sections, long ones split into parts: split.ts), BM25's inverted index,
 * the typo index and the pinned block. Pinned sections are not in the pool and do not count in
 * N or avgdl: the rules' wording must not change how the rest of the KB ranks.
 *
 * Languages: each section is analysed with its own language's analyzer (analyzer.ts); a language
 * other than English also gets its vocabulary (the words its sections use: the dictionary of
 * its compound splitter and of its typo correction) and its spelling variants (a word typed
 * without the accents the KB writes it with). One inverted index holds every language: a query
 * is scored against all of it, and score.ts keeps the matches in the query's language. In a KB of
 * several languages, each language also has BM25 statistics of its own (LanguageIndex.bm25).
 */

/** One language of the pool: what a query in it is built with. */
export interface LanguageIndex {
  language: string;
  /** Pool sections in this language. */
  sections: number;
  analysis: QueryAnalysis;
  /** Typo correction in this language (typos.ts); absent when disabled or for KBs over TYPO_INDEX_MAX_SECTIONS sections. */
  typos?: TypoLookup;
  /**
   * In a KB of several languages: BM25 with this language's statistics (N, df and idf, avgdl over
   * its sections only: subsetStatistics), so how a section in it ranks does not depend on the
   * other languages' pages. Absent in a KB of one language, whose statistics are the pool's.
   */
  bm25?: Bm25Index;
}

/** A knowledge base made ready for selection: scored pool, inverted index, pinned block. */
export interface RetrievalIndex {
  config: RetrievalConfig;
  /** The KB's sections in file order, long ones replaced by their parts: the units that are scored and sent. */
  sections: readonly Section[];
  synonyms: readonly SynonymGroup[];
  pinned: readonly Section[];
  /** Longest a section may be before it is split into parts (split.ts): `maxSectionShare` of what the pinned block leaves. */
  maxPartTokens: number;
  /** Unpinned sections in file order; BM25 document i is pool[i]. */
  pool: readonly Section[];
  bm25: Bm25Index;
  pinnedTokens: number;
  pinnedContext: string;
  /** Smallest section in the pool, in tokens: once less than this is left, nothing fits. */
  minPoolTokens: number;
  /** Tokens of every section (pinned and not). */
  kbTokens: number;
  /**
   * Rendered blocks of the pool, memoised the first time a section is sent (rendering them
   * all up front would hold a second copy of every text: ~110 MB for 100,000 sections).
   */
  poolBlocks: (string | undefined)[];
  /** Title paths ("Parent › Title") of the pool and of the pinned sections, built once for the explanation. */
  poolPaths: readonly string[];
  pinnedPaths: readonly string[];
  /** Does any pool section contain this term? */
  known(term: string): boolean;
  /** Typo correction of the KB's default language (typos.ts); absent when disabled or for KBs over TYPO_INDEX_MAX_SECTIONS sections. */
  typos?: TypoLookup;
  /** The KB's default language (identity file `language:`). */
  language: string;
  /** The languages of the pool, the default first, then by number of sections. */
  languages: ReadonlyMap<string, LanguageIndex>;
  /** The language of each pool section (`pool[i].language`, English when absent). */
  poolLanguages: readonly string[];
  /** The synonym groups of one language (the KB's default language's groups have no tag), one array per language. */
  synonymsFor(language: string): readonly SynonymGroup[];
  /** Scratch buffers, reused by every selection (selection is synchronous). */
  scratch: { scores: Float64Array; touched: Int32Array; heap: Int32Array; sent: Uint8Array };
}

/**
 * No section is split into parts smaller than this: below it the budget is too small for
 * any useful text (kb:check reports that), and splitting would only make noise.
 */
export const MIN_PART_TOKENS = 100;

/** The words of a language's sections (title path and body) and in how many sections each occurs. */
function vocabularyOf(sections: readonly Section[], analyzer: Analyzer): Map<string, number> {
  const words = new Map<string, number>();
  for (const s of sections) for (const w of analyzer.contentWords(`${titlePath(s)}\n${s.text}`)) words.set(w, (words.get(w) ?? 0) + 1);
  return words;
}

/** Spelling variants of a language other than English: the KB's words that fold to the same key (accents, umlauts spelled out), most frequent first. */
function foldedVariants(language: string, words: ReadonlyMap<string, number>): (word: string) => string[] {
  const byKey = new Map<string, string[]>();
  for (const w of words.keys()) {
    const key = foldWord(w, language);
    if (key === w) continue;
    const list = byKey.get(key);
    if (list) list.push(w);
    else byKey.set(key, [w]);
  }
  for (const list of byKey.values()) list.sort((a, b) => words.get(b)! - words.get(a)! || (a < b ? -1 : 1));
  return (word) => (byKey.get(foldWord(word, language)) ?? []).filter((w) => w !== word);
}

/** The analyzers and query tools of every language of the pool (English: the ones the selector always had). */
function languageIndexes(pool: readonly Section[], defaultLanguage: string, typosOn: boolean): Map<string, LanguageIndex & { analyzer: Analyzer }> {
  const byLanguage = new Map<string, Section[]>();
  for (const s of pool) {
    const l = s.language ?? ENGLISH;
    const list = byLanguage.get(l);
    if (list) list.push(s);
    else byLanguage.set(l, [s]);
  }
  const order = [...byLanguage.keys()].sort((a, b) => Number(b === defaultLanguage) - Number(a === defaultLanguage) || byLanguage.get(b)!.length - byLanguage.get(a)!.length || (a < b ? -1 : 1));
  const out = new Map<string, LanguageIndex & { analyzer: Analyzer }>();
  for (const language of order) {
    const sections = byLanguage.get(language)!;
    if (language === ENGLISH) {
      out.set(language, { language, sections: sections.length, analyzer: englishAnalyzer, analysis: ENGLISH_ANALYSIS });
      continue;
    }
    const words = vocabularyOf(sections, createAnalyzer(language));
    const vocabulary = new Set([...words.keys()].filter((w) => w.length >= MIN_PART));
    const analyzer = createAnalyzer(language, { vocabulary });
    const entry: LanguageIndex & { analyzer: Analyzer } = { language, sections: sections.length, analyzer, analysis: { analyzer, variants: foldedVariants(language, words) } };
    if (typosOn) entry.typos = { index: typoIndexOf(words), known: () => false };
    out.set(language, entry);
  }
  return out;
}

type IndexedKb = Pick<KnowledgeBase, 'sections' | 'synonyms'> & { language?: string };

/** Longest a pool section may be before it is split: `maxSectionShare` of what the pinned block leaves, at least MIN_PART_TOKENS. */
export function maxPartTokensOf(config: RetrievalConfig, pinnedTokens: number): number {
  return Math.max(MIN_PART_TOKENS, Math.floor((config.budget - pinnedTokens) * config.maxSectionShare));
}

/** Builds the index; throws RetrievalConfigError if the pinned block alone exceeds the budget. */
export interface IndexOptions {
  count?: CountTokens;
  /** Parts of long sections kept across loads (parts-cache.ts): taken from it, new ones put in it. */
  parts?: PartsCache;
  /** Terms of sections in English analysed ahead (on the parse workers: kb/load.ts `sectionTerms`), by section id. */
  terms?: ReadonlyMap<string, PackedSectionTerms>;
}

export function createRetrievalIndex(kb: IndexedKb, configInput: RetrievalConfigInput | RetrievalConfig = {}, options: IndexOptions = {}): RetrievalIndex {
  return runSteps(indexSteps(kb, configInput, options));
}

/** The same build, letting the event loop run every ~8 ms (a server indexing a large KB keeps answering). */
export function createRetrievalIndexAsync(kb: IndexedKb, configInput: RetrievalConfigInput | RetrievalConfig = {}, options: IndexOptions = {}): Promise<RetrievalIndex> {
  return runStepsAsync(indexSteps(kb, configInput, options));
}

/** Longest the index build analyses and counts sections before it yields (runStepsAsync lets the event loop in), ms. */
const ANALYSIS_SLICE_MS = 8;

/**
 * BM25's index of the pool, each section analysed (or its terms from the parse workers
 * unpacked) just before it is counted, so its terms are garbage as soon as they are in the
 * index; a slice of time at a time (a count of sections would not do: a part of a long page
 * takes a hundred times a short section). The heading path and the body are one bag, the
 * heading's words counted titleWeight times.
 */
function* poolIndexSteps(
  pool: readonly Section[],
  poolLanguages: readonly string[],
  languages: ReadonlyMap<string, { analyzer: Analyzer }>,
  config: RetrievalConfig,
  known: ReadonlyMap<string, PackedSectionTerms> | undefined,
): Steps<Bm25Index> {
  const builder = new Bm25Builder(pool.length);
  let i = 0;
  while (i < pool.length) {
    const sliceEnd = performance.now() + ANALYSIS_SLICE_MS;
    analyzeInBulk(() => {
      do {
        const s = pool[i]!;
        const language = poolLanguages[i]!;
        const packed = language === ENGLISH ? known?.get(s.id) : undefined;
        const [heading, body] = packed ? unpackTerms(packed) : sectionTerms(s, languages.get(language)!.analyzer);
        builder.add([
          [heading, config.titleWeight],
          [body, 1],
        ]);
        i++;
      } while (i < pool.length && performance.now() < sliceEnd);
    });
    yield;
  }
  return yield* builder.finishSteps();
}

function* indexSteps(kb: IndexedKb, configInput: RetrievalConfigInput | RetrievalConfig, { count = countTokens, terms, parts }: IndexOptions): Steps<RetrievalIndex> {
  const config = retrievalConfig(configInput);
  const pinned = kb.sections.filter((s) => s.pinned);
  const pinnedTokens = pinned.reduce((sum, s) => sum + s.tokens, 0);
  if (pinnedTokens > config.budget) {
    throw new RetrievalConfigError(
      `the pinned sections need ${pinnedTokens} tokens but the budget is ${config.budget}: ` +
        `raise the budget or unpin some of: ${pinned.map((s) => s.id).join(', ')}`,
    );
  }
  const maxPartTokens = maxPartTokensOf(config, pinnedTokens);
  const sections = yield* splitLongSectionsSteps(kb.sections, maxPartTokens, count, parts);
  const pool = sections.filter((s) => !s.pinned);
  const n = pool.length;
  const language = kb.language ?? ENGLISH;
  const typosOn = config.typoWeight > 0 && n <= TYPO_INDEX_MAX_SECTIONS;
  const languages = analyzeInBulk(() => languageIndexes(pool, language, typosOn));
  const poolLanguages = pool.map((s) => s.language ?? ENGLISH);
  const bm25 = yield* poolIndexSteps(pool, poolLanguages, languages, config, terms);
  const known = (term: string) => bm25.termIds.has(term);
  for (const l of languages.values()) if (l.typos) l.typos.known = known;
  if (languages.size > 1) for (const l of languages.values()) l.bm25 = subsetStatistics(bm25, (doc) => poolLanguages[doc] === l.language);
  const english = languages.get(ENGLISH);
  if (english && typosOn) english.typos = { index: yield* typoIndexSteps(pool.filter((_, i) => poolLanguages[i] === ENGLISH).map((s) => `${titlePath(s)}\n${s.text}`)), known };
  const typos = languages.get(language)?.typos;
  const synonymsByLanguage = new Map<string, readonly SynonymGroup[]>();
  const synonymsFor = (l: string) => {
    let groups = synonymsByLanguage.get(l);
    if (!groups) {
      const tagged = kb.synonyms.some((g) => g.language !== undefined);
      const own = tagged ? kb.synonyms.filter((g) => (g.language ?? language) === l) : l === language ? kb.synonyms : [];
      const builtIn = config.thesaurus ? thesaurusGroups(l) : [];
      groups = builtIn.length && own.length ? [...own, ...builtIn] : builtIn.length ? builtIn : own;
      synonymsByLanguage.set(l, groups);
    }
    return groups;
  };
  // The built-in thesauri of the KB's languages, analysed now (in steps) rather than at a first question.
  if (config.thesaurus) {
    for (const l of languages.keys()) {
      yield* thesaurusSteps(l);
      prepareSynonyms(synonymsFor(l));
    }
  }
  return {
    known,
    typos,
    language,
    languages,
    poolLanguages,
    synonymsFor,
    config,
    sections,
    maxPartTokens,
    synonyms: kb.synonyms,
    pinned,
    pool,
    bm25,
    pinnedTokens,
    pinnedContext: pinned.map(renderSectionBlock).join(''),
    minPoolTokens: pool.reduce((min, s) => Math.min(min, s.tokens), Infinity),
    kbTokens: kb.sections.reduce((sum, s) => sum + s.tokens, 0),
    poolBlocks: new Array<string | undefined>(pool.length),
    poolPaths: pool.map(titlePath),
    pinnedPaths: pinned.map(titlePath),
    scratch: { scores: new Float64Array(n), touched: new Int32Array(n), heap: new Int32Array(n), sent: new Uint8Array(n) },
  };
}
