import { z } from 'zod';
import { bm25Idf } from '../../rank/bm25';
import type { Query, SemanticStage } from '../../types';
import { lookupsOf } from './kb-version';
import { patchSchema, type Patch } from './patch';
import type { DecodedGroupTerm, DecodedMatch, DecodedSelection, DecodedVerdict, KbVersion, PromptFrame } from './record';
import { dfOf, sumOf, termExplanationOf } from './scores';
import { VarintReader } from './varint';

/**
 * The packed record: the one stored form of a turn's selection (the `selection` column), which
 * keeps only what the KB version and the query do not give back.
 *
 *   { "v": 3, "df": […], "ranked": "<base64url>", "sent": […], "noMatchListed": n, "stage"?: […] }
 *
 * - df: per query term the KB has, its document frequency; null for a term the KB lacks. The
 *   idf follows with the selector's formula and the KB version's section count (a synonym
 *   group's from its terms' largest df); [idf] for a term scored alone where that does not give
 *   its idf back;
 * - ranked: the matched sections listed, in any order, as varints (varint.ts): KB position, how
 *   many terms occur in it, then each one's [query term index, tf]. A clause's tf is its terms'
 *   sum; synonym groups, weights, tf̃ and scores follow from the query, the df and the KB version
 *   (the selector's own formulas, bit for bit), and the ranks from the scores (descending, then
 *   file order), as the selector ranks;
 * - sent: KB positions of the sections sent after the pinned ones (the pinned lead both lists),
 *   in send order: a ranked one is `scored`, the others `floor`, listed after the ranked ones;
 *   every other matched section did not fit (`over-budget`);
 * - noMatchListed: how many unmatched sections end the list (the KB's first unpinned ones not
 *   listed above, in file order); stage: the semantic stage, when it was on.
 *
 * What that does not give back is stated beside it, in a record of format 4:
 *
 *   { "v": 4, "packed": { …format 3… }, "ordered"?: 1, "fusion"?: {…}, "frame"?: […], "x"?: {…} }
 *
 * - ordered: `ranked` lists the matched sections in rank order (the semantic stage's fused
 *   ranking, or a list explainLimit cut before a sent section), not to be sorted by score;
 * - fusion: the fused verdicts' (those with a rank, in list order) similarities `sim`, semantic
 *   ranks `sem` ([verdict, rank]) and, only where they do not follow from the scores, BM25 ranks `lex`;
 * - frame: the system prompt's own frame, when it is not one of the KB version's (a prompt not
 *   built from its texts: its whole text);
 * - x: the exceptions, a patch (patch.ts) over the explanation the rest gives back: whatever the
 *   KB version does not give back bit for bit (another KB's sections, one language's own BM25
 *   statistics, a turn recorded before KB versions were).
 *
 * Format 3 is what a chat turn writes (pack-selection.ts); format 4 nests it, so a version that
 * knows only format 3 refuses a format-4 record (its reader names the missing field) rather than
 * misreading it. This version refuses a newer format the same way.
 */

const PACKED_FORMAT = 3;
const RECORD_FORMAT = 4;

/**
 * A stage as a tuple: ['fused', model, rrfK, topK, minSimilarity, listed, unembedded, ms],
 * ['fallback', model, reason, ms?] or ['skipped', model, confidence, fuseBelow]; any other
 * [status, model, …] is a stage of a newer version, read as its status and model.
 */
export const storedStage = z.union([
  z.tuple([z.literal('fused'), z.string(), z.number(), z.number().int(), z.number(), z.number().int(), z.number().int(), z.number()]).rest(z.unknown()),
  z.tuple([z.literal('fallback'), z.string(), z.string()]).rest(z.unknown()),
  z.tuple([z.literal('skipped'), z.string(), z.number(), z.number()]).rest(z.unknown()),
  z.tuple([z.string(), z.string()]).rest(z.unknown()),
]);
export type StoredStage = z.infer<typeof storedStage>;

export function encodeStage(stage: SemanticStage): StoredStage {
  if (stage.status === 'fused') return ['fused', stage.model, stage.rrfK, stage.topK, stage.minSimilarity, stage.listed, stage.unembedded, stage.ms];
  if (stage.status === 'skipped') return ['skipped', stage.model, stage.confidence, stage.fuseBelow];
  return stage.ms === undefined ? ['fallback', stage.model, stage.reason] : ['fallback', stage.model, stage.reason, stage.ms];
}

