import { retrievalConfig, type RetrievalConfig, type RetrievalConfigInput } from '../config';
import type { ParsePool } from '../kb/parse-pool';
import type { PackedSectionTerms } from '../kb/section-terms';
import { WorkerLostError } from '../kb/parse-pool';
import { ENGLISH } from '../query/languages';
import { eventLoopPause, nextLoopTurn } from '../steps';
import type { KnowledgeBase, Section } from '../types';
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
  terms?: Map<string, PackedSectionTerms>,
): Promise<void> {
  const config = retrievalConfig(configInput);
  const pinnedTokens = kb.sections.filter((s) => s.pinned).reduce((sum, s) => sum + s.tokens, 0);
  if (pinnedTokens > config.budget) return; // the index build refuses the KB
  const maxTokens = maxPartTokensOf(config, pinnedTokens);
  // The keys hash every long section's text (Node.js's API docs: 100 ms at once): a slice at a
  // time, from the next turn of the loop (the load's own finish has just run on this one).
  await nextLoopTurn();
  const pause = eventLoopPause();
  const long: { section: Section; key: string }[] = [];
  for (const section of kb.sections) {
    if (!isSplit(section, maxTokens)) continue;
    const key = partsKey(section, maxTokens);
    if (!parts.get(key)) long.push({ section, key });
    await pause();
  }
  long.sort((a, b) => b.section.tokens - a.section.tokens);
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
