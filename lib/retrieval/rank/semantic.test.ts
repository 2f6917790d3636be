import { describe, expect, it } from 'vitest';
import { demoKnowledge } from '@/app/api/chat/testing';
import { stubEmbedding } from '../../testing/stub-embeddings.mjs';
import { explain } from '../explain/explain';
import { SEMANTIC_DEFAULTS, type SectionVectors, type SemanticQuery, type SemanticSettings, embeddingText, sectionVectors, semanticRanking } from './semantic';
import type { RetrievalIndex } from '../select/build-index';
import { lexicalConfidence } from '../select/score';
import { select } from '../select/select';

/** The stub model's vectors (lib/testing/stub-embeddings.mjs) for the pool, some left out with `missing`. */
function stubVectors(index: RetrievalIndex, missing: (doc: number) => boolean = () => false): SectionVectors {
  return sectionVectors('stub-embed', index.pool.map((s, doc) => (missing(doc) ? undefined : Float32Array.from(stubEmbedding(embeddingText(s))))));
}

/** A turn's query vector; the stage fuses every turn (fuseBelow 1) unless `settings` say otherwise. */
function vectorQuery(sections: SectionVectors, text: string, settings: Partial<SemanticSettings> = {}): SemanticQuery {
  return { kind: 'vector', settings: { model: 'stub-embed', ...SEMANTIC_DEFAULTS, fuseBelow: 1, ...settings }, sections, query: stubEmbedding(text), ms: 3 };
}

const UPLOAD_LIMITS = 'product/uploading-videos.md#upload-size-and-duration-limits';
const PARAPHRASE = 'how heavy can my stuff be?';