export function decodeStage(stored: StoredStage): SemanticStage {
  // Each known status is checked against its own tuple: a newer stage's tuple is only [status, model, …].
  const [status, model] = stored;
  const known = storedStage.options;
  if (status === 'fused' && known[0].safeParse(stored).success) {
    const [, , rrfK, topK, minSimilarity, listed, unembedded, ms] = stored as z.infer<(typeof known)[0]>;
    return { status, model, rrfK, topK, minSimilarity, listed, unembedded, ms };
  }
  if (status === 'skipped' && known[2].safeParse(stored).success) {
    const [, , confidence, fuseBelow] = stored as z.infer<(typeof known)[2]>;
    return { status, model, confidence, fuseBelow };
  }
  if (status === 'fallback' && known[1].safeParse(stored).success) {
    const [, , reason, ms] = stored as z.infer<(typeof known)[1]>;
    return { status, model, reason, ...(typeof ms === 'number' ? { ms } : {}) };
  }
  return { status, model } as unknown as SemanticStage;
}

const dfEntry = z.union([z.number().int(), z.tuple([z.number()]), z.null()]);

const storedPacked = z.object({
  v: z.literal(PACKED_FORMAT),
  df: z.array(dfEntry),
  ranked: z.string(),
  sent: z.array(z.number().int()),
  noMatchListed: z.number().int(),
  stage: storedStage.optional(),
});

const storedFusion = z.object({
  sim: z.array(z.number().nullable()),
  sem: z.array(z.tuple([z.number().int(), z.number().int()])),
  lex: z.array(z.number().int().nullable()).optional(),
});
export type StoredFusion = z.infer<typeof storedFusion>;

const storedRecord = z.object({
  v: z.literal(RECORD_FORMAT),
  packed: storedPacked,
  ordered: z.literal(1).optional(),
  fusion: storedFusion.optional(),
  frame: z.array(z.union([z.string(), z.literal(0), z.literal(1), z.literal(2)])).optional(),
  x: patchSchema.optional(),
});

/** A format-3 record's fields. */
export interface PackedFields {
  df: (number | [number] | null)[];
  ranked: string;
  sent: readonly number[];
  noMatchListed: number;
  stage?: SemanticStage;
}

/** What a format-4 record states beside them. */
export interface RecordExtras {
  ordered?: boolean;
  fusion?: StoredFusion;
  frame?: PromptFrame;
  x?: Patch;
}

/** A record read back: its packed fields (the stage still stored) and what it states beside them. */
export interface ParsedRecord extends RecordExtras {
  packed: z.infer<typeof storedPacked>;
}

/** The format-3 text of a chat turn's selection (pack-selection.ts); `ranked` is base64url (nothing to escape). */
export function packedText(packed: PackedFields): string {
  const stage = packed.stage ? `,"stage":${JSON.stringify(encodeStage(packed.stage))}` : '';
  return `{"v":${PACKED_FORMAT},"df":${JSON.stringify(packed.df)},"ranked":"${packed.ranked}","sent":[${packed.sent.join(',')}],"noMatchListed":${packed.noMatchListed}${stage}}`;
}

/** A record's text: format 3 when the packed fields give everything back, else format 4 with what they do not. */
export function recordText(packed: PackedFields, extras: RecordExtras): string {
  const { ordered, fusion, frame, x } = extras;
  if (!ordered && !fusion && !frame && !x) return packedText(packed);
  return JSON.stringify({
    v: RECORD_FORMAT,
    packed: JSON.parse(packedText(packed)) as unknown,
    ...(ordered ? { ordered: 1 } : {}),
    ...(fusion ? { fusion } : {}),
    ...(frame ? { frame } : {}),
    ...(x ? { x } : {}),
  });
}

/** Reads a record's text (format 3 or 4); throws, naming the field, on anything else. */
export function parseRecord(text: string): ParsedRecord {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed === 'object' && parsed !== null && 'packed' in parsed) {
    const { packed, ordered, fusion, frame, x } = storedRecord.parse(parsed);
    return { packed, ordered: ordered === 1, ...(fusion ? { fusion } : {}), ...(frame ? { frame } : {}), ...(x === undefined ? {} : { x }) };
  }
  return { packed: storedPacked.parse(parsed) };
}

/**
 * A query's clauses as BM25 scores them (bm25.ts `clausesOf`): its terms the KB has (`inKb`)
 * with a weight above 0, a synonym group's terms (same `clause`) as one, in order of first
 * appearance; each clause's terms in query order, its weight the largest of theirs.
 */
