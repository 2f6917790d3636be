import { retrievalConfig, type RetrievalConfig, type RetrievalConfigInput } from '../config';
import type { ParsePool } from '../kb/parse-pool';
import type { SectionTerms } from '../kb/section-terms';
import { WorkerLostError } from '../kb/parse-pool';
import { ENGLISH } from '../query/languages';
import type { KnowledgeBase } from '../types';
import { maxPartTokensOf } from './build-index';
import { type PartsCache, partsKey } from './parts-cache';
import { isSplit } from './split';

/**
 * The long sections of a KB just parsed on the workers, split into parts on the same workers
 * (largest first) and put in `parts`, for the index build to take (build-index.ts `parts`):
 * splitting parses each long section's markdown again and counts every piece, which for a
 * KB of long pages (Node.js's API docs) is most of an index build and would otherwise hold
 * the event loop for seconds. Parts already in `parts` are not split again. A worker that is
 * lost leaves its section to the index build, on the main thread.
 */
export async function splitOnPool(
  kb: Pick<KnowledgeBase, 'sections'>,
  pool: ParsePool,
  configInput: RetrievalConfigInput | RetrievalConfig,
  parts: PartsCache,
  terms?: Map<string, SectionTerms>,
): Promise<void> {
  const config = retrievalConfig(configInput);
  const pinnedTokens = kb.sections.filter((s) => s.pinned).reduce((sum, s) => sum + s.tokens, 0);
  if (pinnedTokens > config.budget) return; // the index build refuses the KB
  const maxTokens = maxPartTokensOf(config, pinnedTokens);
  const long = kb.sections
    .filter((s) => isSplit(s, maxTokens))
    .map((section) => ({ section, key: partsKey(section, maxTokens) }))
    .filter(({ key }) => !parts.get(key))
    .sort((a, b) => b.section.tokens - a.section.tokens);
  await Promise.all(
    long.map(async ({ section, key }) => {
      const english = (section.language ?? ENGLISH) === ENGLISH;
      try {
        const split = await pool.split(section, maxTokens, english && terms !== undefined);
        parts.set(key, split.parts);
        split.terms?.forEach((t, i) => terms!.set(`${section.id}~${i + 1}`, t));
      } catch (error) {
        if (!(error instanceof WorkerLostError)) throw error;
      }
    }),
  );
}
