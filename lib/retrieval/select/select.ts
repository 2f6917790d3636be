import { renderSectionBlock } from '../context-text';
import type { Bm25Index } from '../rank/bm25';
import { reciprocalRankFusion } from '../rank/fusion';
import { heapify, popTop, ranksAbove } from '../rank/rank-heap';
import { type SemanticQuery, fusesAt, semanticRanking, unembeddedCount } from '../rank/semantic';
import type { LanguageHints } from '../query/detect-language';
import type { RetrievalIndex } from './build-index';
import { type ScoredQuery, scoreQuery } from './score';
import type { FusionRanks, Query, SemanticStage, TokenSplit } from '../types';

/**
 * Packing: what one request sends, computed as cheaply as the decision allows. The
 * explanation (explain.ts) is built from this on demand, for the CLI, /debug and the trace.
 *
 * 1. The query, scored (score.ts): only its terms' postings are read.
 * 2. Scored sections in rank order (score desc, then file order), popped from a heap
 *    while anything could still fit; a section that does not fit is skipped and the next
 *    one tried. After `POPS_BEFORE_SCAN` pops the rest is taken in one pass instead: the
 *    sections that fit what is left, in rank order (what is left only shrinks, so no other
 *    section could fit later: same result, fewer steps on a large KB).
 * 3. Floor: if the scored sections total fewer than `floor` tokens, unmatched sections are
 *    added in file order until the floor is reached, never past the budget.
 * Every section sent goes through `Packer.send`, the one place that counts it.
 *
 * With the semantic stage (semantic.ts; a query vector passed in), step 2 packs a different
 * ranked list, the same way: BM25's matches and the semantic list fused by reciprocal rank
 * fusion (fusion.ts). Every section in either list counts as matched; the floor adds only
 * sections in neither. Without it, when the turn fell back, or when BM25 was confident enough
 * (its confidence ≥ the stage's `fuseBelow`: the turn is "skipped"), nothing here changes.
 */

/** One pool section sent, and why. */
export interface Sent {
  /** Index in `index.pool`. */
  doc: number;
  reason: 'scored' | 'floor';
  /** BM25 score (0 for floor sections). */
  score: number;
}

/** What packing decided for one question: the request's knowledge, and what the explanation is built from. */
export interface Selection {
  index: RetrievalIndex;
  query: Query;
  /** Every matched pool section (`docs[i]` scored `scores[i]`), in no particular order. */
  matched: { docs: Int32Array; scores: Float64Array };
  /** Pool sections sent, in send order: scored in rank order, then floor in file order. */
  sent: Sent[];
  /** How many sections matched (BM25's matches; with the semantic stage, every fused candidate), and how many were sent as scored and as floor. */
  counts: { matched: number; scored: number; floor: number };
  tokens: TokenSplit;
  floorUsed: boolean;
  topScore: number;
  /** Ids in the order their blocks appear in `context` (pinned first). */
  sentIds: string[];
  /** The exact knowledge text sent to the model (see context.ts). */
  context: string;
  /** Present when the semantic stage was on for this turn: how it went, and the fused ranking. */
  semantic?: SemanticSelection;
  /** The BM25 statistics the scores come from (score.ts ScoredQuery.bm25), for the explanation. */
  bm25: Bm25Index;
}

export interface SemanticSelection {
  stage: SemanticStage;
  /** When the stage fused: every candidate (BM25's matches and the semantic list) in fused rank order, with its ranks. */
  fused?: { order: number[]; ranks: Map<number, FusionRanks> };
}

/** Pops before packing switches from the heap to one pass over what is left. */
const POPS_BEFORE_SCAN = 32;

/** Budget bookkeeping for one selection: sections are sent here and nowhere else. */
class Packer {
  readonly sent: Sent[] = [];
  readonly blocks: string[];
  readonly sentIds: string[];
  remaining: number;
  scored = 0;
  floor = 0;
  floorCount = 0;

