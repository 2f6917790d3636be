import type { Selection } from '../../select/select';
import type { Explanation, Query } from '../../types';
import { explain } from '../explain';
import { expandSelection, derivedLexicalRanks } from './from-record';
import { lookupsOf, pinnedPositions } from './kb-version';
import { packSelection } from './pack-selection';
import { decodePacked, parseRecord, recordText, type PackedFields, type RecordExtras, type StoredFusion } from './packed';
import { diffJson } from './patch';
import { promptFrameOf, type PromptPieces } from './prompt-frame';
import { decodeQuery, encodeQuery } from './query-codec';
import { REASON_CODES, type KbVersion, type PromptFrame, type SectionReasons, type TurnRecord, type TurnSummary } from './record';
import { dfOf } from './scores';
import { VarintWriter } from './varint';

/**
 * A turn's record (record.ts): from its selection, as a chat turn makes it (pack-selection.ts:
 * nothing is explained), or from its explanation. Either way it is the one stored form
 * (packed.ts), and from-record.ts gives back the explanation and the prompt exactly:
 * from an explanation, what the packed fields do not give back is stated beside them (its
 * fused ranks, its own prompt, its exceptions).
 */

/** A chat turn's record, straight from its selection; through its explanation when the packed fields cannot express it. */
export function turnRecordOf(selection: Selection, systemPrompt: string, kb: KbVersion, layout?: PromptPieces): TurnRecord {
  const packed = packSelection(selection, kb);
  if (!packed) return explainedRecordOf(explain(selection), systemPrompt, kb, layout);
  const prompt = promptToStore(systemPrompt, selection.context, kb, layout);
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
    selection: { text: recordText(packed.fields, 'own' in prompt ? { frame: [prompt.own] } : {}), reasons: packed.reasons },
    ...('frame' in prompt ? { frame: prompt.frame } : {}),
  };
}

/** A turn's record from its explanation and prompt (a prompt not built from the KB version's texts is kept as its own). */
export function explainedRecordOf(explanation: Explanation, systemPrompt: string, kb: KbVersion, layout?: PromptPieces): TurnRecord {
  return recordOfExplanation(explanation, kb, promptToStore(systemPrompt, explanation.context, kb, layout));
}

/** How a turn's prompt is kept: a frame around the KB version's texts (kept once per distinct frame), or its own text, in its record. */
export type PromptToStore = { frame: PromptFrame } | { own: string };

export function promptToStore(systemPrompt: string, context: string, kb: KbVersion, layout?: PromptPieces): PromptToStore {
  const frame = promptFrameOf(systemPrompt, context, kb, layout);
  return frame ? { frame } : { own: systemPrompt };
}

/**
 * The record of an explanation on a KB version (NO_KB_VERSION for a turn recorded before KB
 * versions were): the packed fields that give back as much of it as they can, and what they do
 * not give back beside them, so the record reads back as `explanation` exactly (as JSON has it).
 * `question` is the one the store reads the record back with (the turn's own).
 */
export function recordOfExplanation(explanation: Explanation, kb: KbVersion, prompt: PromptToStore, question = explanation.query.question): TurnRecord {
  const summary = summaryOf(explanation);
  const query = decodeQuery(question, encodeQuery(explanation.query));
  const own = 'own' in prompt ? { frame: [prompt.own] } : {};
  const packing = packedFieldsOf(explanation, kb, query);
  let made = derivedFrom(packing, query, summary, kb, own);
  // Ranked in another order than their scores give (one language's own statistics, a list cut before a sent section): stated.
  if (made && !packing.extras.ordered && !sameRankOrder(made.derived, explanation, kb)) {
    made = derivedFrom({ ...packing, extras: { ...packing.extras, ordered: true } }, query, summary, kb, own) ?? made;
  }
  if (!made) made = derivedFrom({ fields: { df: query.terms.map(() => null), ranked: '', sent: [], noMatchListed: 0 }, extras: {} }, query, summary, kb, own)!;
  const x = diffJson(made.derived, explanation);
  return {
    query: explanation.query,
    summary,
    selection: { text: recordText(made.fields, { ...made.extras, ...own, ...(x ? { x } : {}) }), reasons: sectionReasonsOf(explanation, kb) },
    ...('frame' in prompt ? { frame: prompt.frame } : {}),
  };
}

interface Packing {
  fields: PackedFields;
  extras: RecordExtras;
}

/** The explanation a packing gives back, read as the store reads it (its text parsed); undefined when it does not read (a field that does not fit the KB version). */
function derivedFrom(packing: Packing, query: Query, summary: TurnSummary, kb: KbVersion, own: RecordExtras): (Packing & { derived: Explanation }) | undefined {
  const read = (extras: RecordExtras) => expandSelection(decodePacked(parseRecord(recordText(packing.fields, { ...extras, ...own })), query, kb), query, summary, kb);
  let derived: Explanation;
  try {
    derived = read(packing.extras);
  } catch {
    return undefined;
  }
  return { ...packing, derived };
}

function summaryOf(e: Explanation): TurnSummary {
  return { budget: e.budget, tokens: e.tokens, floorUsed: e.floorUsed, counts: e.counts, topScore: e.topScore, omitted: e.omitted };
}