describe('semantic ranking', () => {
  it('ranks by cosine similarity, keeps the top K at or above the minimum, and skips sections without an embedding', () => {
    const sections = sectionVectors('m', [Float32Array.of(1, 0), Float32Array.of(1, 1), undefined, Float32Array.of(0, 1), Float32Array.of(2, 0)]);
    const ranking = semanticRanking(sections, [1, 0], { topK: 2, minSimilarity: 0.5 });
    expect(ranking.docs).toEqual([0, 4]); // both similarity 1, file order; then doc 1 (0.707) is cut by topK
    expect(ranking.similarity[1]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(ranking.similarity[2]).toBeNaN();
    expect(semanticRanking(sections, [1, 0], { topK: 10, minSimilarity: 0.5 }).docs).toEqual([0, 4, 1]); // doc 3: similarity 0
  });
});

describe('the semantic stage in a selection (demo KB, stub embeddings)', () => {
  const { index } = demoKnowledge();
  const vectors = stubVectors(index);

  it('sends the section a paraphrase with no word in common means, which BM25 alone does not', () => {
    const lexical = explain(select(index, [PARAPHRASE]));
    expect(lexical.sentIds).not.toContain(UPLOAD_LIMITS);
    expect(lexical.semantic).toBeUndefined();

    const fused = explain(select(index, [PARAPHRASE], vectorQuery(vectors, PARAPHRASE)));
    expect(fused.sentIds).toContain(UPLOAD_LIMITS);
    const verdict = fused.sections.find((v) => v.id === UPLOAD_LIMITS)!;
    expect(verdict).toMatchObject({ reason: 'scored', score: 0, matches: [], fusion: { semanticRank: expect.any(Number), similarity: expect.any(Number) } });
    expect(verdict.fusion!.lexicalRank).toBeUndefined();
    expect(fused.semantic).toEqual({ status: 'fused', model: 'stub-embed', rrfK: 60, topK: 10, minSimilarity: 0.3, listed: expect.any(Number), unembedded: 0, ms: 3 });
  });

  it('lists matched sections in fused order with each one’s ranks in both lists; pinned sections are never ranked', () => {
    const question = 'can I get a refund for my annual plan?';
    const e = explain(select(index, [question], vectorQuery(vectors, question)));
    const matched = e.sections.filter((v) => v.rank !== undefined);
    expect(matched.map((v) => v.rank)).toEqual(matched.map((_, i) => i + 1));
    expect(matched.every((v) => v.fusion && (v.fusion.lexicalRank !== undefined || v.fusion.semanticRank !== undefined))).toBe(true);
    expect(matched.some((v) => v.fusion!.lexicalRank !== undefined && v.fusion!.semanticRank !== undefined)).toBe(true);
    expect(e.sections.filter((v) => v.pinned).every((v) => v.fusion === undefined && v.rank === undefined && v.reason === 'pinned')).toBe(true);
    // BM25 ranks are BM25's own: the same as without the stage.
    const lexical = explain(select(index, [question]));
    for (const v of matched.filter((m) => m.fusion!.lexicalRank !== undefined)) {
      expect(lexical.sections.find((l) => l.id === v.id)?.rank).toBe(v.fusion!.lexicalRank);
      expect(lexical.sections.find((l) => l.id === v.id)?.score).toBe(v.score);
    }
  });

  it('packs as before: pinned first, sent in fused order within the budget, the floor only from sections in neither list', () => {
    for (const question of ['hi, can you help me?', 'zzqx wibble', PARAPHRASE, 'my vidoe keeps bufering', 'what does the pro plan cost?']) {
      const e = explain(select(index, [question], vectorQuery(vectors, question)));
      expect(e.sentIds.slice(0, index.pinned.length)).toEqual(index.pinned.map((s) => s.id));
      expect(e.tokens.total).toBeLessThanOrEqual(e.budget);
      const scored = e.sections.filter((v) => v.reason === 'scored');
      expect(e.sentIds.slice(index.pinned.length, index.pinned.length + scored.length)).toEqual(scored.map((v) => v.id));
      if (e.floorUsed) expect(e.tokens.scored).toBeLessThan(e.config.floor);
      expect(e.sections.filter((v) => v.reason === 'floor').every((v) => v.fusion === undefined)).toBe(true);
    }
  });

  it('a query with no word the stub knows falls to the floor, as without the stage', () => {
    const e = explain(select(index, ['zzqx wibble'], vectorQuery(vectors, 'zzqx wibble')));
    expect(e.counts.matched).toBe(0);
    expect(e.floorUsed).toBe(true);
    expect(e.sentIds).toEqual(explain(select(index, ['zzqx wibble'])).sentIds);
  });

  it('ranks sections without an embedding by BM25 alone, and counts them', () => {
    const partial = stubVectors(index, (doc) => index.pool[doc]!.id === UPLOAD_LIMITS);
    const e = explain(select(index, [PARAPHRASE], vectorQuery(partial, PARAPHRASE)));
    expect(e.sentIds).not.toContain(UPLOAD_LIMITS);
    expect(e.semantic).toMatchObject({ status: 'fused', unembedded: 1 });
  });

  it('a fallback turn is BM25 alone, with the reason in the explanation', () => {
    const e = explain(select(index, [PARAPHRASE], { kind: 'fallback', model: 'stub-embed', reason: 'the embedding model did not answer within 1500 ms', ms: 1500 }));
    const lexical = explain(select(index, [PARAPHRASE]));
    expect({ ...e, semantic: undefined }).toEqual({ ...lexical, semantic: undefined });
    expect(e.semantic).toEqual({ status: 'fallback', model: 'stub-embed', reason: 'the embedding model did not answer within 1500 ms', ms: 1500 });
  });
});

describe('BM25 confidence decides whether the stage fuses (fuseBelow)', () => {
  const { index } = demoKnowledge();
  const vectors = stubVectors(index);

  it('is 0 with no KB word, high for a question a section answers in its words, and within 0–1', () => {
    expect(lexicalConfidence(index, ['hi, can you help me?'])).toBe(0);
    expect(lexicalConfidence(index, ['can I get a refund?'])).toBeGreaterThan(0.8);
    for (const q of ['how heavy can my stuff be?', 'my vidoe keeps bufering', 'refund annual plan pro-rated invoice']) {
      const c = lexicalConfidence(index, [q]);
      expect(c).toBeGreaterThanOrEqual(0);
      expect(c).toBeLessThanOrEqual(1);
    }
  });

  it('keeps BM25’s ranking when it is at or above fuseBelow, and fuses below it', () => {
    const confident = explain(select(index, ['can I get a refund?'], vectorQuery(vectors, 'can I get a refund?', { fuseBelow: 0.5 })));
    expect(confident.semantic).toEqual({ status: 'skipped', model: 'stub-embed', confidence: lexicalConfidence(index, ['can I get a refund?']), fuseBelow: 0.5 });
    expect(confident.sentIds).toEqual(explain(select(index, ['can I get a refund?'])).sentIds);
    expect(confident.sections.every((v) => v.fusion === undefined)).toBe(true);
    const thin = explain(select(index, [PARAPHRASE], vectorQuery(vectors, PARAPHRASE, { fuseBelow: 0.5 })));
    expect(thin.semantic).toMatchObject({ status: 'fused' });
    expect(thin.sentIds).toContain(UPLOAD_LIMITS);
  });
});
