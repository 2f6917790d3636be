import { analyze, analyzeInBulk } from './analyzer';
import {
  buildBm25Index,
  explainTermIds,
  scoreInto,
  type Bm25Index,
  type TermExplanation,
} from './bm25';
import { retrievalConfig, type RetrievalConfig, type RetrievalConfigInput } from './config';
import { renderSectionBlock, titlePath } from './context';
import { RetrievalConfigError } from './errors';
import { buildQuery, type Query, type TypoLookup } from './query';
import { splitLongSections } from './split';
import { countTokens, type CountTokens } from './tokens';
import { buildTypoIndex, TYPO_INDEX_MAX_SECTIONS } from './typos';
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
 * Every decision is recorded in the Explanation returned, which is the only thing the
 * CLI, the chat route and /debug read.
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
  /** 1-based rank among matched sections; absent for pinned and unmatched ones. */
  rank?: number;
  tokens: number;
  sent: boolean;
  reason: Reason;
  /** For matched sections: each query term's share of the score (they sum to `score`). */
  matches?: TermExplanation[];
  /** For a part of a split section: which part, of how many, of which section. */
  part?: SectionPart;
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

function poolBlock(index: RetrievalIndex, doc: number): string {
  return (index.poolBlocks[doc] ??= renderSectionBlock(index.pool[doc]!));
}

// ---------------------------------------------------------------------------
// Rank order without sorting everything: a binary max-heap of touched documents,
// popped only as far as packing and the explanation need.

function ranksAbove(scores: Float64Array, a: number, b: number): boolean {
  const sa = scores[a]!;
  const sb = scores[b]!;
  return sa > sb || (sa === sb && a < b);
}

function siftDown(heap: Int32Array, size: number, start: number, scores: Float64Array): void {
  let i = start;
  const item = heap[i]!;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= size) break;
    const right = left + 1;
    const child = right < size && ranksAbove(scores, heap[right]!, heap[left]!) ? right : left;
    if (!ranksAbove(scores, heap[child]!, item)) break;
    heap[i] = heap[child]!;
    i = child;
  }
  heap[i] = item;
}

function heapify(heap: Int32Array, size: number, scores: Float64Array): void {
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(heap, size, i, scores);
}

function popTop(heap: Int32Array, size: number, scores: Float64Array): number {
  const top = heap[0]!;
  heap[0] = heap[size - 1]!;
  if (size > 1) siftDown(heap, size - 1, 0, scores);
  return top;
}

// ---------------------------------------------------------------------------

/** The verdict of a matched section: built in one literal (one object shape, no properties added later). */
function matchedVerdict(
  section: Section,
  path: string,
  score: number,
  sent: boolean,
  rank: number,
  matches: TermExplanation[],
): SectionVerdict {
  return {
    id: section.id,
    title: section.title,
    path,
    source: section.source,
    pinned: section.pinned,
    score,
    rank,
    tokens: section.tokens,
    sent,
    reason: sent ? 'scored' : 'over-budget',
    matches,
    part: section.part,
  };
}

function verdict(section: Section, path: string, score: number, sent: boolean, reason: Reason): SectionVerdict {
  return {
    id: section.id,
    title: section.title,
    path,
    source: section.source,
    pinned: section.pinned,
    score,
    tokens: section.tokens,
    sent,
    reason,
    part: section.part,
  };
}

/**
 * Selects the knowledge for one request from the customer's messages (oldest first;
 * only the last two are used) and explains every decision.
 */
