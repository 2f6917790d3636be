import 'server-only';
import { createEmbedder, embeddingModelFromEnv } from '../ai/embeddings';
import { noteReload } from '../debug/reload-impact';
import { env, type Env } from '../env';
import { currentKnowledgeHolder, keepKnowledgeHolder } from './current';
import { kbCacheFile } from './disk-cache';
import { embeddingCacheFile } from './embedding-cache';
import { SectionEmbedder } from './embeddings';
import { KnowledgeHolder } from './holder';
import type { Knowledge } from './load';

export type { Knowledge } from './load';
export { KnowledgeUnavailableError } from './holder';

/**
 * The server's knowledge base: loaded once per process (instrumentation.ts does it at
 * start-up), kept on globalThis (current.ts) so dev-mode hot reloads, every route bundle and
 * the proxy share one copy, and reloaded when its files change (every KB_RELOAD_INTERVAL_MS,
 * see holder.ts).
 *
 * A KB that fails to load is never served in part: getKnowledge() throws
 * KnowledgeUnavailableError (`file:line: reason`) until the files are fixed. A broken edit
 * of a KB in service keeps the last good version in use.
 *
 * With EMBEDDING_MODEL set, every load gets its section embeddings (embeddings.ts), cached
 * beside the parsed KB.
 */
export function knowledgeHolder(): KnowledgeHolder {
  const current = currentKnowledgeHolder();
  if (current) return current;
  const settings = env();
  const cacheFile = kbCacheFile(settings.KB_CACHE_PATH, settings.KB_PATH);
  const holder = new KnowledgeHolder({ settings, cacheFile, embedder: sectionEmbedder(settings, cacheFile), onReload: noteReload });
  holder.watch(settings.KB_RELOAD_INTERVAL_MS);
  return keepKnowledgeHolder(holder);
}

/** The semantic stage's section embedder, when EMBEDDING_MODEL turns it on. */
function sectionEmbedder(settings: Env, cacheFile: string | undefined): SectionEmbedder | undefined {
  const model = embeddingModelFromEnv(settings);
  if (!model) return undefined;
  const log = { info: (m: string) => console.info(m), error: (m: string) => console.error(m) };
  return new SectionEmbedder(createEmbedder(model, settings), log, cacheFile && embeddingCacheFile(cacheFile));
}

export function getKnowledge(): Knowledge {
  return knowledgeHolder().get();
}
