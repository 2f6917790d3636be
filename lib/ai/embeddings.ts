import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, embed, embedMany, InvalidResponseDataError, JSONParseError, RetryError, TypeValidationError } from 'ai';
import type { Env } from '../env';
import { localEmbeddingModel } from './local-embeddings';
import { isLocalEmbeddingModel } from '../env';
import type { EmbeddingModelV3 } from './model-types';
import { RRF_K, SEMANTIC_DEFAULTS, type SemanticSettings } from '../retrieval/index';

/**
 * The semantic stage's embedding model (on when EMBEDDING_MODEL is set), through the AI SDK's
 * `embed` / `embedMany` and the OpenAI provider's `/embeddings` endpoint — what OpenAI,
 * Ollama, vLLM and LM Studio serve — or a model that runs in process (`local:…`,
 * local-embeddings.ts). The same server and key as the chat model unless
 * EMBEDDING_BASE_URL / EMBEDDING_API_KEY say otherwise.
 *
 * Two calls, two policies:
 * - sections, when the KB loads (lib/knowledge/embeddings.ts): batches of SECTION_BATCH, the
 *   SDK's retries, a generous limit per batch; a failure leaves those sections without a vector.
 * - the query, once per turn (lib/knowledge/semantic-query.ts): no retry, EMBEDDING_TIMEOUT_MS; any
 *   failure is described in one sentence for the trace and the turn runs on BM25 alone.
 */

export type EmbeddingSettings = Pick<
  Env,
  | 'EMBEDDING_MODEL'
  | 'EMBEDDING_BASE_URL'
  | 'EMBEDDING_API_KEY'
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'EMBEDDING_TIMEOUT_MS'
  | 'EMBEDDING_MIN_SIMILARITY'
  | 'EMBEDDING_FUSE_BELOW'
>;

/** Sections per embedMany call. */
export const SECTION_BATCH = 128;
/** How long one batch of sections may take, ms (retries included). */
export const SECTION_BATCH_TIMEOUT_MS = 60_000;

export interface Embedder {
  settings: SemanticSettings;
  /** How long a turn waits for its query embedding, ms. */
  queryTimeoutMs: number;
  /** One batch of section texts → one vector each, in order. Throws on any failure. */
  embedSections(texts: string[]): Promise<number[][]>;
  /** The query's vector, or throws (after `queryTimeoutMs` at most, or when `signal` aborts). */
  embedQuery(text: string, signal?: AbortSignal): Promise<number[]>;
}

/** The embedding model the settings name (`local:…`: one that runs in process); undefined when the stage is off. */
export function embeddingModelFromEnv(settings: EmbeddingSettings): EmbeddingModelV3 | undefined {
  if (!settings.EMBEDDING_MODEL) return undefined;
  if (isLocalEmbeddingModel(settings.EMBEDDING_MODEL)) return localEmbeddingModel(settings.EMBEDDING_MODEL);
  const openai = createOpenAI({
    apiKey: settings.EMBEDDING_API_KEY ?? settings.OPENAI_API_KEY,
    baseURL: settings.EMBEDDING_BASE_URL ?? settings.OPENAI_BASE_URL,
  });
  return openai.embedding(settings.EMBEDDING_MODEL);
}

/** The embedder of the semantic stage over `model` (the server's, or a test's mock). */
export function createEmbedder(
  model: EmbeddingModelV3,
  settings: Pick<EmbeddingSettings, 'EMBEDDING_TIMEOUT_MS' | 'EMBEDDING_MIN_SIMILARITY' | 'EMBEDDING_FUSE_BELOW'>,
): Embedder {
  return {
    settings: {
      model: model.modelId,
      topK: SEMANTIC_DEFAULTS.topK,
      minSimilarity: settings.EMBEDDING_MIN_SIMILARITY,
      rrfK: RRF_K,
      fuseBelow: settings.EMBEDDING_FUSE_BELOW,
    },
    queryTimeoutMs: settings.EMBEDDING_TIMEOUT_MS,
    async embedSections(texts) {
      const { embeddings } = await embedMany({ model, values: texts, abortSignal: AbortSignal.timeout(SECTION_BATCH_TIMEOUT_MS) });
      return checkedVectors(embeddings, texts.length);
    },
    async embedQuery(text, signal) {
      const timeout = AbortSignal.timeout(settings.EMBEDDING_TIMEOUT_MS);
      try {
        const { embedding } = await embed({ model, value: text, maxRetries: 0, abortSignal: signal ? AbortSignal.any([timeout, signal]) : timeout });
        return checkedVectors([embedding], 1)[0]!;
      } catch (error) {
        if (timeout.aborted) throw new EmbeddingTimeoutError(`the embedding model did not answer within ${settings.EMBEDDING_TIMEOUT_MS} ms`);
        throw error;
      }
    },
  };
}

export class EmbeddingTimeoutError extends Error {
  override readonly name = 'EmbeddingTimeoutError';
}

/** An answer the stage cannot use (wrong count, empty or non-finite vectors, dimensions that disagree). */
export class EmbeddingResponseError extends Error {
  override readonly name = 'EmbeddingResponseError';
}

function checkedVectors(vectors: number[][], expected: number): number[][] {
  if (vectors.length !== expected) throw new EmbeddingResponseError(`${vectors.length} vectors for ${expected} texts`);
  const dimensions = vectors[0]?.length ?? 0;
  for (const v of vectors) {
    if (v.length === 0 || v.length !== dimensions) throw new EmbeddingResponseError(`vectors of ${v.length} and ${dimensions} dimensions in one answer`);
    if (!v.every(Number.isFinite)) throw new EmbeddingResponseError('a vector with a value that is not a finite number');
  }
  return vectors;
}

/**
 * Our errors are told apart by name, not `instanceof`: the embedder lives in the KB holder,
 * which Next.js may have loaded from another bundle than the caller's (one class per bundle).
 * The SDK's own `isInstance` checks a global marker and works across bundles.
 */
const named = (error: unknown, name: string): error is Error => error instanceof Error && error.name === name;

/** One sentence for the trace and the log: why an embedding call failed. */
export function describeEmbeddingError(error: unknown): string {
  if (RetryError.isInstance(error)) return `${describeEmbeddingError(error.lastError)} (${error.errors.length} attempts)`;
  if (named(error, 'EmbeddingTimeoutError')) return error.message;
  if (named(error, 'EmbeddingResponseError')) return `the embedding model's answer was not usable: ${error.message}`;
  if (InvalidResponseDataError.isInstance(error) || TypeValidationError.isInstance(error) || JSONParseError.isInstance(error)) {
    return `the embedding model's answer was not usable: ${error.message.slice(0, 200)}`;
  }
  if (APICallError.isInstance(error)) {
    return error.statusCode === undefined
      ? `the embedding model could not be reached at ${error.url}: ${error.message}`
      : `the embedding model answered HTTP ${error.statusCode}: ${error.message}`;
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `the embedding call failed: ${message}`;
}