export function clauseLayout(terms: Query['terms'], inKb: readonly boolean[]): { members: number[][]; weights: number[] } {
  const members: number[][] = [];
  const weights: number[] = [];
  const byNumber = new Map<number, number>();
  terms.forEach((t, i) => {
    if (!inKb[i] || !(t.weight > 0)) return;
    let c = t.clause === undefined ? undefined : byNumber.get(t.clause);
    if (c === undefined) {
      c = members.length;
      members.push([]);
      weights.push(0);
      if (t.clause !== undefined) byNumber.set(t.clause, c);
    }
    members[c]!.push(i);
    weights[c] = Math.max(weights[c]!, t.weight);
  });
  return { members, weights };
}

/**
 * A record's selection as objects, before it is expanded (from-record.ts): the verdicts' matches
 * from the listed sections' term frequencies, their ranks from their scores (or from their order,
 * `ordered`), the fused verdicts' ranks from `fusion`.
 */
export function decodePacked(record: ParsedRecord, query: Query, kb: KbVersion): DecodedSelection {
  const stored = record.packed;
  const { terms } = query;
  if (stored.df.length !== terms.length) throw new Error(`df: ${stored.df.length} entries for ${terms.length} query terms`);
  const { members, weights } = clauseLayout(terms, stored.df.map((d) => d !== null));
  const clauseDf = members.map((clause) => {
    if (clause.length === 1) return stored.df[clause[0]!]!;
    let most = 0;
    for (const i of clause) {
      const df = stored.df[i];
      if (typeof df !== 'number') throw new Error(`df: term ${i} of a synonym group has no document frequency`);
      most = Math.max(most, df);
    }
    const { docCount } = lookupsOf(kb);
    return dfOf(bm25Idf(docCount, most), docCount);
  });
  const termIndex = new Map(terms.map((t, i) => [t.term, i]));
  const indexOf = (i: number) => termIndex.get(terms[i]!.term)!;
  const idfs: DecodedSelection['idfs'] = terms.map(() => null);
  const sent = new Set(stored.sent);
  const matched: { at: number; score: number; matches: DecodedMatch[] }[] = [];
  const ranked = new Set<number>();
  const tfs = new Float64Array(terms.length);
  const clauseIdfs: DecodedSelection['idfs'] = terms.map(() => null);
  const reader = new VarintReader(stored.ranked);
  while (!reader.done) {
    const at = reader.read();
    tfs.fill(0);
    for (let n = reader.read(); n > 0; n--) {
      const i = reader.read();
      if (i >= terms.length) throw new Error(`ranked: term ${i} of a query of ${terms.length}`);
      tfs[i] = reader.read();
    }
    const matches: DecodedMatch[] = [];
    members.forEach((clause, c) => {
      let tf = 0;
      for (const i of clause) tf += tfs[i]!;
      if (tf === 0) return;
      const t = indexOf(clause[0]!);
      const weight = weights[c]!;
      const match: DecodedMatch = [t, tf, null, weight === terms[t]!.weight ? null : weight];
      if (clause.length > 1) {
        const group: DecodedGroupTerm[] = [];
        for (const i of clause) {
          if (tfs[i] === 0) continue;
          const gt = indexOf(i);
          const share = terms[i]!.weight / weight;
          group.push(Object.is(terms[gt]!.weight / weight, share) ? [gt, tfs[i]!] : [gt, tfs[i]!, share]);
        }
        match.push(group);
      }
      while (match.length > 2 && match.at(-1) === null) match.pop();
      idfs[t] ??= clauseDf[c]!;
      clauseIdfs[t] = clauseDf[c]!;
      matches.push(match);
    });
    const section = kb.sections[at];
    if (!section) throw new Error(`ranked: KB position ${at} of a KB version of ${kb.sections.length}`);
    const score = record.ordered ? 0 : sumOf(matches.map((m) => termExplanationOf(kb, section, m, query, clauseIdfs)));
    matched.push({ at, score, matches });
    ranked.add(at);
  }
  // Rank order, as the selector ranks: score descending, then file order (unless given).
  if (!record.ordered) matched.sort((a, b) => b.score - a.score || a.at - b.at);
  const verdicts: DecodedVerdict[] = matched.map(({ at, matches }, i) => ({ at, reason: sent.has(at) ? 'scored' : 'over-budget', rank: i + 1, matches }));
  for (const at of stored.sent) if (!ranked.has(at)) verdicts.push({ at, reason: 'floor' });
  const { fusion } = record;
  return {
    idfs,
    verdicts,
    noMatchListed: stored.noMatchListed,
    pinnedLead: true,
    sent: stored.sent,
    ...(stored.stage
      ? {
          semantic: {
            stage: decodeStage(stored.stage),
            ...(fusion ? { similarity: fusion.sim, semanticRanks: fusion.sem, ...(fusion.lex ? { lexicalRanks: fusion.lex } : {}) } : {}),
          },
        }
      : {}),
  };
}
