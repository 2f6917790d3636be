import { renderSectionBlock } from '../../context-text';
import { bm25Idf } from '../../rank/bm25';
import { heapify, popTop } from '../../rank/rank-heap';
import type { RetrievalIndex } from '../../select/build-index';
import type { Selection } from '../../select/select';
import type { Explanation } from '../../types';
import { lookupsOf, originOf, pinnedPositions } from './kb-version';
import { clauseLayout, type PackedFields } from './packed';
import { REASON_CODES, type KbVersion, type SectionReasons } from './record';
import { VarintWriter } from './varint';

/**
 * A chat turn's selection in the packed record (packed.ts, format 3), straight from the
 * selection: what a chat turn stores, built after its reply started streaming
 * (lib/chat/record-turn.ts), without building the explanation. Read back, it gives what
 * `explain(selection)` gives (record.test.ts checks it).
 *
 * It costs O(matched + listed × query terms), never O(KB): the matched sections are ranked
 * only when explainLimit cuts the list, and then from a heap as far as the list goes; each listed
 * one's term frequencies come from one pass over the query terms' postings; the unmatched
 * sections are a count (from-record.ts lists them from the KB version). A selection the
 * packed fields cannot express is recorded through its explanation instead (to-record.ts): a KB
 * version of another index, the semantic stage's fused ranking, an index whose scores the KB
 * version does not give back (BM25F fields, fractional term weights), a list cut by explainLimit
 * before a sent section, a query with a term twice, a selection scored with one language's BM25
 * statistics (selection.bm25: a KB of several languages).
 */

const PINNED = REASON_CODES.indexOf('pinned');
const SCORED = REASON_CODES.indexOf('scored');
const OVER_BUDGET = REASON_CODES.indexOf('over-budget');
const FLOOR = REASON_CODES.indexOf('floor');

/**
 * Per index, reused by every packing (selection is synchronous): each pool document's place in
 * the list plus 1 (0: not listed), the term hits of the listed sections, the byte writer.
 */
interface Scratch {
  places: Int32Array;
  hits: Hits;
  writer: VarintWriter;
}
const scratches = new WeakMap<RetrievalIndex, Scratch>();

function scratchOf(index: RetrievalIndex): Scratch {
  let scratch = scratches.get(index);
  if (!scratch) scratches.set(index, (scratch = { places: new Int32Array(index.pool.length), hits: new Hits(), writer: new VarintWriter() }));
  return scratch;
}

/** Query terms found in listed sections: (place in the list, query term index, tf), in the order found; grouped by place with `byPlace`. */
class Hits {
  count = 0;
  place = new Int32Array(1024);
  term = new Int32Array(1024);
  tf = new Float64Array(1024);
  private order = new Int32Array(1024);
  private perPlace = new Int32Array(256);

  /** Empties the list, with room for `more` hits. */
  reset(more: number): void {
    this.count = 0;
    this.reserve(more);
  }

  reserve(more: number): void {
    const needed = this.count + more;
    if (needed <= this.place.length) return;
    const size = Math.max(needed, this.place.length * 2);
    const grow = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a.subarray(0, this.count));
      return b;
    };
    this.place = grow(this.place, (n) => new Int32Array(n));
    this.term = grow(this.term, (n) => new Int32Array(n));
    this.tf = grow(this.tf, (n) => new Float64Array(n));
    this.order = new Int32Array(size);
  }

  add(place: number, term: number, tf: number): void {
    const h = this.count++;
    this.place[h] = place;
    this.term[h] = term;
    this.tf[h] = tf;
  }

  /**
   * The hits grouped by place (a counting sort: within a place, in the order found), as
   * `order` (hit numbers) and `starts` (place k's hits are order[starts[k] … starts[k + 1])).
   */
  byPlace(places: number): { order: Int32Array; starts: Int32Array } {
    if (this.perPlace.length < places + 1) this.perPlace = new Int32Array(Math.max(places + 1, this.perPlace.length * 2));
    const starts = this.perPlace;
    starts.fill(0, 0, places + 1);
    for (let h = 0; h < this.count; h++) starts[this.place[h]! + 1]!++;
    for (let k = 0; k < places; k++) starts[k + 1]! += starts[k]!;
    const next = starts.slice(0, places);
    for (let h = 0; h < this.count; h++) this.order[next[this.place[h]!]!++] = h;
    return { order: this.order, starts };
  }
}

