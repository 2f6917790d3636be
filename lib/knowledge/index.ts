import 'server-only';
import { noteReload } from '../debug/reload-impact';
import { env } from '../env';
import { kbCacheFile } from './disk-cache';
import { KnowledgeHolder } from './holder';
import type { Knowledge } from './load';

export type { Knowledge } from './load';
export { KnowledgeUnavailableError } from './holder';

/**
 * The server's knowledge base: loaded once per process (instrumentation.ts does it at
 * start-up), kept on globalThis so dev-mode hot reloads and every route bundle share one
 * copy, and reloaded when its files change (every KB_RELOAD_INTERVAL_MS, see holder.ts).
 *
 * A KB that fails to load is never served in part: getKnowledge() throws
 * KnowledgeUnavailableError (`file:line: reason`) until the files are fixed. A broken edit
 * of a KB in service keeps the last good version in use.
 */
const cache = globalThis as typeof globalThis & { __supportChatKnowledgeHolder?: KnowledgeHolder };

export function knowledgeHolder(): KnowledgeHolder {
  if (!cache.__supportChatKnowledgeHolder) {
    const settings = env();
    const holder = new KnowledgeHolder({ settings, cacheFile: kbCacheFile(settings.KB_CACHE_PATH, settings.KB_PATH), onReload: noteReload });
    holder.watch(settings.KB_RELOAD_INTERVAL_MS);
    cache.__supportChatKnowledgeHolder = holder;
  }
  return cache.__supportChatKnowledgeHolder;
}

export function getKnowledge(): Knowledge {
  return knowledgeHolder().get();
}
