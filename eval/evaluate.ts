/**
 * Retrieval-quality evaluation: does a selection method send the sections that answer
 * the question, within the budget?
 *
 * Three methods, run on the same questions:
 * - **selector**: a chat turn's retrieval (`retrieveForTurn`: analyzer with stemming, synonyms,
 *   the two-message query, title weighting, pinned + packing + floor; the semantic stage when given).
 * - **plain BM25**: the same BM25 scorer (bm25.ts) and the same pinned/packing/floor, but
 *   a plain analyzer (lowercase words; no stop words, no stemming, no compounds, title
 *   counted once), no synonyms, and only the latest message as the query.
 * - **first-N cut**: the article's "before": the KB's sections concatenated in file order
 *   and cut at the budget (in tokens). Nothing is ranked or pinned; a section that is
 *   only partly inside the cut counts as sent (generous to the baseline).
 *
 * Metrics, per kind of question and overall:
 * - gold sent: share of questions with gold sections where at least one gold section is sent;
 * - MRR: mean of 1 / rank of the first gold section in the method's ranking (0 when unranked);
 * - rules sent: share of questions where every pinned section is sent;
 * - knowledge sent: share of questions where any non-pinned knowledge is sent (the floor's promise,
 *   checked on vague and off-topic questions);
 * - tokens: mean tokens sent, as a share of the budget.
 */
import { readFileSync } from 'node:fs';
import { ASSISTANT_INSTRUCTIONS } from '@/lib/ai/prompt';
import type { KnowledgeEmbeddings } from '@/lib/knowledge/embeddings';
import { retrieveForTurn } from '@/lib/knowledge/retrieve';
import { buildBm25Index, scoreInto, type RetrievalConfig, type RetrievalIndex, type Section } from '@/lib/retrieval/index';
import { formatNumber, formatPercent } from '@/lib/format';

export const KINDS = ['paraphrase', 'typo', 'keywords', 'follow-up', 'vague', 'off-topic'] as const;
export type Kind = (typeof KINDS)[number];

export interface GoldenQuestion {
  id: string;
  kind?: Kind;
  /** Customer messages, oldest first; the last one is the question. */
  messages: string[];
  /** Sections that answer it (any one sent counts); empty for vague and off-topic questions. */
  gold: string[];
}

export function readGolden(file: string): GoldenQuestion[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { questions: GoldenQuestion[] };
  return data.questions;
}

/** What one method sent for one question. */
export interface Selection {
  sentIds: string[];
  /** Ids in the method's own rank order (for MRR). */
  ranking: string[];
  tokens: number;
}

export interface Method {
  name: string;
  select(messages: readonly string[]): Selection | Promise<Selection>;
}

// ---------------------------------------------------------------------------
// Methods

/** A gold label names a whole section: a part of a split section counts for the section it came from. */
export function wholeSectionId(section: Pick<Section, 'id' | 'part'>): string {
  return section.part?.sectionId ?? section.id;
}

/** Ids with parts folded into their section, first occurrence kept (rank order is preserved). */
function distinct(ids: Iterable<string>): string[] {
  return [...new Set(ids)];
}

/** The selector, as a chat turn runs it; with `embeddings`, the semantic stage too (eval/semantic.ts). */
export function selectorMethod(index: RetrievalIndex, name = 'selector', embeddings?: KnowledgeEmbeddings): Method {
  const knowledge = { index, instructions: ASSISTANT_INSTRUCTIONS, pages: new Map(), embeddings };
  return {
    name,
    async select(messages) {
      const e = (await retrieveForTurn(knowledge, messages)).explanation;
      const whole = new Map(e.sections.map((v) => [v.id, v.part?.sectionId ?? v.id]));
      return {
        sentIds: distinct(e.sentIds.map((id) => whole.get(id) ?? id)),
        ranking: distinct(e.sections.filter((s) => s.rank !== undefined).map((s) => s.part?.sectionId ?? s.id)),
        tokens: e.tokens.total,
      };
    },
  };
}

