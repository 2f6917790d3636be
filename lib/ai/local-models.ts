/**
 * The names of the embedding models that run in process (local-embeddings.ts), with no import
 * of the models themselves: the env check (lib/env.ts) reads these, and everything that reads
 * the env — the proxy included — would otherwise pull ~30 MB of weights into its file trace.
 */

export const LOCAL_EMBEDDING_PREFIX = 'local:';
/** The EMBEDDING_MODEL values that run in process. */
export const LOCAL_EMBEDDING_MODELS = ['local:universal-sentence-encoder'] as const;

/** True when EMBEDDING_MODEL asks for a model that runs in process (`local:…`). */
export function isLocalEmbeddingModel(name: string): boolean {
  return name.startsWith(LOCAL_EMBEDDING_PREFIX);
}

/** True when `name` is one of LOCAL_EMBEDDING_MODELS. */
export function isKnownLocalEmbeddingModel(name: string): boolean {
  return (LOCAL_EMBEDDING_MODELS as readonly string[]).includes(name);
}
