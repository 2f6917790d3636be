import { z } from 'zod';

/**
 * Every tuning knob of the selector, validated in one place.
 * Defaults reproduce the product's intended shape on the demo knowledge base:
 * a ~3,700-token knowledge budget of which the pinned rules take about a third,
 * and a floor of 2,000 tokens so a vague question still gets something to read.
 */
export const retrievalConfigSchema = z.object({
  /** Tokens (o200k_base) of knowledge sent per request: pinned + scored + floor. */
  budget: z.number().int().positive().default(3700),
  /** Minimum tokens of non-pinned knowledge; below it, unsent sections are added in file order. 0 disables the floor. */
  floor: z.number().int().nonnegative().default(2000),
  /**
   * Longest unpinned section, as a share of the budget left after the pinned block; a longer
   * one is split into parts that each fit (split.ts). 1 = split only what could never be sent.
   */
  maxSectionShare: z.number().gt(0).max(1).default(0.5),
  /** BM25 term-frequency saturation. 0 = presence only; typical range 0.5–2. */
  k1: z.number().min(0).max(10).default(1.2),
  /** BM25 length normalisation. 0 = none, 1 = full. */
  b: z.number().min(0).max(1).default(0.75),
  /** How many times a section's heading path counts, relative to its body (1 = same as body text): its words are counted that many times in the section's terms. */
  titleWeight: z.number().int().min(1).max(10).default(2),
  /**
   * Score a synonym group's terms as one pseudo-term (Lucene's SynonymQuery: frequencies summed,
   * one idf, one saturation) instead of as separate terms that each add their own score.
   */
  synonymClauses: z.boolean().default(true),
  /** Weight of terms from the previous customer message, relative to the latest one. */
  historyWeight: z.number().min(0).max(1).default(0.5),
  /** Weight of terms added by synonym expansion, relative to the words the customer typed. */
  synonymWeight: z.number().min(0).max(1).default(0.5),
  /**
   * Weight of a typo correction (a KB word one edit away from a word the customer typed that
   * is not in the KB; see typos.ts), relative to the word typed. 0 disables typo correction.
   */
  typoWeight: z.number().min(0).max(1).default(0.5),
  /**
   * For a word the KB lacks, try its British/American spelling and place-adjective forms
   * ("optimise" → "optimize", "europe" → "european"; variants.ts) and use the first the KB has,
   * at the typed word's weight, before typo correction.
   */
  wordVariants: z.boolean().default(true),
  /**
   * Add the built-in thesaurus of the query's language, when it has one (German: OpenThesaurus;
   * query/thesaurus.ts), after the KB's own synonym groups, at `synonymWeight`.
   */
  thesaurus: z.boolean().default(true),
  /** How many unsent sections (over budget, then no match) the explanation lists at most; counts are always complete. */
  explainLimit: z.number().int().nonnegative().default(1000),
});

export type RetrievalConfig = z.infer<typeof retrievalConfigSchema>;
export type RetrievalConfigInput = z.input<typeof retrievalConfigSchema>;

/** Validates a partial config and fills in defaults; throws a ZodError naming the bad field. */
export function retrievalConfig(input: RetrievalConfigInput = {}): RetrievalConfig {
  return retrievalConfigSchema.parse(input);
}
