import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { PromptLayout } from '../ai/prompt';
import { VarintReader } from './varint';
import {
  bm25FieldNorm,
  bm25Idf,
  bm25Saturation,
  renderSectionBlock,
  titlePath,
  type Explanation,
  type FusionRanks,
  type LanguageSource,
  type Query,
  type QueryLanguage,
  type QueryTermSource,
  type Reason,
  type RetrievalConfig,
  type RetrievalIndex,
  type SectionPart,
  type SectionVerdict,
  type SemanticStage,
  type TermExplanation,
  type TokenSplit,
} from '../retrieval/index';

/**
 * Compact turn traces: the codec between a turn's Explanation + system prompt and what the trace
 * store keeps of them (the KB version once, per turn what is specific to it); `expandTurn(compactTurn(e,
 * p, kb), kb)` always gives back `e` and `p`. What is kept and why: docs/trace-storage.md.
 */

/** One section of a KB version, as sent: `KbVersion.sections` is the index's sections (parts of split ones included). */
export interface KbSection {
  id: string;
  title: string;
  parents: readonly string[];
  source: string;
  line: number;
  tokens: number;
  pinned: boolean;
  part?: SectionPart;
  text: string;
  /** BM25 document length (weighted terms of heading path and body); absent for pinned sections, which are not scored. */
  bm25Length?: number;
}

/** Everything of a KB in service that a turn's explanation and prompt draw on, keyed by a content hash. */
export interface KbVersion {
  /** SHA-256 (hex) over the config, instructions, pinned block, average document length and every section with its text's hash. */
  hash: string;
  sections: readonly KbSection[];
  instructions: string;
  /** The pinned sections' blocks, as the context text starts. */
  pinnedContext: string;
  config: RetrievalConfig;
  avgDocLength: number;
}

/**
 * One clause's part of a section's score: [query term index, tf, tf̃, weight, group, score],
 * trailing nulls left out. tf̃ (tf over the section's length norm, bm25.ts) and the score
 * (weight · saturation(idf, tf̃)) are recomputed from the KB version and stored only when that
 * does not give them back bit for bit; the weight is stored only when it is not the query
 * term's (a synonym group's clause); a group lists [term index, tf, share] per term.
 */
export type CompactMatch = [term: number, tf: number, ...rest: (number | null | CompactGroupTerm[])[]];
/** [query term index, tf] — the share recomputed as the term's weight over the clause's — or [index, tf, share]. */
export type CompactGroupTerm = [term: number, tf: number] | [term: number, tf: number, share: number];

/** One listed verdict; everything else about the section comes from the KB version. */
export interface CompactVerdict {
  /** Position of the section in `KbVersion.sections`. */
  at: number;
  reason: Reason;
  /** Absent when it is the sum of the terms' scores (0 without matches), as the selector adds them up. */
  score?: number;
  rank?: number;
  matches?: CompactMatch[];
}

export interface CompactSelection {
  /**
   * Per query term (index as in `query.terms`): its document frequency, from which the idf
   * follows with the selector's formula and the KB version's section count; [idf] where that
   * does not give it back; null for a term no listed section has.
   */
  idfs: (number | [number] | null)[];
  /** The explanation's verdicts in list order, up to the unmatched tail. */
  verdicts: CompactVerdict[];
  /** How many unmatched, unsent sections end the list. */
  noMatchListed: number;
  /** True when the KB's pinned sections lead both lists and are left out of `verdicts` and `sent` (they always do). */
  pinnedLead?: boolean;
  /** KB positions of the sections sent, in send order (`sentIds`). */
  sent: number[];
  /** The semantic stage, when it was on for the turn. */
  semantic?: CompactSemantic;
}

/**
 * The semantic stage of one turn. "Fused verdicts" are the listed verdicts with a rank (the
 * matched ones), in list order: when the stage fused, each has its `fusion` ranks.
 */
export interface CompactSemantic {
  stage: SemanticStage;
  /** Per fused verdict: its cosine similarity, null where the section has no embedding. */
  similarity?: (number | null)[];
  /** [fused verdict index, semantic rank] for each listed member of the semantic list. */
  semanticRanks?: [number, number][];
  /**
   * Per fused verdict: its BM25 rank (null: no lexical match) — stored only when it does not
   * follow from the listed scores (score desc, then file order), e.g. when explainLimit cut the list.
   */
  lexicalRanks?: (number | null)[];
}

/** Literal text, or a slot: 0 the KB's instructions, 1 its pinned block (end trimmed), 2 the turn's reference text (end trimmed). */
export type PromptFrame = (string | 0 | 1 | 2)[];

export interface TurnSummary {
  budget: number;
  tokens: TokenSplit;
  floorUsed: boolean;
  counts: Explanation['counts'];
  topScore: number;
  omitted: number;
}

/**
 * A compact selection already in its stored form (format 3: packed), as a chat turn makes it
 * straight from its selection (turn-record.ts): the `selection` column's text, and the rows of
 * the inspector's index.
 */
export interface PackedSelection {
  text: string;
  /** Every section listed as pinned, matched or floor (the inspector's index): KB positions, and their reason codes (REASON_CODES). */
  reasons: SectionReasons<number>;
}

