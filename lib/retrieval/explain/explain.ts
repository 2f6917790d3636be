import type { LanguageHints } from '../query/detect-language';
import { explainTermIds } from '../rank/bm25';
import type { SemanticQuery } from '../rank/semantic';
import type { RetrievalIndex } from '../select/build-index';
import { type Selection, select } from '../select/select';
import type { Explanation, FusionRanks, Reason, Section, SectionVerdict, TermExplanation } from '../types';

/**
 * The explanation of a selection, built when someone asks for it (the CLI, /debug, the
 * trace), not on every request's way to the model. Everything in it comes from the
 * selection: packing is never re-run, so what it says was sent is what was sent.
 *
 * Sections are listed pinned first (file order), then matched by rank (sent, or did not
 * fit), then floor, then unmatched ones (file order). Unsent sections are listed up to
 * `limit` (config `explainLimit`); sent ones always; the counts are always complete.
 *
 * When the semantic stage fused the rankings, matched sections are listed in fused order:
 * `rank` is the fused rank, `fusion` each one's BM25 rank, semantic rank and similarity, and
 * `semantic` on the explanation says how the stage went (or why the turn fell back).
 */

/** The verdict of a matched section: built in one literal (one object shape, no properties added later). */
function matchedVerdict(section: Section, path: string, score: number, sent: boolean, rank: number, matches: TermExplanation[]): SectionVerdict {
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

function verdict(section: Section, path: string, sent: boolean, reason: Reason): SectionVerdict {
  return {
    id: section.id,
    title: section.title,
    path,
    source: section.source,
    pinned: section.pinned,
    score: 0,
    tokens: section.tokens,
    sent,
    reason,
    part: section.part,
  };
}

/** Positions in `selection.matched` in rank order (score desc, then file order). */
function rankOrder({ docs, scores }: Selection['matched']): number[] {
  return Array.from(docs.keys()).sort((a, b) => scores[b]! - scores[a]! || docs[a]! - docs[b]!);
}

/** Matched pool documents in rank order with their BM25 scores (and, when fused, their ranks in both lists). */
function rankedMatches(selection: Selection): { doc: number; score: number; fusion?: FusionRanks }[] {
  const { docs, scores } = selection.matched;
  const fused = selection.semantic?.fused;
  if (!fused) return rankOrder(selection.matched).map((at) => ({ doc: docs[at]!, score: scores[at]! }));
  const scoreOf = new Map(Array.from(docs, (doc, at) => [doc, scores[at]!]));
  return fused.order.map((doc) => ({ doc, score: scoreOf.get(doc) ?? 0, fusion: fused.ranks.get(doc)! }));
}

export function explain(selection: Selection, limit = selection.index.config.explainLimit): Explanation {
  const { index, query, bm25 } = selection;
  const { pool, config } = index;
  const termIds = query.terms.map((t) => bm25.termIds.get(t.term) ?? -1);
  const sentBy = new Map(selection.sent.map((s) => [s.doc, s.reason]));
  const ranked = rankedMatches(selection);
  const matchedDocs = new Set(ranked.map((m) => m.doc));

  const sections: SectionVerdict[] = index.pinned.map((s, i) => verdict(s, index.pinnedPaths[i]!, true, 'pinned'));
  let listed = 0; // unsent sections listed, against `limit`
  ranked.forEach(({ doc, score, fusion }, i) => {
    const sent = sentBy.get(doc) === 'scored';
    if (!sent && listed >= limit) return;
    if (!sent) listed++;
    const matches = score > 0 ? explainTermIds(bm25, termIds, query.terms, config, doc) : [];
    const v = matchedVerdict(pool[doc]!, index.poolPaths[doc]!, score, sent, i + 1, matches);
    if (fusion) v.fusion = fusion;
    sections.push(v);
  });
  for (const { doc, reason } of selection.sent) if (reason === 'floor') sections.push(verdict(pool[doc]!, index.poolPaths[doc]!, true, 'floor'));
  for (let doc = 0; doc < pool.length && listed < limit; doc++) {
    if (sentBy.has(doc) || matchedDocs.has(doc)) continue;
    sections.push(verdict(pool[doc]!, index.poolPaths[doc]!, false, 'no-match'));
    listed++;
  }

  const { matched, scored, floor } = selection.counts;
  const unsent = matched - scored + (pool.length - matched - floor);
  const explanation: Explanation = {
    query,
    budget: config.budget,
    config,
    tokens: selection.tokens,
    floorUsed: selection.floorUsed,
    counts: {
      sections: index.sections.length,
      pinned: index.pinned.length,
      matched,
      scored,
      floor,
      overBudget: matched - scored,
      noMatch: pool.length - matched - floor,
    },
    topScore: selection.topScore,
    sections,
    omitted: unsent - listed,
    sentIds: selection.sentIds,
    context: selection.context,
    pinnedChars: index.pinnedContext.length,
  };
  if (selection.semantic) explanation.semantic = selection.semantic.stage;
  return explanation;
}

/**
 * Selects the knowledge for one request from the customer's messages (oldest first; only the
 * last two are used) and explains every decision: `explain(select(…))`, for tests and tools
 * that want both at once. A chat turn selects first and explains later (lib/knowledge/retrieve.ts).
 */
export function selectContext(index: RetrievalIndex, customerMessages: readonly string[], semantic?: SemanticQuery, hints?: LanguageHints): Explanation {
  return explain(select(index, customerMessages, semantic, hints));
}
