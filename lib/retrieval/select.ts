import { analyze, analyzeInBulk } from './analyzer';
import { buildBm25Index, type Bm25Index, type TermExplanation } from './bm25';
import { retrievalConfig, type RetrievalConfig, type RetrievalConfigInput } from './config';
import { renderSectionBlock, titlePath } from './context';
import { RetrievalConfigError } from './errors';
import type { Query, TypoLookup } from './query';
import { splitLongSections } from './split';
import { countTokens, type CountTokens } from './tokens';
import { buildTypoIndex, TYPO_INDEX_MAX_SECTIONS } from './typos';
import { explain } from './explain';
import { select } from './packer';
import type { FusionRanks, SemanticQuery, SemanticStage } from './semantic';
import type { KnowledgeBase, Section, SectionPart, SynonymGroup } from './types';

/**
 * The selector: which sections go into one request, and why.
 *
 * 1. Pinned sections are sent first, always, in file order. They are never scored and
 *    never dropped; if they alone exceed the budget that is a configuration error.
 * 2. Every other section is scored with BM25 against the query (see bm25.ts, query.ts).
 *    Pinned sections are not in the scored pool and do not count in N or avgdl: the
 *    rules' wording must not change how the rest of the KB ranks.
 * 3. Scored sections are packed greedily in rank order (score desc, then file order) into
 *    what the pinned block leaves: a section that does not fit is skipped and the next
 *    one tried; packing stops at a score of 0 or when nothing left could fit.
 * 4. Floor: if the scored sections total fewer than `floor` tokens, unsent sections are
 *    added in file order until the floor is reached, never past the budget.
 *
 * This file holds the index and the types; packing is `select` (packer.ts), which decides
 * and builds the context text, and the Explanation of every decision is `explain`
 * (explain.ts), built from the selection when the CLI, /debug or the trace ask for it.
 */

export type Reason = 'pinned' | 'scored' | 'floor' | 'no-match' | 'over-budget';

/** One section's verdict for one question. */
export interface SectionVerdict {
  id: string;
  title: string;
  /** "Parent › Title" as in the context text. */
  path: string;
  source: string;
  pinned: boolean;
  /** BM25 score (0 for pinned and unmatched sections). */
  score: number;
  /** 1-based rank among matched sections (the fused rank when the semantic stage fused); absent for pinned and unmatched ones. */
  rank?: number;
  tokens: number;
  sent: boolean;
  reason: Reason;
  /** For matched sections: each query term's share of the score (they sum to `score`). */
  matches?: TermExplanation[];
  /** For a part of a split section: which part, of how many, of which section. */
  part?: SectionPart;
  /** When the semantic stage fused the rankings (matched sections only): BM25 rank, semantic rank and similarity. */
  fusion?: FusionRanks;
}

export interface TokenSplit {
  pinned: number;
  scored: number;
  floor: number;
  total: number;
}

export interface Explanation {
  query: Query;
  /** Knowledge budget in tokens (o200k_base). */
  budget: number;
  /** The settings this selection ran with. */
  config: RetrievalConfig;
  tokens: TokenSplit;
  /** True when the floor added sections. */
  floorUsed: boolean;
  /** Counts over the whole KB (the `sections` list may be cut at `explainLimit`). */
  counts: {
    sections: number;
    pinned: number;
    matched: number;
    scored: number;
    floor: number;
    overBudget: number;
    noMatch: number;
  };
  /** Highest score of any section (0 when nothing matched). */
  topScore: number;
  /**
   * Sections in rank order: pinned (file order), matched by score (sent or over budget),
   * then unmatched (floor first, then no-match, in file order).
   */
  sections: SectionVerdict[];
  /** How many unsent sections were left out of `sections` by `explainLimit`. */
  omitted: number;
  /** Ids in the order their blocks appear in `context`. */
  sentIds: string[];
  /** The exact knowledge text sent to the model (see context.ts for the format). */
  context: string;
  /** Length of the pinned block at the start of `context` (`context.slice(0, pinnedChars)`). */
  pinnedChars: number;
  /** The semantic stage, when it was on for this turn: fused (with its settings), or why the turn ran on BM25 alone. */
  semantic?: SemanticStage;
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

/**
 * Selects the knowledge for one request from the customer's messages (oldest first;
 * only the last two are used) and explains every decision: `explain(select(…))`.
 * The chat route calls `select` and asks for the explanation separately (packer.ts).
 */
export function selectContext(index: RetrievalIndex, customerMessages: readonly string[], semantic?: SemanticQuery): Explanation {
  return explain(select(index, customerMessages, semantic));
}
