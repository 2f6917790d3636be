import { explain, explainTermIds, rankMatches, renderSectionBlock, type Explanation, type Selection } from '../retrieval/index';
import {
  compactMatch,
  compactTurn,
  dfOf,
  lookupsOf,
  originOf,
  promptRecord,
  sumOf,
  type CompactMatch,
  type CompactSelection,
  type CompactVerdict,
  type KbVersion,
  type TurnRecord,
} from './compact';

/**
 * A turn's record straight from its selection: what `compactTurn(explain(selection), prompt,
 * kb)` gives (compact.test.ts checks they are equal), without building the explanation. This is
 * what a chat turn stores, after its reply started streaming (lib/chat/record-turn.ts).
 *
 * It costs O(matched + listed × query terms), never O(KB): the matched sections are ranked
 * natively (rankMatches), each listed one's term parts are read from the postings, and the
 * unmatched sections are a count (expandTurn lists them from the KB version, as the
 * explanation would). A selection it cannot record this way (a KB version of another index,
 * the semantic stage's fused ranking) goes through the explanation, as before.
 */
export function turnRecordOf(selection: Selection, systemPrompt: string, kb: KbVersion): TurnRecord {
  const direct = compactSelectionOf(selection, kb);
  if (!direct) return compactTurn(explain(selection), systemPrompt, kb);
  return {
    query: selection.query,
    summary: {
      budget: selection.index.config.budget,
      tokens: selection.tokens,
      floorUsed: selection.floorUsed,
      counts: direct.counts,
      topScore: selection.topScore,
      omitted: direct.omitted,
    },
    selection: { compact: direct.compact },
    prompt: promptRecord(systemPrompt, selection.context, kb),
  };
}

/** Per KB version: pool documents whose block was checked against the KB version's (1) or found to differ (2). */
const checkedBlocks = new WeakMap<KbVersion, Uint8Array>();

/** Whether the KB version renders the block of pool document `doc` as the selection sent it (checked once per document). */
function sameBlock(kb: KbVersion, selection: Selection, doc: number, at: number): boolean {
  let checked = checkedBlocks.get(kb);
  if (!checked) checkedBlocks.set(kb, (checked = new Uint8Array(selection.index.pool.length)));
  if (checked[doc] === 0) checked[doc] = renderSectionBlock(kb.sections[at]!) === selection.index.poolBlocks[doc] ? 1 : 2;
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
 * The compact selection with the counts and `omitted` the explanation would have; undefined when it
 * cannot be made from the selection alone (`kb` is not this index's, the semantic stage fused).
 */
export function compactSelectionOf(selection: Selection, kb: KbVersion): { compact: CompactSelection; counts: Explanation['counts']; omitted: number } | undefined {
  const { index, query } = selection;
  const origin = originOf(kb);
  if (origin?.index !== index || selection.semantic?.fused) return undefined;
  const { positions } = origin;
  const { bm25, config, pool } = index;
  const limit = config.explainLimit;
  const { docCount } = lookupsOf(kb);
  const termIds = query.terms.map((t) => bm25.termIds.get(t.term) ?? -1);
  const termIndex = new Map(query.terms.map((t, i) => [t.term, i]));
  const queryWeights = query.terms.map((t) => t.weight);
  const idfs: (number | null)[] = query.terms.map(() => null);

  const scoredSent = new Set<number>();
  for (const s of selection.sent) if (s.reason === 'scored') scoredSent.add(s.doc);
  const scoreOf = new Map<number, number>();
  const { docs, scores } = selection.matched;
  for (let i = 0; i < docs.length; i++) scoreOf.set(docs[i]!, scores[i]!);

  const verdicts: CompactVerdict[] = [];
  let listed = 0; // unsent sections listed, against `limit`
  let sentToList = scoredSent.size;
  const ranked = rankOrder(selection);
  for (let i = 0; i < ranked.length && (sentToList > 0 || listed < limit); i++) {
    const doc = ranked[i]!;
    const sent = scoredSent.has(doc);
    if (!sent && listed >= limit) continue;
    if (sent) sentToList--;
    else listed++;
    const at = positions[doc]!;
    const score = scoreOf.get(doc)!;
    const parts = score > 0 ? explainTermIds(bm25, termIds, query.terms, config, doc) : [];
    const matches: CompactMatch[] = [];
    for (const m of parts) {
      const t = termIndex.get(m.term)!;
      if (idfs[t] === null) idfs[t] = m.idf;
      else if (idfs[t] !== m.idf) return undefined;
      const match = compactMatch(m, t, queryWeights, termIndex, kb, kb.sections[at]!);
      if (!match) return undefined;
      matches.push(match);
    }
    const v: CompactVerdict = { at, reason: sent ? 'scored' : 'over-budget', rank: i + 1, matches };
    if (!Object.is(sumOf(parts), score)) v.score = score;
    verdicts.push(v);
  }
  const sent: number[] = [];
  for (const s of selection.sent) {
    const at = positions[s.doc]!;
    if (!sameBlock(kb, selection, s.doc, at)) return undefined;
    if (s.reason === 'floor') verdicts.push({ at, reason: 'floor' });
    sent.push(at);
  }

  const { matched, scored, floor } = selection.counts;
  const noMatch = pool.length - matched - floor;
  // The unmatched sections listed after these: the first ones in file order (expandTurn finds them in the KB version).
  const noMatchListed = Math.max(0, Math.min(limit - listed, noMatch));
  const counts = { sections: index.sections.length, pinned: index.pinned.length, matched, scored, floor, overBudget: matched - scored, noMatch };
  const compact: CompactSelection = {
    idfs: idfs.map((idf) => (idf === null ? null : dfOf(idf, docCount))),
    verdicts,
    noMatchListed,
    pinnedLead: true,
    sent,
  };
  if (selection.semantic) compact.semantic = { stage: selection.semantic.stage };
  return { compact, counts, omitted: matched - scored + noMatch - listed - noMatchListed };
}
