import type { Explanation, RetrievalIndex } from '../retrieval/index';

/**
 * What the offline model answers from: the question and the non-pinned sections that were
 * sent, in send order (scored by rank, then floor). It travels to the model in
 * `providerOptions.offline`, which every other provider ignores.
 */
export type GroundingSection = {
  id: string;
  /** "Parent › Title", as in the context text. */
  path: string;
  text: string;
  reason: 'scored' | 'floor';
  score: number;
};

export type Grounding = {
  question: string;
  sections: GroundingSection[];
  /** The company the help center belongs to (the KB's identity), for the offline notice. */
  company?: string;
};

export const GROUNDING_KEY = 'offline';

export function groundingFor(index: Pick<RetrievalIndex, 'pool'>, explanation: Explanation, company?: string): Grounding {
  const byId = new Map(index.pool.map((s) => [s.id, s]));
  const sections: GroundingSection[] = [];
  for (const v of explanation.sections) {
    if (!v.sent || (v.reason !== 'scored' && v.reason !== 'floor')) continue;
    const section = byId.get(v.id);
    if (section) sections.push({ id: v.id, path: v.path, text: section.text, reason: v.reason, score: v.score });
  }
  return { question: explanation.query.question, sections, company };
}

/** The `providerOptions` for streamText that carry the grounding. */
export function groundingProviderOptions(grounding: Grounding): { [GROUNDING_KEY]: Grounding } {
  return { [GROUNDING_KEY]: grounding };
}