/** Sections and their reasons in one turn, as the inspector's index (`turn_sections`) keeps them: `codes[i]` is `keys[i]`'s. */
export interface SectionReasons<Key> {
  keys: Key[];
  codes: number[];
}

/** What the store keeps of one turn's explanation and prompt. */
export interface TurnRecord {
  query: Query;
  summary: TurnSummary;
  /**
   * Compact (as objects, or packed: stored as made), or the whole explanation (turns written
   * before compact traces, or one the codec could not reproduce).
   */
  selection: { compact: CompactSelection } | { packed: PackedSelection } | { whole: Explanation };
  prompt: { frame: PromptFrame } | { whole: string };
}

// ---------------------------------------------------------------------------
// The stored form of a compact selection (one JSON text per turn)
//
// Read by older versions too (after a rollback, or by an instance not yet upgraded on a
// shared database), so a newer record must stay readable: a reader skips fields and trailing
// tuple elements it does not know, and decodes a value it does not know (a term source, a
// stage status, a verdict reason added later) as such — the name as stored, or `unknown`
// for a reason code — rather than refusing the turn; /debug shows such values by name. So a
// change may add fields, elements and values, never give an existing one a new meaning.

/** Verdict reasons by code, as stored (the store's `verdict_reasons` table holds the same list). Append only. */
export const REASON_CODES: readonly Reason[] = ['over-budget', 'scored', 'floor', 'pinned', 'no-match'];
const CODE = new Map(REASON_CODES.map((r, i) => [r, i]));
/** A reason code this version has no name for (stored by a newer one); such a verdict's `sent` comes from the send order. */
export const UNKNOWN_REASON = 'unknown' as Reason;

/** Format version of the stored selection (2: with the semantic stage, `s`); 1 and newer are read (see above). */
const SELECTION_FORMAT = 2;

// Format 3, packed (a chat turn's: turn-record.ts), breaks the rule above on purpose, for size and
// speed: it keeps only what the KB version and the query do not give back. A version before it
// refuses a packed record (its reader names the missing field) rather than misreading it; /debug
// of such a version shows those turns as unreadable. Formats 1 and 2 are still written for the
// turns a packed record cannot express (the semantic stage's fused ranking, a list cut by
// explainLimit before a sent section, …) and read as before.
//
//   { "v": 3, "df": […], "ranked": "<base64url>", "sent": […], "noMatchListed": n, "stage"?: […] }
//
// - df: per query term the KB has, its document frequency; null for a term the KB lacks. The
//   idf follows with the selector's formula and the KB version's section count (a synonym
//   group's from its terms' largest df); [idf] for a term scored alone where that does not give
//   its idf back;
// - ranked: the matched sections listed, in any order, as varints (varint.ts): KB position, how
//   many terms occur in it, then each one's [query term index, tf]. A clause's tf is its terms'
//   sum; synonym groups, weights, tf̃ and scores follow from the query, the df and the KB version
//   (the selector's own formulas, bit for bit), and the ranks from the scores (descending, then
//   file order), as the selector ranks;
// - sent: KB positions of the sections sent after the pinned ones (the pinned lead both lists),
//   in send order: a ranked one is `scored`, the others `floor`, listed after the ranked ones;
//   every other matched section did not fit (`over-budget`);
// - noMatchListed: as in format 2; stage: the semantic stage (not fused), as format 2's `s.stage`.
const PACKED_FORMAT = 3;

/**
 * A stage as a tuple: ['fused', model, rrfK, topK, minSimilarity, listed, unembedded, ms],
 * ['fallback', model, reason, ms?] or ['skipped', model, confidence, fuseBelow]; any other
 * [status, model, …] is a stage of a newer version, read as its status and model.
 */
const storedStage = z.union([
  z.tuple([z.literal('fused'), z.string(), z.number(), z.number().int(), z.number(), z.number().int(), z.number().int(), z.number()]).rest(z.unknown()),
  z.tuple([z.literal('fallback'), z.string(), z.string()]).rest(z.unknown()),
  z.tuple([z.literal('skipped'), z.string(), z.number(), z.number()]).rest(z.unknown()),
  z.tuple([z.string(), z.string()]).rest(z.unknown()),
]);

const storedSemantic = z.object({
  stage: storedStage,
  sim: z.array(z.number().nullable()).optional(),
  sem: z.array(z.tuple([z.number().int(), z.number().int()])).optional(),
  lex: z.array(z.number().int().nullable()).optional(),
});

const storedSelection = z.object({
  v: z.number().int().min(1),
  idfs: z.array(z.union([z.number().int(), z.tuple([z.number()]), z.null()])),
  /** [KB position, reason code, rank | null, [[term, tf(, score)], …] | null, score?] — trailing nulls left out. */
  verdicts: z.array(
    z.tuple([z.number().int(), z.number().int().min(0)]).rest(
      z.union([
        z.number(),
        z.null(),
        z.array(
          z.tuple([z.number().int(), z.number()]).rest(
            z.union([z.number(), z.null(), z.array(z.tuple([z.number().int(), z.number()]).rest(z.number()))]),
          ),
        ),
        z.unknown(),
      ]),
    ),
  ),
  noMatchListed: z.number().int(),
  p: z.literal(1).optional(),
  sent: z.array(z.number().int()),
  s: storedSemantic.optional(),
});

