import { renderSectionBlock } from '../context-text';
import { RRF_K } from './fusion';
import type { Section } from '../types';

/**
 * The semantic stage's part of a selection (opt-in; the server turns it on with
 * EMBEDDING_MODEL): the pool's section embeddings, the query's embedding, and the ranking
 * by cosine similarity that is fused with BM25's (fusion.ts, packer.ts). Pure: the vectors
 * come in from whoever called the embedding model (lib/knowledge/embeddings.ts for the
 * sections, lib/knowledge/semantic-query.ts for the query).
 *
 * The semantic list is the `topK` pool sections most similar to the query, at or above
 * `minSimilarity`; sections without an embedding (it failed, or is still being computed)
 * are in BM25's list only. Pinned sections are never embedded or scored.
 */

/** The pool's embeddings: `vectors[doc]` for pool section `doc`, or undefined when it has none. */
export interface SectionVectors {
  model: string;
  dimensions: number;
  vectors: (Float32Array | undefined)[];
  /** Euclidean norm of each vector (0 where there is none), computed once. */
  norms: Float64Array;
}

export interface SemanticSettings {
  /** Model id, as the trace names it. */
  model: string;
  /** Size of the semantic list. */
  topK: number;
  /** Sections less similar than this to the query stay out of the semantic list. */
  minSimilarity: number;
  /** Reciprocal rank fusion's k (fusion.ts). */
  rrfK: number;
  /**
   * Fuse only when BM25's confidence (`lexicalConfidence`, 0–1) is below this: a turn whose
   * words match a section well keeps BM25's ranking, and its query is not embedded. 1: every turn.
   */
  fuseBelow: number;
}

/** What the selector gets for one turn with the stage on: the vectors, or why the turn runs on BM25 alone. */
export type SemanticQuery =
  | { kind: 'vector'; settings: SemanticSettings; sections: SectionVectors; query: readonly number[]; ms: number }
  | { kind: 'fallback'; model: string; reason: string; ms?: number }
  | { kind: 'skipped'; model: string; confidence: number; fuseBelow: number };

/**
 * The stage's settings unless the server's say otherwise (EMBEDDING_MIN_SIMILARITY,
 * EMBEDDING_FUSE_BELOW in lib/env.ts). `topK` is fixed: the semantic list is there to bring in the
 * few sections BM25 ranks low or misses, and 10 is the length the stage was measured with (eval,
 * docs/performance.md); what keeps a vague question from getting ten loose neighbours is the
 * similarity minimum, which depends on the model and stays a setting.
 */
export const SEMANTIC_DEFAULTS = { topK: 10, minSimilarity: 0.3, rrfK: RRF_K, fuseBelow: 0.2 } as const;

/** Does a turn with this BM25 confidence use the semantic stage? Below `fuseBelow`; always when it is 1 (the one rule, for the chat route and the selector). */
export function fusesAt(confidence: number, fuseBelow: number): boolean {
  return fuseBelow >= 1 || confidence < fuseBelow;
}

/** What is embedded of a section: its block exactly as the model would receive it (heading path and text). */
export function embeddingText(section: Section): string {
  return renderSectionBlock(section);
}

/** Vectors and their norms for the pool, from one embedding (or none) per section. */
export function sectionVectors(model: string, vectors: (Float32Array | undefined)[]): SectionVectors {
  const dimensions = vectors.find((v) => v)?.length ?? 0;
  const norms = new Float64Array(vectors.length);
  vectors.forEach((v, doc) => (norms[doc] = v ? Math.sqrt(dot(v, v)) : 0));
  return { model, dimensions, vectors, norms };
}

/** Gives pool section `doc` its vector (one that arrived after the KB was loaded). */
export function setSectionVector(sections: SectionVectors, doc: number, vector: Float32Array): void {
  sections.vectors[doc] = vector;
  sections.norms[doc] = Math.sqrt(dot(vector, vector));
  if (sections.dimensions === 0) sections.dimensions = vector.length;
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** How many pool sections have no embedding. */
export function unembeddedCount(sections: SectionVectors): number {
  let n = 0;
  for (const v of sections.vectors) if (!v) n++;
  return n;
}

export interface SemanticRanking {
  /** The semantic list: pool documents, most similar first (ties in file order). */
  docs: number[];
  /** Cosine similarity of every pool document (NaN where it has no embedding). */
  similarity: Float64Array;
}

/**
 * Cosine similarity of the query to every embedded section, and the top K at or above the
 * minimum. Not the AI SDK's `cosineSimilarity`: that recomputes both norms on every call, and
 * the sections' norms are known (computed once per KB load); the query's query vector is
 * read as float32, as the sections' are stored, so a cached and a fresh embedding rank alike.
 */
export function semanticRanking(sections: SectionVectors, query: readonly number[], settings: Pick<SemanticSettings, 'topK' | 'minSimilarity'>): SemanticRanking {
  const q = Float32Array.from(query);
  const qNorm = Math.sqrt(dot(q, q));
  const similarity = new Float64Array(sections.vectors.length);
  const candidates: number[] = [];
  sections.vectors.forEach((v, doc) => {
    const denominator = qNorm * sections.norms[doc]!;
    similarity[doc] = v ? (denominator === 0 ? 0 : dot(q, v) / denominator) : NaN;
    if (v && similarity[doc]! >= settings.minSimilarity) candidates.push(doc);
  });
  candidates.sort((a, b) => similarity[b]! - similarity[a]! || a - b);
  return { docs: candidates.slice(0, settings.topK), similarity };
}
