import type { OfflineText, Selection } from '../retrieval/index';

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
  /** The customer asked for a person (lib/handoff/offer.ts): the offline model says it is not one, and how to reach one. */
  personAsked?: boolean;
  /** The offline model's phrases in the customer's language (the identity file's; English by default). */
  texts?: OfflineText;
};

export const GROUNDING_KEY = 'offline';

export function groundingFor(selection: Selection, company?: string, options: { texts?: OfflineText; personAsked?: boolean } = {}): Grounding {
  const { index } = selection;
  const sections = selection.sent.map(({ doc, reason, score }): GroundingSection => {
    const section = index.pool[doc]!;
    return { id: section.id, path: index.poolPaths[doc]!, text: section.text, reason, score };
  });
  const { texts, personAsked } = options;
  return { question: selection.query.question, sections, company, ...(texts ? { texts } : {}), ...(personAsked ? { personAsked } : {}) };
}

/** The `providerOptions` for streamText that carry the grounding. */
export function groundingProviderOptions(grounding: Grounding): { [GROUNDING_KEY]: Grounding } {
  return { [GROUNDING_KEY]: grounding };
}
