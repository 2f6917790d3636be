import { z } from 'zod';

/**
 * Every tuning knob of the selector, validated in one place, each described beside its
 * definition (`.describe`: docs/configuration.md's retrieval table is generated from them,
 * scripts/config-doc.ts). Defaults reproduce the product's intended shape on the demo knowledge base:
 * a ~3,700-token knowledge budget of which the pinned rules take about a third,
 * and a floor of 2,000 tokens so a vague question still gets something to read.
 */
export const retrievalConfigSchema = z.object({
  budget: z.number().int().positive().default(3700).describe('Tokens (o200k_base) of knowledge sent per request: pinned + scored + floor.'),
  floor: z
    .number()
    .int()
    .nonnegative()
    .default(2000)
    .describe('Minimum tokens of non-pinned knowledge; below it, unsent sections are added in file order. 0 disables the floor.'),
  maxSectionShare: z
    .number()
    .gt(0)
    .max(1)
    .default(0.5)
    .describe(
      'Longest unpinned section, as a share of the budget left after the pinned block; a longer one is split into parts that each fit (`select/split.ts`). 1 = split only what could never be sent.',
    ),
  k1: z.number().min(0).max(10).default(1.2).describe('BM25 term-frequency saturation. 0 = presence only; typical range 0.5–2.'),
  b: z.number().min(0).max(1).default(0.75).describe('BM25 length normalisation. 0 = none, 1 = full.'),
  titleWeight: z
    .number()
    .int()
    .min(1)
    .max(10)
    .default(2)
    .describe("How many times a section's heading path counts, relative to its body (1 = same as body text): its words are counted that many times in the section's terms."),
  synonymClauses: z
    .boolean()
    .default(true)
    .describe("Score a synonym group's terms as one pseudo-term (Lucene's SynonymQuery: frequencies summed, one idf, one saturation) instead of as separate terms that each add their own score."),
  historyWeight: z.number().min(0).max(1).default(0.5).describe('Weight of terms from the previous customer message, relative to the latest one.'),
  synonymWeight: z.number().min(0).max(1).default(0.5).describe('Weight of terms added by synonym expansion, relative to the words the customer typed.'),
  typoWeight: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe('Weight of a typo correction (a KB word one edit away from a typed word the KB does not contain; `query/typos.ts`), relative to the word typed. 0 disables typo correction.'),
  wordVariants: z
    .boolean()
    .default(true)
    .describe(
      'For a word the KB lacks, try its British/American spelling and place-adjective forms ("optimise" → "optimize", "europe" → "european"; `query/variants.ts`) and use the first the KB has, at the typed word\'s weight, before typo correction.',
    ),
  thesaurus: z
    .boolean()
    .default(true)
    .describe("Add the built-in thesaurus of the query's language, when it has one (German: OpenThesaurus; [languages.md](languages.md)), after the KB's own synonym groups, at `synonymWeight`."),
  explainLimit: z
    .number()
    .int()
    .nonnegative()
    .default(1000)
    .describe('How many unsent sections (over budget, then no match) an explanation lists at most; its counts are always complete.'),
});

export type RetrievalConfig = z.infer<typeof retrievalConfigSchema>;
export type RetrievalConfigInput = z.input<typeof retrievalConfigSchema>;

/** Validates a partial config and fills in defaults; throws a ZodError naming the bad field. */
export function retrievalConfig(input: RetrievalConfigInput = {}): RetrievalConfig {
  return retrievalConfigSchema.parse(input);
}
