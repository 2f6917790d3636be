import { type Analyzer, englishAnalyzer } from './analyzer';
import { expandTerms } from './synonyms';
import { type TypoIndex, typoCorrections } from './typos';
import { wordVariants } from './variants';
import type { Query, QueryTerm, SynonymGroup } from '../types';

/**
 * The query: built from the last two customer messages, so a follow-up like
 * "what about that one?" keeps the subject of the message before it.
 *
 * Term weights (multiplying each term's BM25 contribution):
 * - a word of the latest message: 1
 * - a word only in the previous message: `historyWeight` (default 0.5), so when the
 *   latest message has a subject of its own, that subject leads
 * - a term added by a synonym group: `synonymWeight` (default 0.5) × the weight of the
 *   word that triggered it, so an exact word outranks its synonyms
 *   With `synonymClauses`, a group's added terms and the customer's own words of that group
 *   form one clause (`clause` = the group's number), which bm25.ts scores as one pseudo-term
 *   (Lucene's SynonymQuery): the weights above become each term's share of the clause's frequency.
 * - a typo correction (typos.ts: a KB word one edit away from a typed word the KB does not
 *   contain): `typoWeight` (default 0.5) × the weight of the typed word. Corrections are
 *   made before synonym expansion, so a corrected word can trigger its synonyms.
 */

export interface QueryWeights {
  historyWeight: number;
  synonymWeight: number;
  /** 0 or absent: no typo correction. */
  typoWeight?: number;
  /** Score each synonym group as one clause (see above). */
  synonymClauses?: boolean;
  /** Try British/American spellings and place adjectives for words the KB lacks (variants.ts). */
  wordVariants?: boolean;
}

/** The language a query is built in: its analyzer, and the other spellings of a word the KB lacks (variants.ts for English). */
export interface QueryAnalysis {
  analyzer: Analyzer;
  variants(word: string): string[];
}

/** English, as every query was built before languages. */
export const ENGLISH_ANALYSIS: QueryAnalysis = { analyzer: englishAnalyzer, variants: wordVariants };

/** What typo correction needs: the KB's words and which terms the index knows. */
export interface TypoLookup {
  index: TypoIndex;
  known(term: string): boolean;
}

/** The words typed (latest message at weight 1, the previous one at historyWeight) none of whose terms the KB has. */
function unknownWords(question: string, previous: string | undefined, historyWeight: number, byTerm: ReadonlyMap<string, QueryTerm>, known: (term: string) => boolean, { analyze, contentWords }: Analyzer): [string, number][] {
  if ([...byTerm.keys()].every(known)) return [];
  const typed: [string, number][] = [[question, 1]];
  if (previous !== undefined && historyWeight > 0) typed.push([previous, historyWeight]);
  const out: [string, number][] = [];
  for (const [text, weight] of typed) {
    for (const word of contentWords(text)) {
      const own = analyze(word);
      if (own.length > 0 && !own.some(known)) out.push([word, weight]);
    }
  }
  return out;
}

/** The terms of the first variant of `word` (variants.ts) whose terms the KB all has (compared as analysed terms, so "optimise" finds a KB that says "optimizing"). */
function knownVariant(word: string, known: (term: string) => boolean, analysis: QueryAnalysis): string[] | undefined {
  for (const variant of analysis.variants(word)) {
    const terms = analysis.analyzer.analyze(variant);
    if (terms.length > 0 && terms.every(known)) return terms;
  }
  return undefined;
}

/** The two customer messages a query reads, from a conversation's customer messages (oldest first): the latest, and the one before it. */
export function queryMessages(customerMessages: readonly string[]): Pick<Query, 'question' | 'previous'> {
  return { question: customerMessages.at(-1) ?? '', previous: customerMessages.length >= 2 ? customerMessages.at(-2) : undefined };
}

/**
 * The text the semantic stage embeds for a query: the same two customer messages the terms come
 * from, oldest first, one per line.
 */
export function embeddingQueryText(query: Pick<Query, 'question' | 'previous'>): string {
  return query.previous === undefined ? query.question : `${query.previous}\n${query.question}`;
}

/**
 * Builds the query from a conversation's customer messages, oldest first
 * (assistant messages are never passed in: only what the customer wrote is a query).
 */
export function buildQuery(
  customerMessages: readonly string[],
  synonyms: readonly SynonymGroup[],
  { historyWeight, synonymWeight, typoWeight = 0, synonymClauses = false, wordVariants: variants = false }: QueryWeights,
  typos?: TypoLookup,
  known: ((term: string) => boolean) | undefined = typos?.known,
  analysis: QueryAnalysis = ENGLISH_ANALYSIS,
): Query {
  const { analyze } = analysis.analyzer;
  const { question, previous } = queryMessages(customerMessages);
  const questionTerms = analyze(question);
  const previousTerms = previous === undefined ? [] : analyze(previous);

  const byTerm = new Map<string, QueryTerm>();
  for (const term of questionTerms) {
    if (!byTerm.has(term)) byTerm.set(term, { term, weight: 1, source: 'question' });
  }
  if (historyWeight > 0) {
    for (const term of previousTerms) {
      if (!byTerm.has(term)) byTerm.set(term, { term, weight: historyWeight, source: 'previous' });
    }
  }
  // Words the KB lacks: first a spelling variant the KB has (the same word, at its weight), then
  // typo corrections for the words no variant resolved.
  const correcting = variants || (typos !== undefined && typoWeight > 0);
  const unknown = known && correcting ? unknownWords(question, previous, historyWeight, byTerm, known, analysis.analyzer) : [];
  const resolved = new Set<string>();
  for (const [word, weight] of variants ? unknown : []) {
    const terms = knownVariant(word, known!, analysis);
    if (!terms) continue;
    resolved.add(word);
    for (const term of terms) {
      const had = byTerm.get(term);
      if (!had || had.weight < weight) byTerm.set(term, { term, weight, source: 'variant', from: word });
    }
  }
  for (const [word, weight] of typos && typoWeight > 0 ? unknown : []) {
    if (resolved.has(word)) continue;
    for (const fix of typoCorrections(word, typos!.index)) {
      for (const term of analyze(fix)) {
        if (!byTerm.has(term)) byTerm.set(term, { term, weight: typoWeight * weight, source: 'typo', from: word });
      }
    }
  }
  if (synonymWeight > 0) {
    const typed = new Set(byTerm.keys());
    const fired = new Set<number>();
    for (const expansion of expandTerms(typed, synonyms)) {
      const triggerWeight = Math.min(...expansion.trigger.map((t) => byTerm.get(t)!.weight));
      byTerm.set(expansion.term, {
        term: expansion.term,
        weight: synonymWeight * triggerWeight,
        source: 'synonym',
        from: expansion.from,
        ...(synonymClauses ? { clause: expansion.group } : {}),
      });
      fired.add(expansion.group);
    }
    // The customer's own single words of a fired group join its clause (a word in two groups joins the first).
    for (const g of synonymClauses ? [...fired].sort((a, b) => a - b) : []) {
      for (const entry of synonyms[g]!.terms) {
        const own = entry.length === 1 ? byTerm.get(entry[0]!) : undefined;
        if (own && own.source !== 'synonym' && own.clause === undefined) own.clause = g;
      }
    }
  }
  return { question, previous, questionTerms, previousTerms, terms: [...byTerm.values()] };
}
