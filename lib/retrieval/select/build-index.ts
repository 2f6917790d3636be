import { type RetrievalConfig, type RetrievalConfigInput, retrievalConfig } from '../config';
import { titlePath, renderSectionBlock } from '../context-text';
import { RetrievalConfigError } from '../errors';
import { analyze, analyzeInBulk } from '../query/analyzer';
import type { TypoLookup } from '../query/build-query';
import { TYPO_INDEX_MAX_SECTIONS, buildTypoIndex } from '../query/typos';
import { type Bm25Index, buildBm25Index } from '../rank/bm25';
import { splitLongSections } from './split';
import { type CountTokens, countTokens } from '../tokens';
import type { KnowledgeBase, Section, SynonymGroup } from '../types';

/**
 * The index a KB is made into for selection (README "How a question becomes a request"): the
 * scored pool (unpinned sections, long ones split into parts: split.ts), BM25's inverted index,
 * the typo index and the pinned block. Pinned sections are not in the pool and do not count in
 * N or avgdl: the rules' wording must not change how the rest of the KB ranks.
 */

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
  /** Typo correction (typos.ts); absent when disabled or for KBs over TYPO_INDEX_MAX_SECTIONS sections. */
  typos?: TypoLookup;
  /** Scratch buffers, reused by every selection (selection is synchronous). */
  scratch: { scores: Float64Array; touched: Int32Array; heap: Int32Array; sent: Uint8Array };
}

/**
 * No section is split into parts smaller than this: below it the budget is too small for
 * any useful text (kb:check reports that), and splitting would only make noise.
 */
export const MIN_PART_TOKENS = 100;

/** Builds the index; throws RetrievalConfigError if the pinned block alone exceeds the budget. */
export function createRetrievalIndex(
  kb: Pick<KnowledgeBase, 'sections' | 'synonyms'>,
  configInput: RetrievalConfigInput | RetrievalConfig = {},
  { count = countTokens }: { count?: CountTokens } = {},
): RetrievalIndex {
  const config = retrievalConfig(configInput);
  const pinned = kb.sections.filter((s) => s.pinned);
  const pinnedTokens = pinned.reduce((sum, s) => sum + s.tokens, 0);
  if (pinnedTokens > config.budget) {
    throw new RetrievalConfigError(
      `the pinned sections need ${pinnedTokens} tokens but the budget is ${config.budget}: ` +
        `raise the budget or unpin some of: ${pinned.map((s) => s.id).join(', ')}`,
    );
  }
  const maxPartTokens = Math.max(MIN_PART_TOKENS, Math.floor((config.budget - pinnedTokens) * config.maxSectionShare));
  const sections = splitLongSections(kb.sections, maxPartTokens, count);
  const pool = sections.filter((s) => !s.pinned);
  // The heading path and the body: two BM25F fields, or one bag with the heading counted titleWeight times.
  const bm25 = buildBm25Index(
    analyzeInBulk(() =>
      pool.map((s) => [
        [analyze([...s.parents, s.title].join('\n')), config.headingField ? 1 : config.titleWeight],
        [analyze(s.text), 1],
      ]),
    ),
    config.headingField ? [{ weight: config.titleWeight, b: config.headingB }, { weight: 1 }] : undefined,
  );
  const n = pool.length;
  const typos: TypoLookup | undefined =
    config.typoWeight > 0 && n <= TYPO_INDEX_MAX_SECTIONS
      ? { index: buildTypoIndex(pool.map((s) => `${titlePath(s)}\n${s.text}`)), known: (term) => bm25.termIds.has(term) }
      : undefined;
  return {
    known: (term) => bm25.termIds.has(term),
    typos,
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
