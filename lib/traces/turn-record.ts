import { bm25Idf, explain, rankMatches, renderSectionBlock, type Explanation, type RetrievalIndex, type Selection } from '../retrieval/index';
import { clauseLayout, compactTurn, lookupsOf, originOf, packedText, pinnedPositions, promptRecord, REASON_CODES, type KbVersion, type PackedSelection, type TurnRecord } from './compact';
import type { PromptLayout } from '../ai/prompt';
import { VarintWriter } from './varint';

/**
 * A turn's record straight from its selection, in the store's packed form (compact.ts, format
 * 3): what a chat turn stores, built after its reply started streaming (lib/chat/record-turn.ts).
 * Read back, it is what `compactTurn(explain(selection), prompt, kb)` gives (compact.test.ts
 * checks it), without building the explanation.
 *
 * It costs O(matched + listed × query terms), never O(KB): the matched sections are ranked
 * natively (rankMatches); each listed one's term frequencies come from one pass over the query
 * terms' postings; the unmatched sections are a count (expandTurn lists them from the KB
 * version); the prompt is framed by its own layout (`layout`: lib/ai/prompt.ts). A selection the packed form cannot express goes through the explanation, as
 * before: a KB version of another index, the semantic stage's fused ranking, an index whose
 * scores the KB version does not give back (BM25F fields, fractional term weights), a list cut
 * by explainLimit before a sent section, a query with a term twice.
 */
export function turnRecordOf(selection: Selection, systemPrompt: string, kb: KbVersion, layout?: PromptLayout): TurnRecord {
  const packed = packSelection(selection, kb);
  if (!packed) return compactTurn(explain(selection), systemPrompt, kb);
  return {
    query: selection.query,
    summary: {
      budget: selection.index.config.budget,
      tokens: selection.tokens,
      floorUsed: selection.floorUsed,
      counts: packed.counts,
      topScore: selection.topScore,
      omitted: packed.omitted,
    },
    selection: { packed: packed.selection },
    prompt: promptRecord(systemPrompt, selection.context, kb, layout),
  };
}

const PINNED = REASON_CODES.indexOf('pinned');
const SCORED = REASON_CODES.indexOf('scored');
const OVER_BUDGET = REASON_CODES.indexOf('over-budget');
const FLOOR = REASON_CODES.indexOf('floor');

/** Per index: a slot for each pool document (0: not listed), term frequencies per listed section and query term, the byte writer. */
interface Scratch {
  slots: Int32Array;
  tfs: Float64Array;
  writer: VarintWriter;
}
const scratches = new WeakMap<RetrievalIndex, Scratch>();