/** The inspector's rows: every section listed as pinned, matched or floor, by KB position (or by id, where the KB version has no such section). */
function sectionReasonsOf(e: Explanation, kb: KbVersion): SectionReasons<number | string> {
  const { byId } = lookupsOf(kb);
  const rows: SectionReasons<number | string> = { keys: [], codes: [] };
  for (const v of e.sections) {
    const code = REASON_CODES.indexOf(v.reason);
    if (v.reason === 'no-match' || code < 0) continue;
    rows.keys.push(byId.get(v.id) ?? v.id);
    rows.codes.push(code);
  }
  return rows;
}

/**
 * The packed fields that give back as much of an explanation as they can: each ranked section's
 * term frequencies and the terms' document frequencies (where the KB version has the section),
 * the send order, the unmatched tail, the stage; its order when sorting by score would not give
 * it, the fused ranks.
 */
function packedFieldsOf(e: Explanation, kb: KbVersion, query: Query): Packing {
  const { byId, docCount } = lookupsOf(kb);
  const termIndex = new Map(query.terms.map((t, i) => [t.term, i]));
  const df: PackedFields['df'] = query.terms.map(() => null);
  const ranked = e.sections.filter((v) => v.rank !== undefined && byId.has(v.id));
  const writer = new VarintWriter();
  for (const v of ranked) {
    const pairs = new Map<number, number>();
    for (const m of v.matches ?? []) {
      const d = dfOf(m.idf, docCount);
      // A synonym group's terms need a number (their largest gives the group's idf): the nearest, when none gives it back.
      const groupDf = typeof d === 'number' ? d : Math.max(0, Math.round((docCount + 1) / Math.exp(m.idf) - 0.5));
      // A group's clause holds its terms the KB has, a listed section matched them or not: those from its first (the terms
      // before it are not in the KB) whose weight is not above the clause's (its weight is their largest).
      const first = m.group ? termIndex.get(m.term) : undefined;
      const clause = first === undefined ? undefined : query.terms[first]!.clause;
      if (clause !== undefined) query.terms.forEach((t, i) => i >= first! && t.clause === clause && t.weight > 0 && t.weight <= m.weight && (df[i] ??= groupDf));
      for (const { term, tf } of m.group ?? [{ term: m.term, tf: m.tf }]) {
        const t = termIndex.get(term);
        if (t === undefined || !Number.isInteger(tf) || tf <= 0 || pairs.has(t)) continue;
        pairs.set(t, tf);
        df[t] ??= m.group ? groupDf : d;
      }
    }
    writer.reserve(2 + 2 * pairs.size);
    writer.write(byId.get(v.id)!);
    writer.write(pairs.size);
    for (const [t, tf] of pairs) {
      writer.write(t);
      writer.write(tf);
    }
  }
  const pinned = pinnedPositions(kb);
  const sentAt = e.sentIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  const sent = pinned.every((at, i) => sentAt[i] === at) ? sentAt.slice(pinned.length) : sentAt;
  const fields: PackedFields = { df, ranked: writer.toBase64url(), sent, noMatchListed: noMatchListedOf(e, kb, new Set([...pinned, ...ranked.map((v) => byId.get(v.id)!), ...sent])), ...(e.semantic ? { stage: e.semantic } : {}) };
  const fusion = e.semantic?.status === 'fused' ? fusionOf(ranked, ranked.map((v) => byId.get(v.id)!)) : undefined;
  // The semantic stage's fused ranking is not the scores' order: stated.
  const ordered = e.semantic?.status === 'fused';
  return { fields, extras: { ...(ordered ? { ordered } : {}), ...(fusion ? { fusion } : {}) } };
}

/** Whether `derived` lists its ranked sections in the order `e` lists those of them the KB version has. */
function sameRankOrder(derived: Explanation, e: Explanation, kb: KbVersion): boolean {
  const { byId } = lookupsOf(kb);
  const ids = (x: Explanation) => x.sections.flatMap((v) => (v.rank !== undefined && byId.has(v.id) ? [v.id] : []));
  const [a, b] = [ids(derived), ids(e)];
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/** How many unmatched sections end the list as the KB version gives them (its first unpinned ones not listed before, in file order); 0 when they are not those. */
function noMatchListedOf(e: Explanation, kb: KbVersion, listed: ReadonlySet<number>): number {
  let start = e.sections.length;
  while (start > 0) {
    const v = e.sections[start - 1]!;
    if (v.reason !== 'no-match' || v.score !== 0 || v.rank !== undefined || v.matches !== undefined) break;
    start--;
  }
  const ids = e.sections.slice(start).map((v) => v.id);
  const tail: string[] = [];
  for (let at = 0; at < kb.sections.length && tail.length < ids.length; at++) if (!kb.sections[at]!.pinned && !listed.has(at)) tail.push(kb.sections[at]!.id);
  return tail.length === ids.length && tail.every((id, i) => id === ids[i]) ? ids.length : 0;
}

/** The fused verdicts' ranks as a record states them: every similarity and semantic rank; the BM25 ranks only where the scores do not give them. */
function fusionOf(fused: Explanation['sections'], positions: readonly number[]): StoredFusion | undefined {
  if (!fused.every((v) => v.fusion)) return undefined;
  const sim = fused.map((v) => v.fusion!.similarity ?? null);
  const sem = fused.flatMap((v, i): [number, number][] => (v.fusion!.semanticRank === undefined ? [] : [[i, v.fusion!.semanticRank]]));
  const lex = fused.map((v) => v.fusion!.lexicalRank ?? null);
  const derived = derivedLexicalRanks(fused.map((v) => v.score), positions);
  return { sim, sem, ...(derived.every((r, i) => r === lex[i]) ? {} : { lex }) };
}