  constructor(
    private readonly index: RetrievalIndex,
    private readonly marks: Uint8Array,
  ) {
    this.remaining = index.config.budget - index.pinnedTokens;
    this.blocks = [index.pinnedContext];
    this.sentIds = index.pinned.map((s) => s.id);
  }

  /** Could anything still fit? */
  get open(): boolean {
    return this.remaining >= this.index.minPoolTokens;
  }

  fits(doc: number): boolean {
    return this.index.pool[doc]!.tokens <= this.remaining;
  }

  send(doc: number, reason: Sent['reason'], score: number): void {
    const section = this.index.pool[doc]!;
    this.remaining -= section.tokens;
    if (reason === 'scored') this.scored += section.tokens;
    else {
      this.floor += section.tokens;
      this.floorCount++;
    }
    this.marks[doc] = 1;
    this.sent.push({ doc, reason, score });
    this.blocks.push((this.index.poolBlocks[doc] ??= renderSectionBlock(section)));
    this.sentIds.push(section.id);
  }
}

/** Scored sections into the budget, in rank order; `heap` holds the `size` matched documents. */
function packScored(packer: Packer, heap: Int32Array, size: number, scores: Float64Array): void {
  heapify(heap, size, scores);
  for (let pops = 0; size > 0 && packer.open; pops++) {
    if (pops === POPS_BEFORE_SCAN) {
      const rest = Array.from(heap.subarray(0, size)).filter((doc) => packer.fits(doc));
      rest.sort((a, b) => (ranksAbove(scores, a, b) ? -1 : 1));
      for (const doc of rest) if (packer.fits(doc)) packer.send(doc, 'scored', scores[doc]!);
      return;
    }
    const doc = popTop(heap, size--, scores);
    if (packer.fits(doc)) packer.send(doc, 'scored', scores[doc]!);
  }
}

/** A ranked list into the budget, in its order: what does not fit is skipped. */
function packInOrder(packer: Packer, order: readonly number[], scores: Float64Array): void {
  for (const doc of order) {
    if (!packer.open) return;
    if (packer.fits(doc)) packer.send(doc, 'scored', scores[doc]!);
  }
}

/**
 * Unmatched sections in file order until the floor is reached (never past the budget); `candidates`:
 * the fused ones, which are matched. In a KB of several languages, the sections in `language` (the
 * query's) come first, then the others.
 */
function packFloor(packer: Packer, index: RetrievalIndex, scores: Float64Array, marks: Uint8Array, candidates?: ReadonlyMap<number, unknown>, language?: string): void {
  const { pool, config, poolLanguages } = index;
  const passes = language !== undefined && index.languages.size > 1 ? [true, false] : [undefined];
  for (const inLanguage of passes) {
    for (let doc = 0; doc < pool.length && packer.scored + packer.floor < config.floor && packer.open; doc++) {
      if (inLanguage !== undefined && (poolLanguages[doc] === language) !== inLanguage) continue;
      if (marks[doc] || scores[doc]! > 0 || candidates?.has(doc) || !packer.fits(doc)) continue;
      packer.send(doc, 'floor', 0);
    }
  }
}

/** BM25's matches (rank order) and the semantic list, fused; each candidate's ranks in both. */
function fuse(index: RetrievalIndex, docs: Int32Array, scores: Float64Array, query: Extract<SemanticQuery, { kind: 'vector' }>): SemanticSelection {
  const lexical = Array.from(docs).sort((a, b) => (ranksAbove(scores, a, b) ? -1 : 1));
  const { settings } = query;
  const semantic = semanticRanking(query.sections, query.query, settings);
  const order = reciprocalRankFusion([lexical, semantic.docs], settings.rrfK);
  const ranks = new Map<number, FusionRanks>(order.map((doc) => [doc, {}]));
  lexical.forEach((doc, i) => (ranks.get(doc)!.lexicalRank = i + 1));
  semantic.docs.forEach((doc, i) => (ranks.get(doc)!.semanticRank = i + 1));
  for (const [doc, r] of ranks) if (!Number.isNaN(semantic.similarity[doc]!)) r.similarity = semantic.similarity[doc]!;
  const stage: SemanticStage = {
    status: 'fused',
    model: settings.model,
    rrfK: settings.rrfK,
    topK: settings.topK,
    minSimilarity: settings.minSimilarity,
    listed: semantic.docs.length,
    unembedded: unembeddedCount(query.sections),
    ms: query.ms,
  };
  return { stage, fused: { order, ranks } };
}

