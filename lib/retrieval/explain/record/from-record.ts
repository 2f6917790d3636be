import { renderSectionBlock } from '../../context-text';
import type { Explanation, FusionRanks, Query, Reason, SectionVerdict } from '../../types';
import { lookupsOf, NO_KB_VERSION, pinnedPositions } from './kb-version';
import { decodePacked, parseRecord } from './packed';
import { applyPatch } from './patch';
import { fillFrame } from './prompt-frame';
import type { DecodedSelection, DecodedSemantic, DecodedVerdict, KbVersion, StoredRecord, TurnSummary } from './record';
import { sumOf, termExplanationOf } from './scores';

/**
 * A turn's explanation and exact system prompt, rebuilt from its stored record and the KB
 * version it was selected on: the record's selection decoded (packed.ts), each verdict's section
 * and scores taken from the KB version as the selector computes them (scores.ts), what the record
 * states besides applied over that (its exceptions), and the prompt's frame filled with the KB
 * version's texts and the turn's context.
 */
export function turnFromRecord(stored: StoredRecord, kb: KbVersion = NO_KB_VERSION): { explanation: Explanation; systemPrompt: string } {
  const record = parseRecord(stored.text);
  const derived = expandSelection(decodePacked(record, stored.query, kb), stored.query, stored.summary, kb);
  const explanation = record.x === undefined ? derived : (applyPatch(derived, record.x) as Explanation);
  const frame = stored.frame ?? record.frame;
  if (!frame) throw new Error('the turn has no prompt frame: neither a stored one nor its own in the record');
  return { explanation, systemPrompt: fillFrame(frame, kb, explanation.context) };
}

const SENT: Record<Reason, boolean> = { pinned: true, scored: true, floor: true, 'no-match': false, 'over-budget': false };

/** The explanation a decoded selection gives with its query, summary and KB version. */
export function expandSelection(decoded: DecodedSelection, query: Query, summary: TurnSummary, kb: KbVersion): Explanation {
  const { paths } = lookupsOf(kb);
  const { idfs, noMatchListed, pinnedLead, semantic } = decoded;
  const pinned = pinnedLead ? pinnedPositions(kb) : [];
  const verdicts: DecodedVerdict[] = [...pinned.map((at): DecodedVerdict => ({ at, reason: 'pinned' })), ...decoded.verdicts];
  const sent = [...pinned, ...decoded.sent];
  const sentSet = new Set(sent);
  const verdictAt = (v: DecodedVerdict): SectionVerdict => {
    const s = kb.sections[v.at]!;
    const matches = v.matches?.map((m) => termExplanationOf(kb, s, m, query, idfs));
    const verdict: SectionVerdict = {
      id: s.id,
      title: s.title,
      path: paths[v.at]!,
      source: s.source,
      pinned: s.pinned,
      score: v.score ?? sumOf(matches),
      ...(v.rank === undefined ? {} : { rank: v.rank }),
      tokens: s.tokens,
      sent: SENT[v.reason] ?? sentSet.has(v.at),
      reason: v.reason,
    };
    if (matches) verdict.matches = matches;
    if (s.part) verdict.part = s.part;
    return verdict;
  };
  const sections = verdicts.map(verdictAt);
  if (semantic?.stage.status === 'fused') {
    const fused = verdicts.flatMap((v, i) => (v.rank === undefined ? [] : [i]));
    const ranks = fusionOf(semantic, fused.map((i) => sections[i]!), fused.map((i) => verdicts[i]!.at));
    fused.forEach((i, k) => (sections[i]!.fusion = ranks[k]!));
  }
  for (const at of unmatchedTail(kb, new Set(verdicts.map((v) => v.at)), noMatchListed)) sections.push(verdictAt({ at, reason: 'no-match' }));
  const explanation: Explanation = {
    query,
    budget: summary.budget,
    config: kb.config,
    tokens: summary.tokens,
    floorUsed: summary.floorUsed,
    counts: summary.counts,
    topScore: summary.topScore,
    sections,
    omitted: summary.omitted,
    sentIds: sent.map((at) => kb.sections[at]!.id),
    context: sent.map((at) => renderSectionBlock(kb.sections[at]!)).join(''),
    pinnedChars: kb.pinnedContext.length,
  };
  if (semantic) explanation.semantic = semantic.stage;
  return explanation;
}

/** The first `count` unpinned sections in file order that are not in `listed`. */
export function unmatchedTail(kb: KbVersion, listed: ReadonlySet<number>, count: number): number[] {
  const tail: number[] = [];
  for (let at = 0; at < kb.sections.length && tail.length < count; at++) {
    if (!kb.sections[at]!.pinned && !listed.has(at)) tail.push(at);
  }
  return tail;
}

/**
 * BM25 ranks as they follow from the fused verdicts' scores and KB positions (score desc,
 * then file order; null for those with no lexical match): right unless the list was cut.
 */
export function derivedLexicalRanks(scores: readonly number[], positions: readonly number[]): (number | null)[] {
  const matched = scores.flatMap((score, i) => (score > 0 ? [i] : []));
  matched.sort((a, b) => scores[b]! - scores[a]! || positions[a]! - positions[b]!);
  const ranks: (number | null)[] = scores.map(() => null);
  matched.forEach((i, r) => (ranks[i] = r + 1));
  return ranks;
}

/** The fused verdicts' `fusion` ranks (`fused`: the verdicts with a rank, in list order; `positions`: their KB positions). */
function fusionOf(semantic: DecodedSemantic, fused: readonly SectionVerdict[], positions: readonly number[]): FusionRanks[] {
  const lexical = semantic.lexicalRanks ?? derivedLexicalRanks(fused.map((v) => v.score), positions);
  const semanticRank = new Map(semantic.semanticRanks ?? []);
  return fused.map((_, i) => {
    const ranks: FusionRanks = {};
    if (lexical[i] !== null && lexical[i] !== undefined) ranks.lexicalRank = lexical[i]!;
    if (semanticRank.has(i)) ranks.semanticRank = semanticRank.get(i)!;
    const similarity = semantic.similarity?.[i];
    if (similarity !== null && similarity !== undefined) ranks.similarity = similarity;
    return ranks;
  });
}
