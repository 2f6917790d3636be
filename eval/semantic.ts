/**
 * The semantic stage in the eval, with a real embedding model (`npm run eval -- --semantic`):
 * the in-process Universal Sentence Encoder (lib/ai/local-embeddings.ts), called through the
 * same embedder the server uses (`createEmbedder`: the AI SDK's `embedMany` / `embed`), with
 * the server's default settings (top K, minimum similarity, RRF k). Sections are embedded as
 * the server embeds them (`embeddingText`: the block the model receives), a question as the
 * chat route embeds it (its last two customer messages, joined by a newline), and the
 * selector fuses the two rankings exactly as in a turn (`selectContext` with a query vector).
 *
 * Vectors are cached by SHA-256 of the text in node_modules/.cache/eval-embeddings.json (the
 * server's cache format, lib/knowledge/embedding-cache.ts), so only the first run embeds.
 */
import path from 'node:path';
import { createEmbedder, type Embedder } from '@/lib/ai/embeddings';
import { localEmbeddingModel } from '@/lib/ai/local-embeddings';
import { LOCAL_EMBEDDING_MODELS } from '@/lib/env';
import { readEmbeddingCache, textKey, writeEmbeddingCache } from '@/lib/knowledge/embedding-cache';
import {
  embeddingQueryText,
  embeddingText,
  fusesAt,
  lexicalConfidence,
  queryMessages,
  SEMANTIC_DEFAULTS,
  sectionVectors,
  type RetrievalIndex,
  type SectionVectors,
} from '@/lib/retrieval/index';
import { REPO_ROOT } from '@/bench/corpus';
import { selectorMethod, type GoldenQuestion, type Method } from './evaluate';

export const SEMANTIC_MODEL = LOCAL_EMBEDDING_MODELS[0];
const CACHE_FILE = path.join(REPO_ROOT, 'node_modules/.cache/eval-embeddings.json');
const DEFAULTS = { EMBEDDING_TIMEOUT_MS: 60_000, EMBEDDING_MIN_SIMILARITY: SEMANTIC_DEFAULTS.minSimilarity, EMBEDDING_FUSE_BELOW: SEMANTIC_DEFAULTS.fuseBelow };

const embedder = createEmbedder(localEmbeddingModel(SEMANTIC_MODEL), DEFAULTS);
/** The same model fusing every turn (EMBEDDING_FUSE_BELOW=1), for the row that shows what the confidence gate saves and costs. */
const everyTurn = { ...embedder.settings, fuseBelow: 1 };
let cache: Map<string, Float32Array> | undefined;
/** What embedding cost in this run: texts embedded (not from the cache) and the time they took. */
export const semanticCost = {
  sections: 0,
  sectionMs: 0,
  sectionTexts: 0,
  queries: 0,
  queryMs: 0,
  queryTexts: 0,
  /** Questions the default stage fused (BM25 confidence under fuseBelow), of those asked. */
  fused: 0,
  asked: 0,
  fusedShare() {
    return this.asked ? this.fused / this.asked : 0;
  },
};

/** Vectors for `texts`, from the cache or embedded in batches (sections) or one by one (questions, as a turn does). */
async function vectorsOf(texts: readonly string[], kind: 'sections' | 'queries', counted = true): Promise<Float32Array[]> {
  cache ??= readEmbeddingCache(CACHE_FILE, SEMANTIC_MODEL);
  const missing = [...new Set(texts.filter((t) => !cache!.has(textKey(t))))];
  const started = performance.now();
  if (kind === 'sections') {
    for (let i = 0; i < missing.length; i += 64) {
      const batch = missing.slice(i, i + 64);
      const vectors = await embedder.embedSections(batch);
      batch.forEach((t, j) => cache!.set(textKey(t), Float32Array.from(vectors[j]!)));
    }
    semanticCost.sections += missing.length;
    if (counted) semanticCost.sectionTexts += new Set(texts).size;
    semanticCost.sectionMs += performance.now() - started;
  } else {
    for (const t of missing) cache.set(textKey(t), Float32Array.from(await embedder.embedQuery(t)));
    semanticCost.queries += missing.length;
    if (counted) semanticCost.queryTexts += new Set(texts).size;
    semanticCost.queryMs += performance.now() - started;
  }
  if (missing.length) writeEmbeddingCache(CACHE_FILE, SEMANTIC_MODEL, cache);
  return texts.map((t) => cache!.get(textKey(t))!);
}

/** The text a turn embeds for its question (the last two customer messages, as the query reads them). */
function queryText(messages: readonly string[]): string {
  return embeddingQueryText(queryMessages(messages));
}

/**
 * The selector with the semantic stage on (BM25 and cosine similarity fused by RRF), for these
 * questions: with the server's defaults (fused only where BM25's confidence is under
 * EMBEDDING_FUSE_BELOW, 0.2), or on `every` turn.
 */
export async function semanticSelectorMethod(index: RetrievalIndex, questions: readonly GoldenQuestion[], name = 'selector + semantic', every = false): Promise<Method> {
  const sections: SectionVectors = sectionVectors(SEMANTIC_MODEL, await vectorsOf(index.pool.map(embeddingText), 'sections', !every));
  const texts = questions.map((q) => queryText(q.messages));
  if (!every) {
    semanticCost.asked += questions.length;
    semanticCost.fused += questions.filter((q) => fusesAt(lexicalConfidence(index, q.messages), embedder.settings.fuseBelow)).length;
  }
  const vectors = new Map((await vectorsOf(texts, 'queries', !every)).map((v, i) => [texts[i]!, v]));
  // The turn's own embedding step, answered from the vectors computed above (all cached by text).
  const precomputed: Embedder = {
    ...embedder,
    settings: every ? everyTurn : embedder.settings,
    async embedQuery(text) {
      const query = vectors.get(text);
      if (!query) throw new Error(`semantic eval: no embedding for ${JSON.stringify(text)}`);
      return Array.from(query);
    },
  };
  return selectorMethod(index, name, { embedder: precomputed, vectors: sections, status: 'ready', done: Promise.resolve() });
}