/** Whether the KB version gives back this index's tf̃ and scores bit for bit: one field of weight 1 (the default), as kbVersionOf records it. */
function scoresDerivable(index: RetrievalIndex): boolean {
  const { fields } = index.bm25;
  return fields.length === 1 && fields[0]!.weight === 1 && (fields[0]!.b === undefined || fields[0]!.b === index.config.b);
}

/** Per KB version: pool documents whose block was checked against the KB version's (1) or found to differ (2). */
const checkedBlocks = new WeakMap<KbVersion, Uint8Array>();

/** Whether the KB version renders pool document `doc`'s block as the selection sent it (checked once per document). */
function sameBlock(kb: KbVersion, index: RetrievalIndex, doc: number, at: number): boolean {
  let checked = checkedBlocks.get(kb);
  if (!checked) checkedBlocks.set(kb, (checked = new Uint8Array(index.pool.length)));
  if (checked[doc] === 0) checked[doc] = renderSectionBlock(kb.sections[at]!) === index.poolBlocks[doc] ? 1 : 2;
  return checked[doc] === 1;
}

/** Whether a term string comes twice in the query (its verdicts would name it ambiguously). */
function hasRepeatedTerm(terms: Selection['query']['terms']): boolean {
  for (let i = 1; i < terms.length; i++) for (let j = 0; j < i; j++) if (terms[i]!.term === terms[j]!.term) return true;
  return false;
}

/**
 * The matched documents listed: every one sent, and unsent ones up to `limit`, in rank order
 * when it cuts (all of them, in no order, when it does not: their ranks follow from their
 * scores on read). Undefined when the limit cuts the list before a sent one (the listed are then
 * not the first ranks). When it cuts, the matches are popped from a heap in rank order (score
 * desc, then file order, as explain lists them) only as far as the list goes: O(matched +
 * listed × log matched), no sort of every match.
 */
function listedMatches(selection: Selection, scoredSent: ReadonlySet<number>, limit: number): { docs: ArrayLike<number>; unsent: number } | undefined {
  const { docs: matched, scores } = selection.matched;
  if (matched.length - scoredSent.size <= limit) return { docs: matched, unsent: matched.length - scoredSent.size };
  const full = selection.index.scratch.scores;
  for (let i = 0; i < matched.length; i++) full[matched[i]!] = scores[i]!;
  try {
    const heap = Int32Array.from(matched);
    let size = heap.length;
    heapify(heap, size, full);
    const docs: number[] = [];
    let unsent = 0;
    let toSend = scoredSent.size;
    for (let i = 0; size > 0 && (toSend > 0 || unsent < limit); i++) {
      const doc = popTop(heap, size--, full);
      if (scoredSent.has(doc)) {
        if (docs.length < i) return undefined;
        toSend--;
      } else if (unsent < limit) unsent++;
      else continue;
      docs.push(doc);
    }
    return { docs, unsent };
  } finally {
    for (let i = 0; i < matched.length; i++) full[matched[i]!] = 0; // left as found: the next selection reads it
  }
}

