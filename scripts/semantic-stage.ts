import { createEmbedder, embeddingModelFromEnv } from '@/lib/ai/embeddings';
import { embeddingCacheFile } from '@/lib/knowledge/embedding-cache';
import { SectionEmbedder, type KnowledgeEmbeddings } from '@/lib/knowledge/embeddings';
import type { Log } from '@/lib/log';
import type { RetrievalIndex } from '@/lib/retrieval/index';
import { serverSettings } from '@/lib/server/paths';

/**
 * The semantic stage for the CLIs (explain, kb:test), as the server runs it, when
 * EMBEDDING_MODEL is set: the KB's section embeddings (from the same cache the server writes),
 * waited for. Undefined when the stage is off.
 */
export async function sectionEmbeddings(kbPath: string, index: RetrievalIndex): Promise<KnowledgeEmbeddings | undefined> {
  // The server's settings, with this KB: the same cache file the server writes for it.
  const { env: settings, paths } = serverSettings({ ...process.env, KB_PATH: kbPath });
  const model = embeddingModelFromEnv(settings);
  if (!model) return undefined;
  const cacheFile = paths.kbCache;
  const log: Log = { info: (m) => console.error(m), error: (m) => console.error(m) };
  const embeddings = new SectionEmbedder(createEmbedder(model, settings), log, cacheFile && embeddingCacheFile(cacheFile)).attach(index);
  await embeddings.done;
  return embeddings;
}
