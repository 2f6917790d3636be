import { buildQuery, queryMessages } from '../query/build-query';
import { customerLanguage, type LanguageHints } from '../query/detect-language';
import { type Bm25Index, scoreInto } from '../rank/bm25';
import type { RetrievalIndex } from './build-index';
import type { Query, QueryLanguage } from '../types';

/**
 * The first step of a selection: the query built from the customer's messages and scored
 * against the pool, once per turn (docs/retrieval.md "Scoring: BM25"). What it finds
 * (the matched sections, the best score, BM25's confidence) decides whether the semantic stage
 * embeds the query, and is what packing (select.ts) ranks.
 *
 * Languages (docs/languages.md): the customer's language is found first (detect-language.ts);
 * the query is analysed in it when the KB has sections in it (else in the KB's default
 * language), and when the KB has several languages only the matches in that language are
 * ranked, unless none of them matched: then the whole KB is. The language's matches are scored
 * with its own BM25 statistics (N, idf, avgdl over its sections: build-index.ts), the whole KB
 * with the pool's.
 */

/** The query and what it matched: `docs[i]` (a pool index) scored `scores[i]`, in no particular order. */
export interface ScoredQuery {
  query: Query;
  matched: { docs: Int32Array; scores: Float64Array };
  /** Highest score of any section (0 when nothing matched). */
  topScore: number;
  /** How well BM25 alone answers the query, 0–1 (confidenceOf). */
  confidence: number;
  /** The BM25 statistics the scores come from (the explanation uses the same): the query language's in a KB of several languages, else the pool's. */
  bm25: Bm25Index;
}

/** The customer's language for these messages and the language the query is analysed in (scope and set-aside filled in by scoring). */
function queryLanguage(index: RetrievalIndex, customerMessages: readonly string[], hints: LanguageHints | undefined): QueryLanguage {
  const { language, source } = customerLanguage(queryMessages(customerMessages), [index.language, ...index.languages.keys()], hints);
  const analysed = index.languages.has(language) ? language : index.language;
  return { customer: language, source, analysed, scope: 'kb', setAside: 0 };
}

/** Builds the query from the customer's messages (oldest first; the last two are used) and scores it. */
export function scoreQuery(index: RetrievalIndex, customerMessages: readonly string[], hints?: LanguageHints): ScoredQuery {
  const { config, bm25, scratch } = index;
  const language = queryLanguage(index, customerMessages, hints);
  const tools = index.languages.get(language.analysed);
  const query = buildQuery(customerMessages, index.synonymsFor(language.analysed), config, tools?.typos, index.known, tools?.analysis);
  query.language = language;
  const { scores, touched } = scratch;
  let stats = tools?.bm25 ?? bm25;
  let count = scoreInto(stats, query.terms, config, scores, touched);
  if (index.languages.size > 1) count = keepLanguage(index, language, scores, touched, count);
  if (language.scope === 'kb' && stats !== bm25) {
    // No section in the language matched: the whole KB is ranked, with the pool's statistics.
    for (let i = 0; i < count; i++) scores[touched[i]!] = 0;
    stats = bm25;
    count = scoreInto(stats, query.terms, config, scores, touched);
  }
  const docs = touched.slice(0, count);
  const matchedScores = new Float64Array(count);
  let topScore = 0;
  for (let i = 0; i < count; i++) {
    const doc = docs[i]!;
    topScore = Math.max(topScore, (matchedScores[i] = scores[doc]!));
    scores[doc] = 0; // the scratch buffer is left as found: packing may come after an await
  }
  return { query, matched: { docs, scores: matchedScores }, topScore, confidence: confidenceOf(index, query, topScore, stats), bm25: stats };
}

/**
 * Keeps the matches in the query's language at the front of `touched` when there are any (the
 * others' scores reset to 0), and records the scope on `language`; returns how many are kept.
 */
function keepLanguage(index: RetrievalIndex, language: QueryLanguage, scores: Float64Array, touched: Int32Array, count: number): number {
  const { poolLanguages } = index;
  let kept = 0;
  for (let i = 0; i < count; i++) if (poolLanguages[touched[i]!] === language.analysed) kept++;
  if (kept === 0) return count;
  language.scope = 'language';
  if (kept === count) return count;
  let at = 0;
  for (let i = 0; i < count; i++) {
    const doc = touched[i]!;
    if (poolLanguages[doc] === language.analysed) touched[at++] = doc;
    else scores[doc] = 0;
  }
  language.setAside = count - kept;
  return kept;
}

/** BM25's confidence for these customer messages (confidenceOf), for callers that need only that. */
export function lexicalConfidence(index: RetrievalIndex, customerMessages: readonly string[], hints?: LanguageHints): number {
  return scoreQuery(index, customerMessages, hints).confidence;
}

/**
 * How well BM25 alone answers the query, 0–1: the best section's score over the most any section
 * could score (Σ weight · idf · (k1 + 1) over the query's terms the KB has: each term's BM25 part
 * stays under idf · (k1 + 1), however often it occurs; idf from `bm25`, the statistics the query
 * was scored with). 0 when no term is in the KB. The semantic
 * stage fuses only below `fuseBelow`: its list helps questions whose words find little, and
 * costs ranking quality where they already find the answer (eval/README.md).
 */
export function confidenceOf(index: RetrievalIndex, query: Query, topScore: number, bm25: Bm25Index = index.bm25): number {
  const { config } = index;
  let most = 0;
  for (const t of query.terms) {
    const id = bm25.termIds.get(t.term);
    if (id !== undefined && bm25.docFreqs[id]! > 0) most += t.weight * bm25.idfs[id]! * (config.k1 + 1);
  }
  return most > 0 ? Math.min(1, topScore / most) : 0;
}