export function selectContext(index: RetrievalIndex, customerMessages: readonly string[]): Explanation {
  const { config, pool, bm25, scratch } = index;
  const query = buildQuery(customerMessages, index.synonyms, config, index.typos);

  // 1. Score: only the postings of the query's terms are read.
  const { scores, touched, heap } = scratch;
  const matched = scoreInto(bm25, query.terms, config, scores, touched);
  const termIds = query.terms.map((t) => bm25.termIds.get(t.term) ?? -1);

  // 2. Pack in rank order. Pop from a heap of matched documents until nothing can fit.
  heap.set(touched.subarray(0, matched));
  heapify(heap, matched, scores);
  let heapSize = matched;
  let remaining = config.budget - index.pinnedTokens;
  const sentPool = scratch.sent; // 1 = scored, 2 = floor; all zeros on entry
  const sentDocs: number[] = [];
  // Verdicts in explanation order: pinned (file order), matched by rank, floor, unmatched.
  const sections: SectionVerdict[] = index.pinned.map((s, i) => verdict(s, index.pinnedPaths[i]!, 0, true, 'pinned'));
  let rankedCount = 0;
  const blocks: string[] = [index.pinnedContext];
  const sentIds = index.pinned.map((s) => s.id);
  let scoredTokens = 0;
  let overBudget = 0;
  let listed = 0;
  const topScore = matched > 0 ? scores[heap[0]!]! : 0;
  while (heapSize > 0) {
    const packing = remaining >= index.minPoolTokens;
    if (listed >= config.explainLimit) break; // the list is full: what is left is only packing (below)
    const doc = popTop(heap, heapSize--, scores);
    const section = pool[doc]!;
    const fits = packing && section.tokens <= remaining;
    if (fits) {
      remaining -= section.tokens;
      scoredTokens += section.tokens;
      sentPool[doc] = 1;
      sentDocs.push(doc);
      blocks.push(poolBlock(index, doc));
      sentIds.push(section.id);
    } else {
      overBudget++;
      if (listed >= config.explainLimit) continue;
      listed++;
    }
    const matches = explainTermIds(bm25, termIds, query.terms, config, doc);
    sections.push(matchedVerdict(section, index.poolPaths[doc]!, scores[doc]!, fits, matched - heapSize, matches));
    rankedCount++;
  }
  // The explanation's list is full, but sections may still fit. Rather than popping the
  // rest of the heap in order (tens of thousands of pops on a large KB), take in one pass
  // the sections that fit what is left, and pack those in rank order: since what is left
  // only shrinks, no other section could fit later. Same sections, same ranks, fewer steps.
  const popped = matched - heapSize;
  let pickedLate = 0;
  if (heapSize > 0 && remaining >= index.minPoolTokens) {
    const candidates: number[] = [];
    for (let i = 0; i < heapSize; i++) if (pool[heap[i]!]!.tokens <= remaining) candidates.push(heap[i]!);
    candidates.sort((a, b) => (ranksAbove(scores, a, b) ? -1 : 1));
    const picks: number[] = [];
    for (const doc of candidates) {
      const section = pool[doc]!;
      if (section.tokens > remaining) continue;
      remaining -= section.tokens;
      picks.push(doc);
    }
    // Rank of a pick = sections popped above + sections left in the heap that rank above it + 1.
    const above = new Array<number>(picks.length).fill(0);
    for (let i = 0; i < heapSize; i++) {
      const doc = heap[i]!;
      for (let p = 0; p < picks.length; p++) if (ranksAbove(scores, doc, picks[p]!)) above[p]!++;
    }
    picks.forEach((doc, p) => {
      const section = pool[doc]!;
      scoredTokens += section.tokens;
      sentPool[doc] = 1;
      sentDocs.push(doc);
      blocks.push(poolBlock(index, doc));
      sentIds.push(section.id);
      const matches = explainTermIds(bm25, termIds, query.terms, config, doc);
      sections.push(matchedVerdict(section, index.poolPaths[doc]!, scores[doc]!, true, popped + above[p]! + 1, matches));
      rankedCount++;
    });
    pickedLate = picks.length;
  }
  overBudget += heapSize - pickedLate; // matched, never listed, and did not fit

  // 3. Floor: top up in file order with unmatched, unsent sections.
  let floorTokens = 0;
  let floorCount = 0;
  if (scoredTokens < config.floor) {
    for (let doc = 0; doc < pool.length && scoredTokens + floorTokens < config.floor; doc++) {
      const section = pool[doc]!;
      if (sentPool[doc] || scores[doc]! > 0 || section.tokens > remaining) continue;
      remaining -= section.tokens;
      floorTokens += section.tokens;
      sentPool[doc] = 2;
      sentDocs.push(doc);
      blocks.push(poolBlock(index, doc));
      sentIds.push(section.id);
      sections.push(verdict(section, index.poolPaths[doc]!, 0, true, 'floor'));
      floorCount++;
    }
  }

  // 4. Unmatched sections not sent, in file order, up to the explanation limit.
  const noMatch = pool.length - matched - floorCount;
  let unmatchedCount = 0;
  for (let doc = 0; doc < pool.length && listed < config.explainLimit; doc++) {
    if (sentPool[doc] || scores[doc]! > 0) continue;
    sections.push(verdict(pool[doc]!, index.poolPaths[doc]!, 0, false, 'no-match'));
    unmatchedCount++;
    listed++;
  }

  // Reset the scratch buffers for the next selection.
  for (let i = 0; i < matched; i++) scores[touched[i]!] = 0;
  for (const doc of sentDocs) sentPool[doc] = 0;

  const listedOverBudget = rankedCount - (sentIds.length - index.pinned.length - floorCount);
  return {
    query,
    budget: config.budget,
    config,
    tokens: {
      pinned: index.pinnedTokens,
      scored: scoredTokens,
      floor: floorTokens,
      total: index.pinnedTokens + scoredTokens + floorTokens,
    },
    floorUsed: floorCount > 0,
    counts: {
      sections: index.sections.length,
      pinned: index.pinned.length,
      matched,
      scored: sentIds.length - index.pinned.length - floorCount,
      floor: floorCount,
      overBudget,
      noMatch,
    },
    topScore,
    sections,
    omitted: overBudget - listedOverBudget + noMatch - unmatchedCount,
    sentIds,
    context: blocks.join(''),
    pinnedChars: index.pinnedContext.length,
  };
}