/** The "before": file order, cut at the budget. */
export function firstNCutMethod(sections: readonly Section[], budget: number): Method {
  const sent: string[] = [];
  let used = 0;
  for (const s of sections) {
    if (used >= budget) break;
    sent.push(wholeSectionId(s)); // partly or wholly inside the cut
    used += s.tokens;
  }
  const ids = distinct(sent);
  const selection: Selection = { sentIds: ids, ranking: ids, tokens: Math.min(used, budget) };
  return { name: 'first-N cut', select: () => selection };
}

/** Lowercase runs of letters and digits: no stop words, no stemming, no compound handling. */
export function plainAnalyze(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The selector's packing for a method that only ranks: pinned first, then the ranked
 * sections of the pool in order while they fit (one that does not fit is skipped), then
 * the floor in file order with sections the method did not rank. `sections` are the
 * index's units (parts of split sections included), so every method packs the same pieces.
 */
export function packRanked(sections: readonly Section[], config: RetrievalConfig, ranked: readonly number[]): Selection {
  const pinned = sections.filter((s) => s.pinned);
  const pool = sections.filter((s) => !s.pinned);
  const pinnedTokens = pinned.reduce((n, s) => n + s.tokens, 0);
  let remaining = config.budget - pinnedTokens;
  const sentIds = pinned.map((s) => s.id);
  const matched = new Set(ranked);
  const sent = new Set<number>();
  let scoredTokens = 0;
  for (const doc of ranked) {
    const s = pool[doc]!;
    if (s.tokens > remaining) continue;
    remaining -= s.tokens;
    scoredTokens += s.tokens;
    sent.add(doc);
    sentIds.push(wholeSectionId(s));
  }
  let floorTokens = 0;
  for (let doc = 0; doc < pool.length && scoredTokens + floorTokens < config.floor; doc++) {
    const s = pool[doc]!;
    if (sent.has(doc) || matched.has(doc) || s.tokens > remaining) continue;
    remaining -= s.tokens;
    floorTokens += s.tokens;
    sentIds.push(wholeSectionId(s));
  }
  return {
    sentIds: distinct(sentIds),
    ranking: distinct(ranked.map((d) => wholeSectionId(pool[d]!))),
    tokens: pinnedTokens + scoredTokens + floorTokens,
  };
}

/** A method that ranks the pool (document numbers, best first) and packs like the selector. */
export function rankingMethod(
  name: string,
  sections: readonly Section[],
  config: RetrievalConfig,
  rank: (messages: readonly string[], pool: readonly Section[]) => number[],
): Method {
  const pool = sections.filter((s) => !s.pinned);
  return { name, select: (messages) => packRanked(sections, config, rank(messages, pool)) };
}

/**
 * Plain BM25 with our packing: pinned first, then matched sections by score (file order
 * on ties) while they fit, then the floor in file order — only the analysis differs.
 */
export function plainBm25Method(sections: readonly Section[], config: RetrievalConfig): Method {
  const pool = sections.filter((s) => !s.pinned);
  const index = buildBm25Index(pool.map((s) => [[plainAnalyze([...s.parents, s.title, s.text].join('\n')), 1]]));
  const scores = new Float64Array(pool.length);
  const touched = new Int32Array(pool.length);
  return rankingMethod('plain BM25', sections, config, (messages) => {
    const terms = [...new Set(plainAnalyze(messages.at(-1) ?? ''))].map((term) => ({ term, weight: 1 }));
    const n = scoreInto(index, terms, config, scores, touched);
    const ranked = Array.from(touched.subarray(0, n)).sort((a, b) => scores[b]! - scores[a]! || a - b);
    for (let i = 0; i < n; i++) scores[touched[i]!] = 0;
    return ranked;
  });
}

// ---------------------------------------------------------------------------
// Scoring a method

export interface Outcome {
  id: string;
  kind: Kind | 'all';
  question: string;
  /** null when the question has no gold section. */
  goldSent: boolean | null;
  /** 1-based rank of the first gold section in the method's ranking, null if not ranked. */
  goldRank: number | null;
  rulesSent: boolean;
  knowledgeSent: boolean;
  tokens: number;
}

export async function runMethod(
  method: Method,
  questions: readonly GoldenQuestion[],
  pinnedIds: readonly string[],
): Promise<Outcome[]> {
  const pinned = new Set(pinnedIds);
  const outcomes: Outcome[] = [];
  for (const q of questions) {
    const sel = await method.select(q.messages);
    const sent = new Set(sel.sentIds);
    const gold = new Set(q.gold);
    const rankIndex = sel.ranking.findIndex((id) => gold.has(id));
    outcomes.push({
      id: q.id,
      kind: q.kind ?? 'all',
      question: q.messages.at(-1)!,
      goldSent: q.gold.length ? q.gold.some((id) => sent.has(id)) : null,
      goldRank: q.gold.length && rankIndex >= 0 ? rankIndex + 1 : null,
      rulesSent: pinnedIds.every((id) => sent.has(id)),
      knowledgeSent: sel.sentIds.some((id) => !pinned.has(id)),
      tokens: sel.tokens,
    });
  }
  return outcomes;
}

export interface Summary {
  group: string;
  questions: number;
  /** Questions with gold sections. */
  withGold: number;
  goldSent: number;
  mrr: number;
  rulesSent: number;
  knowledgeSent: number;
  tokensShare: number;
}

export function summarize(group: string, outcomes: readonly Outcome[], budget: number): Summary {
  const withGold = outcomes.filter((o) => o.goldSent !== null);
  const share = (xs: readonly boolean[]) => (xs.length ? xs.filter(Boolean).length / xs.length : NaN);
  return {
    group,
    questions: outcomes.length,
    withGold: withGold.length,
    goldSent: share(withGold.map((o) => o.goldSent!)),
    mrr: withGold.length ? withGold.reduce((n, o) => n + (o.goldRank ? 1 / o.goldRank : 0), 0) / withGold.length : NaN,
    rulesSent: share(outcomes.map((o) => o.rulesSent)),
    knowledgeSent: share(outcomes.map((o) => o.knowledgeSent)),
    tokensShare: outcomes.reduce((n, o) => n + o.tokens, 0) / outcomes.length / budget,
  };
}

/** Per kind (in KINDS order, those present), then all questions. */
export function summarizeByKind(outcomes: readonly Outcome[], budget: number): Summary[] {
  const rows: Summary[] = [];
  for (const kind of KINDS) {
    const of = outcomes.filter((o) => o.kind === kind);
    if (of.length) rows.push(summarize(kind, of, budget));
  }
  rows.push(summarize('all', outcomes, budget));
  return rows;
}

// ---------------------------------------------------------------------------
// Rendering

const pct = (x: number) => formatPercent(x, 0);
const dec = (x: number) => formatNumber(x, 2);

export function summaryTable(rowsByMethod: ReadonlyArray<{ method: string; rows: Summary[] }>, { rules = true } = {}): string {
  const header = ['kind', 'n', 'method', 'gold sent', 'MRR', ...(rules ? ['rules sent'] : []), 'knowledge sent', 'tokens / budget'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i < 3 ? '---' : '---:')).join('|')}|`];
  const groups = rowsByMethod[0]?.rows.map((r) => r.group) ?? [];
  for (const group of groups) {
    for (const { method, rows } of rowsByMethod) {
      const r = rows.find((x) => x.group === group)!;
      lines.push(
        `| ${group} | ${r.questions} | ${method} | ${pct(r.goldSent)} | ${dec(r.mrr)} | ${rules ? `${pct(r.rulesSent)} | ` : ''}${pct(r.knowledgeSent)} | ${pct(r.tokensShare)} |`,
      );
    }
  }
  return lines.join('\n');
}