function encodeStage(stage: SemanticStage): z.infer<typeof storedStage> {
  if (stage.status === 'fused') return ['fused', stage.model, stage.rrfK, stage.topK, stage.minSimilarity, stage.listed, stage.unembedded, stage.ms];
  if (stage.status === 'skipped') return ['skipped', stage.model, stage.confidence, stage.fuseBelow];
  return stage.ms === undefined ? ['fallback', stage.model, stage.reason] : ['fallback', stage.model, stage.reason, stage.ms];
}

function decodeStage(stored: z.infer<typeof storedStage>): SemanticStage {
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

function encodeSemantic(c: CompactSemantic): z.infer<typeof storedSemantic> {
  return {
    stage: encodeStage(c.stage),
    ...(c.similarity ? { sim: c.similarity } : {}),
    ...(c.semanticRanks ? { sem: c.semanticRanks } : {}),
    ...(c.lexicalRanks ? { lex: c.lexicalRanks } : {}),
  };
}

function decodeSemantic(stored: z.infer<typeof storedSemantic>): CompactSemantic {
  return {
    stage: decodeStage(stored.stage),
    ...(stored.sim ? { similarity: stored.sim } : {}),
    ...(stored.sem ? { semanticRanks: stored.sem } : {}),
    ...(stored.lex ? { lexicalRanks: stored.lex } : {}),
  };
}

/** A query's languages as a tuple: [customer, source, analysed, scope, setAside]; newer elements are ignored, unknown names kept. */
const storedLanguage = z.tuple([z.string(), z.string(), z.string(), z.string(), z.number().int()]).rest(z.unknown());

const storedQuery = z.object({
  previous: z.string().optional(),
  /** Absent in queries stored before languages. */
  lang: storedLanguage.optional(),
  questionTerms: z.array(z.string()),
  previousTerms: z.array(z.string()),
  /** [term, weight, source, from | null, clause?]; a source this version does not know is kept by name. */
  terms: z.array(z.tuple([z.string(), z.number(), z.string()]).rest(z.unknown())),
});

/** The query as JSON text, without the question (a column of its own) and with its terms as tuples. */
export function encodeQuery(query: Query): string {
  const terms = query.terms.map((t) => {
    const tuple: (string | number | null)[] = [t.term, t.weight, t.source, t.from ?? null];
    if (t.clause !== undefined) tuple.push(t.clause);
    else if (t.from === undefined) tuple.pop();
    return tuple;
  });
  const { previous, questionTerms, previousTerms, language: l } = query;
  const lang = l === undefined ? undefined : [l.customer, l.source, l.analysed, l.scope, l.setAside];
  return JSON.stringify({ ...(previous === undefined ? {} : { previous }), ...(lang ? { lang } : {}), questionTerms, previousTerms, terms });
}

export function decodeQuery(question: string, json: string): Query {
  const stored = storedQuery.parse(JSON.parse(json));
  const language = stored.lang && {
    customer: stored.lang[0],
    source: stored.lang[1] as LanguageSource,
    analysed: stored.lang[2],
    scope: stored.lang[3] as QueryLanguage['scope'],
    setAside: stored.lang[4],
  };
  return {
    ...(language ? { language } : {}),
    question,
    ...(stored.previous === undefined ? {} : { previous: stored.previous }),
    questionTerms: stored.questionTerms,
    previousTerms: stored.previousTerms,
    terms: stored.terms.map(([term, weight, stored, from, clause]) => {
      const t: Query['terms'][number] = { term, weight, source: stored as QueryTermSource };
      if (typeof from === 'string') t.from = from;
      if (typeof clause === 'number') t.clause = clause;
      return t;
    }),
  };
}

const storedPacked = z.object({
  v: z.number().int().min(PACKED_FORMAT),
  df: z.array(z.union([z.number().int(), z.tuple([z.number()]), z.null()])),
  ranked: z.string(),
  sent: z.array(z.number().int()),
  noMatchListed: z.number().int(),
  stage: storedStage.optional(),
});

/** The packed form's text (format 3, above), from what turn-record.ts made of a selection; `ranked` is base64url (nothing to escape). */
export function packedText(packed: { df: (number | [number] | null)[]; ranked: string; sent: readonly number[]; noMatchListed: number; stage?: SemanticStage }): string {
  const stage = packed.stage ? `,"stage":${JSON.stringify(encodeStage(packed.stage))}` : '';
  return `{"v":${PACKED_FORMAT},"df":${JSON.stringify(packed.df)},"ranked":"${packed.ranked}","sent":[${packed.sent.join(',')}],"noMatchListed":${packed.noMatchListed}${stage}}`;
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

/** A packed record's selection as objects (what compactSelection makes of the explanation). */
function decodePacked(stored: z.infer<typeof storedPacked>, query: Query, kb: KbVersion): CompactSelection {
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
  const idfs: CompactSelection['idfs'] = terms.map(() => null);
  const sent = new Set(stored.sent);
  const matched: { at: number; score: number; matches: CompactMatch[] }[] = [];
  const ranked = new Set<number>();
  const tfs = new Float64Array(terms.length);
  const clauseIdfs: CompactSelection['idfs'] = terms.map(() => null);
  const reader = new VarintReader(stored.ranked);
  while (!reader.done) {
    const at = reader.read();
    tfs.fill(0);
    for (let n = reader.read(); n > 0; n--) {
      const i = reader.read();
      if (i >= terms.length) throw new Error(`ranked: term ${i} of a query of ${terms.length}`);
      tfs[i] = reader.read();
    }
    const matches: CompactMatch[] = [];
    members.forEach((clause, c) => {
      let tf = 0;
      for (const i of clause) tf += tfs[i]!;
      if (tf === 0) return;
      const t = indexOf(clause[0]!);
      const weight = weights[c]!;
      const match: CompactMatch = [t, tf, null, weight === terms[t]!.weight ? null : weight];
      if (clause.length > 1) {
        const group: CompactGroupTerm[] = [];
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
    matched.push({ at, score: sumOf(matches.map((m) => termExplanationOf(kb, section, m, query, clauseIdfs))), matches });
    ranked.add(at);
  }
  // Rank order, as the selector ranks: score descending, then file order.
  matched.sort((a, b) => b.score - a.score || a.at - b.at);
  const verdicts: CompactVerdict[] = matched.map(({ at, matches }, i) => ({ at, reason: sent.has(at) ? 'scored' : 'over-budget', rank: i + 1, matches }));
  for (const at of stored.sent) if (!ranked.has(at)) verdicts.push({ at, reason: 'floor' });
  return {
    idfs,
    verdicts,
    noMatchListed: stored.noMatchListed,
    pinnedLead: true,
    sent: stored.sent,
    ...(stored.stage ? { semantic: { stage: decodeStage(stored.stage) } } : {}),
  };
}

/** A compact selection as JSON text: verdicts as short tuples (≈ 20 bytes a matched section). */
export function encodeSelection(c: CompactSelection): string {
  const verdicts = c.verdicts.map((v) => {
    const tuple: (number | null | CompactMatch[])[] = [v.at, CODE.get(v.reason)!, v.rank ?? null, v.matches ?? null];
    if (v.score !== undefined) tuple.push(v.score);
    while (tuple.at(-1) === null) tuple.pop();
    return tuple;
  });
  return JSON.stringify({
    v: SELECTION_FORMAT,
    idfs: c.idfs,
    verdicts,
    noMatchListed: c.noMatchListed,
    ...(c.pinnedLead ? { p: 1 } : {}),
    sent: c.sent,
    ...(c.semantic ? { s: encodeSemantic(c.semantic) } : {}),
  });
}

/**
 * Reads `encodeSelection`'s or `packedText`'s text back (a packed one with its query and KB
 * version); throws (naming the field) on anything else.
 */
export function decodeSelection(json: string, packedWith?: { query: Query; kb: KbVersion }): CompactSelection {
  const parsed: unknown = JSON.parse(json);
  // Told apart by shape, not number: a newer record of either layout reads as its layout.
  if (typeof parsed === 'object' && parsed !== null && 'ranked' in parsed) {
    if (!packedWith) throw new Error('a packed selection is read with its query and KB version');
    return decodePacked(storedPacked.parse(parsed), packedWith.query, packedWith.kb);
  }
  const stored = storedSelection.parse(parsed);
  return {
    idfs: stored.idfs,
    verdicts: stored.verdicts.map(([at, code, rank, matches, score]) => {
      const v: CompactVerdict = { at, reason: REASON_CODES[code] ?? UNKNOWN_REASON };
      if (typeof rank === 'number') v.rank = rank;
      if (Array.isArray(matches)) v.matches = matches as CompactMatch[];
      if (typeof score === 'number') v.score = score;
      return v;
    }),
    noMatchListed: stored.noMatchListed,
    ...(stored.p ? { pinnedLead: true } : {}),
    sent: stored.sent,
    ...(stored.s ? { semantic: decodeSemantic(stored.s) } : {}),
  };
}

// ---------------------------------------------------------------------------
// KB versions

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The hash of a KB version's content (sections with their texts' hashes, instructions, pinned block, config). */
function kbVersionHash(kb: Omit<KbVersion, 'hash'>): string {
  return sha256(
    JSON.stringify({
      config: kb.config,
      instructions: kb.instructions,
      pinnedContext: kb.pinnedContext,
      avgDocLength: kb.avgDocLength,
      sections: kb.sections.map(({ text, ...s }) => ({ ...s, text: textHash(text) })),
    }),
  );
}

/** Content address of a text (texts table). */
export function textHash(text: string): string {
  return sha256(text);
}

const versionsByIndex = new WeakMap<RetrievalIndex, Map<string, KbVersion>>();

/** A KB version made by kbVersionOf: the index it was made from, and the KB position of each pool document. */
export interface KbVersionOrigin {
  index: RetrievalIndex;
  /** `positions[doc]`: where pool document `doc` sits in `KbVersion.sections`. */
  positions: Int32Array;
}
const origins = new WeakMap<KbVersion, KbVersionOrigin>();

/** The index a KB version was made from by kbVersionOf in this process (undefined for one read from a store). */
export function originOf(kb: KbVersion): KbVersionOrigin | undefined {
  return origins.get(kb);
}

/** The KB version of an index and instructions, built (and hashed) once per loaded index. */
export function kbVersionOf(index: RetrievalIndex, instructions: string): KbVersion {
  let byInstructions = versionsByIndex.get(index);
  if (!byInstructions) versionsByIndex.set(index, (byInstructions = new Map()));
  let version = byInstructions.get(instructions);
  if (!version) {
    const doc = new Map(index.pool.map((s, i) => [s, i]));
    const sections: KbSection[] = index.sections.map((s) => {
      const d = doc.get(s);
      return {
        id: s.id,
        title: s.title,
        parents: s.parents,
        source: s.source,
        line: s.line,
        tokens: s.tokens,
        pinned: s.pinned,
        ...(s.part ? { part: s.part } : {}),
        text: s.text,
        ...(d === undefined ? {} : { bm25Length: index.bm25.fieldLengths.reduce((n, lengths) => n + lengths[d]!, 0) }),
      };
    });
    const content = { sections, instructions, pinnedContext: index.pinnedContext, config: index.config, avgDocLength: index.bm25.avgFieldLengths.reduce((n, a) => n + a, 0) };
    version = { hash: kbVersionHash(content), ...content };
    byInstructions.set(instructions, version);
    const positions = new Int32Array(index.pool.length);
    index.sections.forEach((s, at) => {
      const d = doc.get(s);
      if (d !== undefined) positions[d] = at;
    });
    origins.set(version, { index, positions });
  }
  return version;
}

/** Lookups derived from a KB version, computed once per version object. */
export interface KbLookups {
  byId: Map<string, number>;
  /** Unpinned sections: the BM25 document count N. */
  docCount: number;
  paths: string[];
  configJson: string;
  /** KB positions of the pinned sections. */
  pinned: number[];
}
const lookups = new WeakMap<KbVersion, KbLookups>();

export function lookupsOf(kb: KbVersion): KbLookups {
  let l = lookups.get(kb);
  if (!l) {
    l = {
      byId: new Map(kb.sections.map((s, i) => [s.id, i])),
      docCount: kb.sections.filter((s) => !s.pinned).length,
      paths: kb.sections.map((s) => titlePath(s)),
      configJson: JSON.stringify(kb.config),
      pinned: kb.sections.flatMap((s, at) => (s.pinned ? [at] : [])),
    };
    lookups.set(kb, l);
  }
  return l;
}

const samePart = (a: SectionPart | undefined, b: SectionPart | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.index === b.index && a.count === b.count && a.sectionId === b.sectionId);

const SENT: Record<Reason, boolean> = { pinned: true, scored: true, floor: true, 'no-match': false, 'over-budget': false };

// ---------------------------------------------------------------------------
// Prompt frames

function reference(context: string, kb: KbVersion): string {
  return context.slice(kb.pinnedContext.length);
}

function slotTexts(kb: KbVersion, context: string): [string, string, string] {
  return [kb.instructions, kb.pinnedContext.trimEnd(), reference(context, kb).trimEnd()];
}

/**
 * The prompt's text around the slots, each slot looked for after the previous one; undefined
 * unless every non-empty slot is found (a prompt not built from these texts is kept whole,
 * so frames stay few and shared).
 */
function promptFrame(systemPrompt: string, slots: readonly string[]): PromptFrame | undefined {
  const frame: PromptFrame = [];
  let at = 0;
  for (let slot = 0; slot < slots.length; slot++) {
    const text = slots[slot]!;
    if (!text) continue;
    const found = systemPrompt.indexOf(text, at);
    if (found < 0) return undefined;
    if (found > at) frame.push(systemPrompt.slice(at, found));
    frame.push(slot as 0 | 1 | 2);
    at = found + text.length;
  }
  if (at < systemPrompt.length) frame.push(systemPrompt.slice(at));
  return frame;
}

function fillFrame(frame: PromptFrame, slots: readonly string[]): string {
  return frame.map((piece) => (typeof piece === 'string' ? piece : slots[piece]!)).join('');
}

// ---------------------------------------------------------------------------
// compact

function summaryOf(e: Explanation): TurnSummary {
  return { budget: e.budget, tokens: e.tokens, floorUsed: e.floorUsed, counts: e.counts, topScore: e.topScore, omitted: e.omitted };
}

/** A clause's score as the selector computes it (bm25.ts). */
function clauseScore(kb: KbVersion, weight: number, idf: number, normalisedTf: number): number {
  return weight * bm25Saturation(idf, normalisedTf, kb.config.k1);
}

/**
 * tf̃ as the selector computes it for a one-field index (the default): each term's
 * occurrences over the section's length norm, weighted by its share of a synonym group;
 * undefined when the section has no stored length.
 */
function normalisedTfOf(kb: KbVersion, section: KbSection, tf: number, group: readonly { tf: number; share: number }[] | undefined): number | undefined {
  if (section.bm25Length === undefined) return undefined;
  const factor = 1 / bm25FieldNorm(section.bm25Length, kb.avgDocLength, kb.config.b);
  if (!group) return 1 * (tf * factor);
  let sum = 0;
  for (const g of group) sum += g.share * (g.tf * factor);
  return sum;
}

function compactMatch(m: TermExplanation, t: number, queryWeights: readonly number[], termIndex: ReadonlyMap<string, number>, kb: KbVersion, section: KbSection): CompactMatch | undefined {
  const queryWeight = queryWeights[t]!;
  const weight = m.weight === queryWeight ? null : m.weight;
  let group: CompactGroupTerm[] | null = null;
  if (m.group) {
    group = [];
    for (const g of m.group) {
      const gt = termIndex.get(g.term);
      if (gt === undefined) return undefined;
      group.push(Object.is(queryWeights[gt]! / m.weight, g.share) ? [gt, g.tf] : [gt, g.tf, g.share]);
    }
  }
  const score = Object.is(clauseScore(kb, m.weight, m.idf, m.normalisedTf), m.score) ? null : m.score;
  const normalisedTf = Object.is(normalisedTfOf(kb, section, m.tf, m.group), m.normalisedTf) ? null : m.normalisedTf;
  const tuple: CompactMatch = [t, m.tf, normalisedTf, weight, group, score];
  while (tuple.length > 2 && tuple.at(-1) === null) tuple.pop();
  return tuple;
}

/** The compact selection, or undefined when some part of `e` would not come back identical from it. */
function compactSelection(e: Explanation, kb: KbVersion): CompactSelection | undefined {
  const { byId, paths, configJson } = lookupsOf(kb);
  if (e.pinnedChars !== kb.pinnedContext.length || JSON.stringify(e.config) !== configJson) return undefined;
  const termIndex = new Map(e.query.terms.map((t, i) => [t.term, i]));
  const idfs: (number | null)[] = e.query.terms.map(() => null);
  const docCount = lookupsOf(kb).docCount;

  // The unmatched tail: the longest run of no-match verdicts at the end that the KB gives back.
  let tailStart = e.sections.length;
  const plainNoMatch = (v: SectionVerdict) => v.reason === 'no-match' && v.score === 0 && v.rank === undefined && v.matches === undefined;
  while (tailStart > 0 && plainNoMatch(e.sections[tailStart - 1]!)) tailStart--;

  const verdicts: CompactVerdict[] = [];
  const listed = new Set<number>();
  for (let i = 0; i < e.sections.length; i++) {
    const v = e.sections[i]!;
    const at = byId.get(v.id);
    if (at === undefined) return undefined;
    const s = kb.sections[at]!;
    if (v.title !== s.title || v.path !== paths[at] || v.source !== s.source || v.pinned !== s.pinned || v.tokens !== s.tokens) return undefined;
    if (!samePart(v.part, s.part) || v.sent !== SENT[v.reason]) return undefined;
    listed.add(at);
    if (i >= tailStart) continue;
    const c: CompactVerdict = { at, reason: v.reason };
    if (v.rank !== undefined) c.rank = v.rank;
    if (v.matches) {
      const matches: CompactMatch[] = [];
      for (const m of v.matches) {
        const t = termIndex.get(m.term);
        if (t === undefined) return undefined;
        if (idfs[t] === null) idfs[t] = m.idf;
        else if (idfs[t] !== m.idf) return undefined;
        const match = compactMatch(m, t, e.query.terms.map((q) => q.weight), termIndex, kb, s);
        if (!match) return undefined;
        matches.push(match);
      }
      c.matches = matches;
    }
    if (!Object.is(sumOf(v.matches), v.score)) c.score = v.score;
    verdicts.push(c);
  }

  // The tail must be the KB's first unlisted unpinned sections in file order; else list it explicitly.
  const tail = e.sections.length - tailStart;
  let noMatchListed = tail;
  const derived = unmatchedTail(kb, new Set(verdicts.map((v) => v.at)), tail);
  if (derived.length !== tail || derived.some((at, k) => kb.sections[at]!.id !== e.sections[tailStart + k]!.id)) {
    for (let i = tailStart; i < e.sections.length; i++) verdicts.push({ at: byId.get(e.sections[i]!.id)!, reason: 'no-match' });
    noMatchListed = 0;
  }

  const sent: number[] = [];
  for (const id of e.sentIds) {
    const at = byId.get(id);
    if (at === undefined || !listed.has(at)) return undefined;
    sent.push(at);
  }
  if (contextOf(kb, sent) !== e.context) return undefined;
  let semantic: CompactSemantic | undefined;
  if (e.semantic) {
    semantic = compactSemantic(e.semantic, e.sections.filter((v) => v.rank !== undefined), verdicts);
    if (!semantic) return undefined;
  } else if (e.sections.some((v) => v.fusion)) return undefined;
  const pinned = pinnedPositions(kb);
  const leads = (list: readonly number[]) => pinned.every((at, i) => list[i] === at);
  const pinnedVerdicts = verdicts.slice(0, pinned.length);
  const pinnedLead =
    leads(sent) && leads(pinnedVerdicts.map((v) => v.at)) && pinnedVerdicts.every((v) => v.reason === 'pinned' && v.rank === undefined && !v.matches && v.score === undefined);
  return {
    idfs: idfs.map((idf) => (idf === null ? null : dfOf(idf, docCount))),
    verdicts: pinnedLead ? verdicts.slice(pinned.length) : verdicts,
    noMatchListed,
    ...(pinnedLead ? { pinnedLead } : {}),
    sent: pinnedLead ? sent.slice(pinned.length) : sent,
    ...(semantic ? { semantic } : {}),
  };
}

/**
 * BM25 ranks as they follow from the fused verdicts' scores and KB positions (score desc,
 * then file order; null for those with no lexical match): right unless the list was cut.
 */
function derivedLexicalRanks(scores: readonly number[], positions: readonly number[]): (number | null)[] {
  const matched = scores.flatMap((score, i) => (score > 0 ? [i] : []));
  matched.sort((a, b) => scores[b]! - scores[a]! || positions[a]! - positions[b]!);
  const ranks: (number | null)[] = scores.map(() => null);
  matched.forEach((i, r) => (ranks[i] = r + 1));
  return ranks;
}

/** The stage and the fused verdicts' ranks; undefined when they would not come back identical. */
function compactSemantic(stage: SemanticStage, fused: readonly SectionVerdict[], verdicts: readonly CompactVerdict[]): CompactSemantic | undefined {
  if (stage.status !== 'fused') return fused.some((v) => v.fusion) ? undefined : { stage };
  if (!fused.every((v) => v.fusion)) return undefined;
  const similarity = fused.map((v) => v.fusion!.similarity ?? null);
  const semanticRanks = fused.flatMap((v, i): [number, number][] => (v.fusion!.semanticRank === undefined ? [] : [[i, v.fusion!.semanticRank]]));
  const lexicalRanks = fused.map((v) => v.fusion!.lexicalRank ?? null);
  const positions = verdicts.filter((c) => c.rank !== undefined).map((c) => c.at);
  const derived = derivedLexicalRanks(fused.map((v) => v.score), positions);
  const lexicalDerived = derived.every((r, i) => r === lexicalRanks[i]);
  return { stage, similarity, semanticRanks, ...(lexicalDerived ? {} : { lexicalRanks }) };
}

/** The fused verdicts' `fusion` ranks from their compact form (`fused`: the verdicts with a rank, in list order). */
function fusionOf(semantic: CompactSemantic, fused: readonly SectionVerdict[], positions: readonly number[]): FusionRanks[] {
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

/** KB positions of the pinned sections, in file order (the order they are sent and listed). */
export function pinnedPositions(kb: KbVersion): readonly number[] {
  return lookupsOf(kb).pinned;
}

/** The document frequency that gives `idf` back (idf = ln((N + 1) / (df + 0.5))), or [idf]. */
function dfOf(idf: number, docCount: number): number | [number] {
  const df = Math.round((docCount + 1) / Math.exp(idf) - 0.5);
  return Object.is(bm25Idf(docCount, df), idf) ? df : [idf];
}

function idfOf(entry: number | [number] | null, docCount: number): number {
  if (entry === null) throw new Error('a term without an idf has matches');
  return typeof entry === 'number' ? bm25Idf(docCount, entry) : entry[0];
}

/** A section's score from its terms' parts, added up in order as the selector does (0 without any). */
function sumOf(matches: readonly TermExplanation[] | undefined): number {
  let sum = 0;
  for (const m of matches ?? []) sum += m.score;
  return sum;
}

/** The first `count` unpinned sections in file order that are not in `listed`. */
function unmatchedTail(kb: KbVersion, listed: ReadonlySet<number>, count: number): number[] {
  const tail: number[] = [];
  for (let at = 0; at < kb.sections.length && tail.length < count; at++) {
    if (!kb.sections[at]!.pinned && !listed.has(at)) tail.push(at);
  }
  return tail;
}

function contextOf(kb: KbVersion, sent: readonly number[]): string {
  return sent.map((at) => renderSectionBlock(kb.sections[at]!)).join('');
}

/** What the store keeps of a turn: compact where every part comes back identical, whole where not. */
export function compactTurn(explanation: Explanation, systemPrompt: string, kb: KbVersion): TurnRecord {
  const compact = compactSelection(explanation, kb);
  return {
    query: explanation.query,
    summary: summaryOf(explanation),
    selection: compact ? { compact } : { whole: explanation },
    prompt: promptRecord(systemPrompt, explanation.context, kb),
  };
}

/**
 * The prompt as a frame around the KB's texts and the turn's `context`, or whole when the frame
 * would not give it back. With the prompt's own layout (lib/ai/prompt.ts, built on the KB
 * version's texts), the frame is its pieces: nothing to search for.
 */
export function promptRecord(systemPrompt: string, context: string, kb: KbVersion, layout?: PromptLayout): TurnRecord['prompt'] {
  if (layout && layout.instructions === kb.instructions && layout.pinnedContext === kb.pinnedContext) return { frame: layout.pieces };
  const slots = slotTexts(kb, context);
  const frame = context.startsWith(kb.pinnedContext) ? promptFrame(systemPrompt, slots) : undefined;
  return frame && fillFrame(frame, slots) === systemPrompt ? { frame } : { whole: systemPrompt };
}

// ---------------------------------------------------------------------------
// expand

/** One clause's part of section `s`'s score from its compact form: what is not stored, recomputed as the selector computes it. */
function termExplanationOf(kb: KbVersion, s: KbSection, [t, tf, storedTf, storedWeight, storedGroup, storedScore]: CompactMatch, query: Query, idfs: CompactSelection['idfs']): TermExplanation {
  const term = query.terms[t]!.term;
  const weight = typeof storedWeight === 'number' ? storedWeight : query.terms[t]!.weight;
  const group = Array.isArray(storedGroup)
    ? (storedGroup as CompactGroupTerm[]).map(([gt, gtf, share]) => ({ term: query.terms[gt]!.term, tf: gtf, share: share ?? query.terms[gt]!.weight / weight }))
    : undefined;
  const normalisedTf = typeof storedTf === 'number' ? storedTf : normalisedTfOf(kb, s, tf, group)!;
  const idf = idfOf(idfs[t]!, lookupsOf(kb).docCount);
  const score = typeof storedScore === 'number' ? storedScore : clauseScore(kb, weight, idf, normalisedTf);
  const part: TermExplanation = { term, weight, tf, normalisedTf, idf, score };
  if (group) part.group = group;
  return part;
}

function verdictOf(kb: KbVersion, paths: readonly string[], c: CompactVerdict, query: Query, idfs: CompactSelection['idfs'], sent: ReadonlySet<number>): SectionVerdict {
  const s = kb.sections[c.at]!;
  const matches = c.matches?.map((m) => termExplanationOf(kb, s, m, query, idfs));
  const v: SectionVerdict = {
    id: s.id,
    title: s.title,
    path: paths[c.at]!,
    source: s.source,
    pinned: s.pinned,
    score: c.score ?? sumOf(matches),
    ...(c.rank === undefined ? {} : { rank: c.rank }),
    tokens: s.tokens,
    sent: SENT[c.reason] ?? sent.has(c.at),
    reason: c.reason,
  };
  if (matches) v.matches = matches;
  if (s.part) v.part = s.part;
  return v;
}

/** The turn's explanation and exact system prompt, from its record and (for compact parts) its KB version. */
export function expandTurn(record: TurnRecord, kb?: KbVersion): { explanation: Explanation; systemPrompt: string } {
  const needKb = (): KbVersion => {
    if (!kb) throw new Error('a compact trace needs its KB version to be read');
    return kb;
  };
  let explanation: Explanation;
  if ('whole' in record.selection) explanation = record.selection.whole;
  else {
    const kbv = needKb();
    const { paths } = lookupsOf(kbv);
    const compact = 'packed' in record.selection ? decodeSelection(record.selection.packed.text, { query: record.query, kb: kbv }) : record.selection.compact;
    const { idfs, noMatchListed, pinnedLead } = compact;
    const pinned = pinnedLead ? pinnedPositions(kbv) : [];
    const verdicts: CompactVerdict[] = [...pinned.map((at): CompactVerdict => ({ at, reason: 'pinned' })), ...compact.verdicts];
    const sent = [...pinned, ...compact.sent];
    const sentSet = new Set(sent);
    const sections = verdicts.map((c) => verdictOf(kbv, paths, c, record.query, idfs, sentSet));
    const { semantic } = compact;
    if (semantic?.stage.status === 'fused') {
      const fused = verdicts.flatMap((c, i) => (c.rank === undefined ? [] : [i]));
      const ranks = fusionOf(semantic, fused.map((i) => sections[i]!), fused.map((i) => verdicts[i]!.at));
      fused.forEach((i, k) => (sections[i]!.fusion = ranks[k]!));
    }
    for (const at of unmatchedTail(kbv, new Set(verdicts.map((v) => v.at)), noMatchListed)) {
      sections.push(verdictOf(kbv, paths, { at, reason: 'no-match' }, record.query, idfs, sentSet));
    }
    const { summary } = record;
    explanation = {
      query: record.query,
      budget: summary.budget,
      config: kbv.config,
      tokens: summary.tokens,
      floorUsed: summary.floorUsed,
      counts: summary.counts,
      topScore: summary.topScore,
      sections,
      omitted: summary.omitted,
      sentIds: sent.map((at) => kbv.sections[at]!.id),
      context: contextOf(kbv, sent),
      pinnedChars: kbv.pinnedContext.length,
    };
    if (semantic) explanation.semantic = semantic.stage;
  }
  const systemPrompt = 'whole' in record.prompt ? record.prompt.whole : fillFrame(record.prompt.frame, slotTexts(needKb(), explanation.context));
  return { explanation, systemPrompt };
}