/** What a selection's record holds, as format 3's fields, with the inspector's rows and the counts and `omitted` the explanation would have; undefined when the packed fields cannot express this selection. */
export function packSelection(selection: Selection, kb: KbVersion): { fields: PackedFields; reasons: SectionReasons<number>; counts: Explanation['counts']; omitted: number } | undefined {
  const { index, query } = selection;
  const origin = originOf(kb);
  // Scores from a language's own BM25 statistics (a KB of several languages) are not the KB version's: explained instead.
  if (origin?.index !== index || selection.bm25 !== index.bm25 || selection.semantic?.fused || !scoresDerivable(index)) return undefined;
  const { positions } = origin;
  const { bm25, config, pool } = index;
  const { terms } = query;
  const termIds = terms.map((t) => bm25.termIds.get(t.term) ?? -1);
  if (hasRepeatedTerm(terms)) return undefined;
  const { docCount } = lookupsOf(kb);
  // A term scored alone: its df, or [idf] where the df does not give it back; a synonym group's terms: their df.
  const grouped = new Set<number>();
  if (terms.some((t) => t.clause !== undefined)) {
    for (const clause of clauseLayout(terms, termIds.map((id) => id >= 0)).members) if (clause.length > 1) for (const i of clause) grouped.add(i);
  }
  const df = termIds.map((id, i): number | [number] | null => {
    if (id < 0) return null;
    const n = bm25.docFreqs[id]!;
    return grouped.has(i) || Object.is(bm25Idf(docCount, n), bm25.idfs[id]) ? n : [bm25.idfs[id]!];
  });

  const scoredSent = new Set<number>();
  for (const s of selection.sent) if (s.reason === 'scored') scoredSent.add(s.doc);
  const listed = listedMatches(selection, scoredSent, config.explainLimit);
  if (!listed) return undefined;
  const { docs } = listed;

  // The query terms in the listed sections: one pass over each clause term's postings.
  const { places, hits, writer } = scratchOf(index);
  for (let k = 0; k < docs.length; k++) places[docs[k]!] = k + 1;
  hits.reset(0);
  try {
    const { starts, docs: postingDocs, freqs } = bm25;
    const occurrences = freqs[0]!;
    for (let i = 0; i < terms.length; i++) {
      const id = termIds[i]!;
      if (id < 0 || !(terms[i]!.weight > 0)) continue;
      const from = starts[id]!;
      const to = starts[id + 1]!;
      hits.reserve(to - from);
      for (let p = from; p < to; p++) {
        const place = places[postingDocs[p]!]!;
        if (place !== 0) hits.add(place - 1, i, occurrences[p]!);
      }
    }
  } finally {
    for (let k = 0; k < docs.length; k++) places[docs[k]!] = 0;
  }
  for (let h = 0; h < hits.count; h++) if (!Number.isInteger(hits.tf[h])) return undefined; // fractional weighted occurrences: not packed

  const pinned = pinnedPositions(kb);
  const reasons = { keys: [...pinned], codes: pinned.map(() => PINNED) };
  const { order, starts } = hits.byPlace(docs.length);
  writer.reset();
  writer.reserve(2 * docs.length + 2 * hits.count);
  for (let k = 0; k < docs.length; k++) {
    const doc = docs[k]!;
    const at = positions[doc]!;
    reasons.keys.push(at);
    reasons.codes.push(scoredSent.has(doc) ? SCORED : OVER_BUDGET);
    writer.write(at);
    writer.write(starts[k + 1]! - starts[k]!);
    for (let o = starts[k]!; o < starts[k + 1]!; o++) {
      const h = order[o]!;
      writer.write(hits.term[h]!);
      writer.write(hits.tf[h]!);
    }
  }
  const sent: number[] = [];
  for (const s of selection.sent) {
    const at = positions[s.doc]!;
    if (!sameBlock(kb, index, s.doc, at)) return undefined;
    if (s.reason === 'floor') {
      reasons.keys.push(at);
      reasons.codes.push(FLOOR);
    }
    sent.push(at);
  }

  const { matched, scored, floor } = selection.counts;
  const noMatch = pool.length - matched - floor;
  // The unmatched sections listed after these: the first ones in file order (from-record.ts finds them in the KB version).
  const noMatchListed = Math.max(0, Math.min(config.explainLimit - listed.unsent, noMatch));
  return {
    fields: { df, ranked: writer.toBase64url(), sent, noMatchListed, ...(selection.semantic ? { stage: selection.semantic.stage } : {}) },
    reasons,
    counts: { sections: index.sections.length, pinned: index.pinned.length, matched, scored, floor, overBudget: matched - scored, noMatch },
    omitted: matched - scored + noMatch - listed.unsent - noMatchListed,
  };
}
