import { APICallError } from 'ai';
import { MockEmbeddingModelV3 } from 'ai/test';
import { stubEmbedding } from './stub-embeddings.mjs';
import { createEmbedder, type Embedder } from '../ai/embeddings';

/** How the test embedding model answers its next calls. */
export type TestEmbeddingMode = 'ok' | 'hang' | '500' | 'short' | 'wrong-count';

/**
 * An embedding model for unit tests: the e2e stub's vectors (lib/testing/stub-embeddings.mjs) through
 * the AI SDK's mock model, with a mode to make it hang, answer HTTP 500 or answer nonsense.
 */
export function testEmbeddingModel() {
  const state = { mode: 'ok' as TestEmbeddingMode, calls: 0, values: 0 };
  const model = new MockEmbeddingModelV3({
    modelId: 'stub-embed',
    maxEmbeddingsPerCall: 2048,
    doEmbed: async ({ values, abortSignal }) => {
      state.calls++;
      state.values += values.length;
      if (state.mode === 'hang') {
        await new Promise((_, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true }));
      }
      if (state.mode === '500') {
        throw new APICallError({ message: 'stub: internal server error', url: 'http://stub/v1/embeddings', requestBodyValues: {}, statusCode: 500, isRetryable: false });
      }
      if (state.mode === 'wrong-count') return { embeddings: [], warnings: [] };
      const embeddings = values.map((v) => (state.mode === 'short' ? [1, 0, 0] : stubEmbedding(v)));
      return { embeddings, warnings: [] };
    },
  });
  return { model, state };
}

/**
 * An embedder over the test model with the stage's defaults (timeout shortened for tests), except
 * that it fuses every turn unless `fuseBelow` says otherwise: most tests are about fusing.
 */
export function testEmbedder(timeoutMs = 200, fuseBelow = 1): { embedder: Embedder; state: ReturnType<typeof testEmbeddingModel>['state'] } {
  const { model, state } = testEmbeddingModel();
  return { embedder: createEmbedder(model, { EMBEDDING_TIMEOUT_MS: timeoutMs, EMBEDDING_MIN_SIMILARITY: 0.3, EMBEDDING_FUSE_BELOW: fuseBelow }), state };
}
