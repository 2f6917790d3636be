import { analyze } from './analyzer';
import type { WeightedTerm } from './bm25';
import { expandTerms } from './synonyms';
import type { SynonymGroup } from './types';

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
 */

export type QueryTermSource = 'question' | 'previous' | 'synonym';

export interface QueryTerm extends WeightedTerm {
  source: QueryTermSource;
  /** For a synonym: the customer's word (a synonyms-file entry) that added it. */
  from?: string;
}

export interface Query {
  /** The latest customer message. */
  question: string;
  /** The customer message before it, if any. */
  previous?: string;
  /** Analyzed terms of the latest message, in order, with repeats. */
  questionTerms: string[];
  /** Analyzed terms of the previous message. */
  previousTerms: string[];
  /** Distinct terms to score with, typed words first, then synonyms. */
  terms: QueryTerm[];
}

export interface QueryWeights {
  historyWeight: number;
  synonymWeight: number;
}

/**
 * Builds the query from a conversation's customer messages, oldest first
 * (assistant messages are never passed in: only what the customer wrote is a query).
 */
export function buildQuery(
  customerMessages: readonly string[],
  synonyms: readonly SynonymGroup[],
  { historyWeight, synonymWeight }: QueryWeights,
): Query {
  const question = customerMessages.at(-1) ?? '';
  const previous = customerMessages.length >= 2 ? customerMessages.at(-2) : undefined;
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
  if (synonymWeight > 0) {
    const typed = new Set(byTerm.keys());
    for (const expansion of expandTerms(typed, synonyms)) {
      const triggerWeight = Math.min(...expansion.trigger.map((t) => byTerm.get(t)!.weight));
      byTerm.set(expansion.term, {
        term: expansion.term,
        weight: synonymWeight * triggerWeight,
        source: 'synonym',
        from: expansion.from,
      });
    }
  }
  return { question, previous, questionTerms, previousTerms, terms: [...byTerm.values()] };
}