function scratchOf(index: RetrievalIndex, tfCells: number): Scratch {
  let scratch = scratches.get(index);
  if (!scratch) scratches.set(index, (scratch = { slots: new Int32Array(index.pool.length), tfs: new Float64Array(1024), writer: new VarintWriter() }));
  if (scratch.tfs.length < tfCells) scratch.tfs = new Float64Array(Math.max(tfCells, scratch.tfs.length * 2));
  return scratch;
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

/** Matched pool documents in rank order (score desc, then file order), as explain lists them. */
function rankOrder(selection: Selection): Int32Array {
  const { docs, scores } = selection.matched;
  const full = selection.index.scratch.scores;
  for (let i = 0; i < docs.length; i++) full[docs[i]!] = scores[i]!;
  const ranked = rankMatches(full, docs, docs.length);
  for (let i = 0; i < docs.length; i++) full[docs[i]!] = 0; // left as found: the next selection reads it
  return ranked;
}

/**
 * The matched documents listed, in rank order: every one sent, and unsent ones up to `limit`;
 * undefined when the limit cuts the list before a sent one (its rank would not follow from its place).
 */
function listedMatches(ranked: Int32Array, scoredSent: ReadonlySet<number>, limit: number): { docs: number[]; unsent: number } | undefined {
  const docs: number[] = [];
  let unsent = 0;
  let toSend = scoredSent.size;
  for (let i = 0; i < ranked.length && (toSend > 0 || unsent < limit); i++) {
    const doc = ranked[i]!;
    if (scoredSent.has(doc)) {
      if (docs.length < i) return undefined;
      toSend--;
    } else if (unsent < limit) unsent++;
    else continue;
    docs.push(doc);
  }
  return { docs, unsent };
}

/** The packed selection, with the counts and `omitted` the explanation would have; undefined when it cannot express this selection. */
export function packSelection(selection: Selection, kb: KbVersion): { selection: PackedSelection; counts: Explanation['counts']; omitted: number } | undefined {
  const { index, query } = selection;
  const origin = originOf(kb);
  if (origin?.index !== index || selection.semantic?.fused || !scoresDerivable(index)) return undefined;
  const { positions } = origin;
  const { bm25, config, pool } = index;
  const { terms } = query;
  const termIds = terms.map((t) => bm25.termIds.get(t.term) ?? -1);
  if (new Set(terms.map((t) => t.term)).size !== terms.length) return undefined;
  const { docCount } = lookupsOf(kb);
  // A term scored alone: its df, or [idf] where the df does not give it back; a synonym group's terms: their df.
  const inKb = termIds.map((id) => id >= 0);
  const grouped = new Set(clauseLayout(terms, inKb).members.flatMap((clause) => (clause.length > 1 ? clause : [])));
  const df = termIds.map((id, i): number | [number] | null => {
    if (id < 0) return null;
    const n = bm25.docFreqs[id]!;
    return grouped.has(i) || Object.is(bm25Idf(docCount, n), bm25.idfs[id]) ? n : [bm25.idfs[id]!];
  });

  const scoredSent = new Set<number>();
  for (const s of selection.sent) if (s.reason === 'scored') scoredSent.add(s.doc);
  const listed = listedMatches(rankOrder(selection), scoredSent, config.explainLimit);
  if (!listed) return undefined;
  const { docs } = listed;

  // Term frequencies of the listed sections: one pass over each clause term's postings.
  const T = terms.length;
  const scratch = scratchOf(index, docs.length * T);
  const { slots, tfs, writer } = scratch;
  tfs.fill(0, 0, docs.length * T);
  for (let k = 0; k < docs.length; k++) slots[docs[k]!] = k + 1;
  try {
    const { starts, docs: postingDocs, freqs } = bm25;
    const occurrences = freqs[0]!;
    for (let i = 0; i < T; i++) {
      const id = termIds[i]!;
      if (id < 0 || !(terms[i]!.weight > 0)) continue;
      for (let p = starts[id]!, end = starts[id + 1]!; p < end; p++) {
        const slot = slots[postingDocs[p]!]!;
        if (slot !== 0) tfs[(slot - 1) * T + i] = occurrences[p]!;
      }
    }
  } finally {
    for (const doc of docs) slots[doc] = 0;
  }

  const reasons: [number, number][] = pinnedPositions(kb).map((at) => [at, PINNED]);
  writer.reset();
  for (let k = 0; k < docs.length; k++) {
    const doc = docs[k]!;
    const at = positions[doc]!;
    reasons.push([at, scoredSent.has(doc) ? SCORED : OVER_BUDGET]);
    writer.write(at);
    let present = 0;
    for (let i = k * T; i < (k + 1) * T; i++) if (tfs[i] !== 0) present++;
    writer.write(present);
    for (let i = 0; i < T; i++) {
      const tf = tfs[k * T + i]!;
      if (tf === 0) continue;
      if (!Number.isInteger(tf)) return undefined; // fractional weighted occurrences: not packed
      writer.write(i);
      writer.write(tf);
    }
  }
  const sent: number[] = [];
  for (const s of selection.sent) {
    const at = positions[s.doc]!;
    if (!sameBlock(kb, index, s.doc, at)) return undefined;
    if (s.reason === 'floor') reasons.push([at, FLOOR]);
    sent.push(at);
  }

  const { matched, scored, floor } = selection.counts;
  const noMatch = pool.length - matched - floor;
  // The unmatched sections listed after these: the first ones in file order (expandTurn finds them in the KB version).
  const noMatchListed = Math.max(0, Math.min(config.explainLimit - listed.unsent, noMatch));
  const text = packedText({ df, ranked: writer.toBase64url(), sent, noMatchListed, ...(selection.semantic ? { stage: selection.semantic.stage } : {}) });
  return {
    selection: { text, reasons },
    counts: { sections: index.sections.length, pinned: index.pinned.length, matched, scored, floor, overBudget: matched - scored, noMatch },
    omitted: matched - scored + noMatch - listed.unsent - noMatchListed,
  };
}
