import { bm25FieldNorm, bm25Idf, bm25Saturation } from '../../rank/bm25';
import type { Query, TermExplanation } from '../../types';
import { lookupsOf } from './kb-version';
import type { DecodedGroupTerm, DecodedMatch, DecodedSelection, KbSection, KbVersion } from './record';

/**
 * A record's scores as the selector computes them (bm25.ts), bit for bit: what a record does not
 * store because the KB version and the query give it back.
 */

/** A clause's score as the selector computes it (bm25.ts). */
export function clauseScore(kb: KbVersion, weight: number, idf: number, normalisedTf: number): number {
  return weight * bm25Saturation(idf, normalisedTf, kb.config.k1);
}

/**
 * tf̃ as the selector computes it for a one-field index (the default): each term's
 * occurrences over the section's length norm, weighted by its share of a synonym group;
 * undefined when the section has no stored length.
 */
export function normalisedTfOf(kb: KbVersion, section: KbSection, tf: number, group: readonly { tf: number; share: number }[] | undefined): number | undefined {
  if (section.bm25Length === undefined) return undefined;
  const factor = 1 / bm25FieldNorm(section.bm25Length, kb.avgDocLength, kb.config.b);
  if (!group) return 1 * (tf * factor);
  let sum = 0;
  for (const g of group) sum += g.share * (g.tf * factor);
  return sum;
}

/** The document frequency that gives `idf` back (idf = ln((N + 1) / (df + 0.5))), or [idf]. */
export function dfOf(idf: number, docCount: number): number | [number] {
  const df = Math.round((docCount + 1) / Math.exp(idf) - 0.5);
  return Object.is(bm25Idf(docCount, df), idf) ? df : [idf];
}

export function idfOf(entry: number | [number] | null, docCount: number): number {
  if (entry === null) throw new Error('a term without an idf has matches');
  return typeof entry === 'number' ? bm25Idf(docCount, entry) : entry[0];
}

/** A section's score from its terms' parts, added up in order as the selector does (0 without any). */
export function sumOf(matches: readonly TermExplanation[] | undefined): number {
  let sum = 0;
  for (const m of matches ?? []) sum += m.score;
  return sum;
}

/** One clause's part of section `s`'s score from its compact form: what is not stored, recomputed as the selector computes it. */
export function termExplanationOf(kb: KbVersion, s: KbSection, [t, tf, storedTf, storedWeight, storedGroup, storedScore]: DecodedMatch, query: Query, idfs: DecodedSelection['idfs']): TermExplanation {
  const term = query.terms[t]!.term;
  const weight = typeof storedWeight === 'number' ? storedWeight : query.terms[t]!.weight;
  const group = Array.isArray(storedGroup)
    ? (storedGroup as DecodedGroupTerm[]).map(([gt, gtf, share]) => ({ term: query.terms[gt]!.term, tf: gtf, share: share ?? query.terms[gt]!.weight / weight }))
    : undefined;
  const normalisedTf = typeof storedTf === 'number' ? storedTf : normalisedTfOf(kb, s, tf, group)!;
  const idf = idfOf(idfs[t]!, lookupsOf(kb).docCount);
  const score = typeof storedScore === 'number' ? storedScore : clauseScore(kb, weight, idf, normalisedTf);
  const part: TermExplanation = { term, weight, tf, normalisedTf, idf, score };
  if (group) part.group = group;
  return part;
}
