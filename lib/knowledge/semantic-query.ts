import { describeEmbeddingError } from '../ai/embeddings';
import { embeddingQueryText, fusesAt, scoreQuery, unembeddedCount, type ScoredQuery, type SemanticQuery } from '../retrieval/index';
import type { Knowledge } from './load';

/**
 * The semantic stage's step of a turn: one embedding of the query, under the stage's short
 * timeout (EMBEDDING_TIMEOUT_MS). Never throws and never fails the turn: when the stage is
 * off the answer is undefined (BM25 alone, nothing in the trace); when anything goes wrong
 * (no section has a vector yet, a timeout, an HTTP error, an answer of the wrong shape) it is
 * a fallback with the reason, which the selector records in the explanation, so the turn
 * runs on BM25 alone and /debug says why.
 *
 * What is embedded: the same customer messages the BM25 query is built from (the last two,
 * oldest first, `embeddingQueryText`), so a follow-up keeps its subject in both rankings.
 *
 * Nothing is embedded when BM25 alone is confident (the scored query's confidence at or above
 * the stage's `fuseBelow`, EMBEDDING_FUSE_BELOW): the turn is "skipped" and keeps BM25's ranking.
 * `scored`: the turn's query, already scored (retrieve.ts scores it once per turn).
 */
export async function semanticQueryFor(
  knowledge: Pick<Knowledge, 'embeddings' | 'index'>,
  customerMessages: readonly string[],
  signal?: AbortSignal,
  scored: ScoredQuery = scoreQuery(knowledge.index, customerMessages),
): Promise<SemanticQuery | undefined> {
  const embeddings = knowledge.embeddings;
  if (!embeddings) return undefined;
  const { embedder, vectors } = embeddings;
  const model = embedder.settings.model;
  const { fuseBelow } = embedder.settings;
  if (!fusesAt(scored.confidence, fuseBelow)) return { kind: 'skipped', model, confidence: scored.confidence, fuseBelow };
  if (unembeddedCount(vectors) === vectors.vectors.length && vectors.vectors.length > 0) {
    const reason =
      embeddings.status === 'failed'
        ? `no section has an embedding: ${embeddings.error}`
        : 'the sections are still being embedded (the knowledge base was just loaded)';
    return { kind: 'fallback', model, reason };
  }
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const query = await embedder.embedQuery(embeddingQueryText(scored.query), signal);
    if (query.length !== vectors.dimensions) {
      return { kind: 'fallback', model, reason: `the query embedding has ${query.length} dimensions, the sections' ${vectors.dimensions}`, ms: elapsed() };
    }
    return { kind: 'vector', settings: embedder.settings, sections: vectors, query, ms: elapsed() };
  } catch (error) {
    return { kind: 'fallback', model, reason: describeEmbeddingError(error), ms: elapsed() };
  }
}
