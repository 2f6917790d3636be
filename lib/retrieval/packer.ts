import { scoreInto } from './bm25';
import { renderSectionBlock } from './context';
import { buildQuery, type Query } from './query';
import { heapify, popTop, ranksAbove } from './rank-heap';
import type { RetrievalIndex, TokenSplit } from './select';

/**
 * Packing: what one request sends, computed as cheaply as the decision allows. The
 * explanation (explain.ts) is built from this on demand, for the CLI, /debug and the trace.
 *
 * 1. Score the query's terms (bm25.ts): only their postings are read.
 * 2. Scored sections in rank order (score desc, then file order), popped from a heap
 *    while anything could still fit; a section that does not fit is skipped and the next
 *    one tried. After `POPS_BEFORE_SCAN` pops the rest is taken in one pass instead: the
 *    sections that fit what is left, in rank order (what is left only shrinks, so no other
 *    section could fit later: same result, fewer steps on a large KB).
 * 3. Floor: if the scored sections total fewer than `floor` tokens, unmatched sections are
 *    added in file order until the floor is reached, never past the budget.
 * Every section sent goes through `Packer.send`, the one place that counts it.
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
  /** How many sections matched, and how many were sent as scored and as floor. */
  counts: { matched: number; scored: number; floor: number };
  tokens: TokenSplit;
  floorUsed: boolean;
  topScore: number;
  /** Ids in the order their blocks appear in `context` (pinned first). */
  sentIds: string[];
  /** The exact knowledge text sent to the model (see context.ts). */
  context: string;
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

/** Unmatched sections in file order until the floor is reached (never past the budget). */
function packFloor(packer: Packer, index: RetrievalIndex, scores: Float64Array, marks: Uint8Array): void {
  const { pool, config } = index;
  for (let doc = 0; doc < pool.length && packer.scored + packer.floor < config.floor && packer.open; doc++) {
    if (marks[doc] || scores[doc]! > 0 || !packer.fits(doc)) continue;
    packer.send(doc, 'floor', 0);
  }
}

/** What to send for the customer's messages (oldest first; only the last two are used). */
export function select(index: RetrievalIndex, customerMessages: readonly string[]): Selection {
  const { config, bm25, scratch } = index;
  const query = buildQuery(customerMessages, index.synonyms, config, index.typos);
  const { scores, touched, heap, sent: marks } = scratch;
  const matchedCount = scoreInto(bm25, query.terms, config, scores, touched);

  const docs = touched.slice(0, matchedCount);
  const matchedScores = new Float64Array(matchedCount);
  let topScore = 0;
  for (let i = 0; i < matchedCount; i++) topScore = Math.max(topScore, (matchedScores[i] = scores[docs[i]!]!));

  const packer = new Packer(index, marks);
  heap.set(docs);
  packScored(packer, heap, matchedCount, scores);
  if (packer.scored < config.floor) packFloor(packer, index, scores, marks);

  // Reset the scratch buffers for the next selection.
  for (let i = 0; i < matchedCount; i++) scores[docs[i]!] = 0;
  for (const { doc } of packer.sent) marks[doc] = 0;

  return {
    index,
    query,
    matched: { docs, scores: matchedScores },
    sent: packer.sent,
    counts: { matched: matchedCount, scored: packer.sent.length - packer.floorCount, floor: packer.floorCount },
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
  };
}
