import { z } from 'zod';
import type { LanguageSource, Query, QueryLanguage, QueryTermSource } from '../../types';

/**
 * A turn's query as the store keeps it (the `query` column): JSON text without the question (a
 * column of its own), its terms as tuples. Read by older versions too, so a newer query stays
 * readable: a reader skips fields and trailing tuple elements it does not know and keeps a value
 * it does not know (a term source added later) by name; a change may add fields, elements and
 * values, never give an existing one a new meaning.
 */

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