function fallbackOf(query: Extract<SemanticQuery, { kind: 'fallback' }>): SemanticSelection {
  return { stage: { status: 'fallback', model: query.model, reason: query.reason, ...(query.ms === undefined ? {} : { ms: query.ms }) } };
}

function skipped(model: string, confidence: number, fuseBelow: number): SemanticSelection {
  return { stage: { status: 'skipped', model, confidence, fuseBelow } };
}

/** The stage for this turn: fused, fell back, or skipped because BM25 was confident (`confidence`: the scored query's). */
function semanticStage(index: RetrievalIndex, docs: Int32Array, scores: Float64Array, semantic: SemanticQuery, confidence: number): SemanticSelection {
  if (semantic.kind === 'fallback') return fallbackOf(semantic);
  if (semantic.kind === 'skipped') return skipped(semantic.model, semantic.confidence, semantic.fuseBelow);
  const { model, fuseBelow } = semantic.settings;
  return fusesAt(confidence, fuseBelow) ? fuse(index, docs, scores, semantic) : skipped(model, confidence, fuseBelow);
}

/**
 * What to send for the customer's messages (oldest first; only the last two are used).
 * `semantic`: the semantic stage's input for this turn, when the stage is on.
 */
export function select(index: RetrievalIndex, customerMessages: readonly string[], semantic?: SemanticQuery, hints?: LanguageHints): Selection {
  return selectScored(index, scoreQuery(index, customerMessages, hints), semantic);
}

/** Packing for a query already scored (score.ts): what a turn does after deciding whether to embed its query. */
export function selectScored(index: RetrievalIndex, scored: ScoredQuery, semantic?: SemanticQuery): Selection {
  const { config, scratch } = index;
  const { query, topScore } = scored;
  const { docs, scores: matchedScores } = scored.matched;
  const matchedCount = docs.length;
  const { scores, heap, sent: marks } = scratch;
  for (let i = 0; i < matchedCount; i++) scores[docs[i]!] = matchedScores[i]!;

  const packer = new Packer(index, marks);
  const stage = semantic === undefined ? undefined : semanticStage(index, docs, scores, semantic, scored.confidence);
  const fused = stage?.fused;
  if (fused) packInOrder(packer, fused.order, scores);
  else {
    heap.set(docs);
    packScored(packer, heap, matchedCount, scores);
  }
  if (packer.scored < config.floor) packFloor(packer, index, scores, marks, fused?.ranks, query.language?.analysed);

  // Reset the scratch buffers for the next selection.
  for (let i = 0; i < matchedCount; i++) scores[docs[i]!] = 0;
  for (const { doc } of packer.sent) marks[doc] = 0;

  const selection: Selection = {
    index,
    query,
    matched: { docs, scores: matchedScores },
    sent: packer.sent,
    counts: { matched: fused ? fused.order.length : matchedCount, scored: packer.sent.length - packer.floorCount, floor: packer.floorCount },
    tokens: {
      pinned: index.pinnedTokens,
      scored: packer.scored,
      floor: packer.floor,
      total: index.pinnedTokens + packer.scored + packer.floor,
    },
    floorUsed: packer.floor > 0,
    topScore,
    sentIds: packer.sentIds,
    context: packer.blocks.join(''),
    bm25: scored.bm25,
  };
  if (stage) selection.semantic = stage;
  return selection;
}
