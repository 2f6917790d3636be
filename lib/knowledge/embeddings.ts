import { describeEmbeddingError, SECTION_BATCH, type Embedder } from '../ai/embeddings';
import { errorText } from '../errors';
import type { Log } from '../log';
import { embeddingText, sectionVectors, setSectionVector, type RetrievalIndex, type SectionVectors } from '../retrieval/index';
import { readEmbeddingCache, textKey, writeEmbeddingCache } from './embedding-cache';

/**
 * The section embeddings of each KB load (the semantic stage; holder.ts attaches them).
 *
 * A load never waits for them and never fails because of them: the sections whose text is in
 * the cache (memory, then the file: embedding-cache.ts) get their vector at once; the rest are
 * embedded in the background, SECTION_BATCH at a time, and get theirs as each batch answers.
 * Until then, or for good if a batch fails, those sections are ranked by BM25 alone — the
 * turn's explanation counts them (`unembedded`), the log says why, and a reload or restart
 * tries again. Embedding stops at the first failed batch (a server that is down is not asked
 * again for every batch).
 */

export type EmbeddingStatus = 'embedding' | 'ready' | 'failed';

/** One load's section embeddings, filled in as they arrive. */
export interface KnowledgeEmbeddings {
  embedder: Embedder;
  /** One per pool section of the load's index (undefined until it has one). */
  vectors: SectionVectors;
  status: EmbeddingStatus;
  /** Why some sections have no vector (status `failed`). */
  error?: string;
  /** Resolves when embedding has ended, however it ended. */
  done: Promise<void>;
}

export class SectionEmbedder {
  private readonly cache: Map<string, Float32Array>;
  /** Keys of the latest load's sections: what the cache file keeps. */
  private current = new Set<string>();

  constructor(
    readonly embedder: Embedder,
    private readonly log: Log,
    private readonly cacheFile?: string,
  ) {
    this.cache = cacheFile ? readEmbeddingCache(cacheFile, embedder.settings.model) : new Map();
  }

  /** The embeddings of a freshly loaded index: cached vectors now, the rest in the background. */
  attach(index: RetrievalIndex): KnowledgeEmbeddings {
    const keys = index.pool.map((s) => textKey(embeddingText(s)));
    this.current = new Set(keys);
    const vectors = sectionVectors(this.embedder.settings.model, keys.map((k) => this.cache.get(k)));
    const missing = keys.flatMap((_, doc) => (vectors.vectors[doc] ? [] : [doc]));
    const embeddings: KnowledgeEmbeddings = { embedder: this.embedder, vectors, status: 'embedding', done: Promise.resolve() };
    const model = this.embedder.settings.model;
    if (missing.length === 0) {
      embeddings.status = 'ready';
      this.log.info(`[semantic] ${keys.length} sections embedded with ${model} (all from the cache)`);
    } else {
      embeddings.done = this.fill(index, embeddings, keys, missing);
    }
    return embeddings;
  }

  private async fill(index: RetrievalIndex, embeddings: KnowledgeEmbeddings, keys: string[], missing: number[]): Promise<void> {
    const started = performance.now();
    const model = this.embedder.settings.model;
    let done = 0;
    try {
      for (let at = 0; at < missing.length; at += SECTION_BATCH) {
        const batch = missing.slice(at, at + SECTION_BATCH);
        const answers = await this.embedder.embedSections(batch.map((doc) => embeddingText(index.pool[doc]!)));
        batch.forEach((doc, i) => {
          const vector = Float32Array.from(answers[i]!);
          if (embeddings.vectors.dimensions && vector.length !== embeddings.vectors.dimensions) {
            throw new Error(`a vector of ${vector.length} dimensions among vectors of ${embeddings.vectors.dimensions}`);
          }
          setSectionVector(embeddings.vectors, doc, vector);
          this.cache.set(keys[doc]!, vector);
        });
        done += batch.length;
      }
      embeddings.status = 'ready';
      const ms = Math.round(performance.now() - started);
      this.log.info(`[semantic] embedded ${missing.length} sections with ${model} in ${ms} ms (${keys.length - missing.length} of ${keys.length} from the cache)`);
    } catch (error) {
      embeddings.status = 'failed';
      embeddings.error = describeEmbeddingError(error);
      this.log.error(
        `[semantic] could not embed ${missing.length - done} of ${keys.length} sections with ${model}: ${embeddings.error}. ` +
          'They are ranked by BM25 alone until the next reload or restart.',
      );
    }
    if (done > 0) this.save();
  }

  /** Writes the latest load's vectors for the next process; a cache that cannot be written is only logged. */
  private save(): void {
    if (!this.cacheFile) return;
    const kept = new Map([...this.cache].filter(([key]) => this.current.has(key)));
    try {
      writeEmbeddingCache(this.cacheFile, this.embedder.settings.model, kept);
    } catch (error) {
      this.log.error(`[semantic] the section embeddings could not be cached in ${this.cacheFile}: ${errorText(error)}`);
    }
  }
}
