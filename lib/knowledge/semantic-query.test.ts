import { describe, expect, it } from 'vitest';
import { demoKnowledge } from '@/app/api/chat/testing';
import { SectionEmbedder } from './embeddings';
import type { Knowledge } from './load';
import { explain, lexicalConfidence, select } from '../retrieval/index';
import { testEmbedder } from '../testing/embeddings';
import { semanticQueryFor } from './semantic-query';

const quiet = { info: () => {}, error: () => {} };
const UPLOAD_LIMITS = 'product/uploading-videos.md#upload-size-and-duration-limits';

/** The demo KB with its section embeddings done (the test model's vectors). */
async function embeddedDemo() {
  const { embedder, state } = testEmbedder();
  const knowledge: Knowledge = { ...demoKnowledge() };
  knowledge.embeddings = new SectionEmbedder(embedder, quiet).attach(knowledge.index);
  await knowledge.embeddings.done;
  return { knowledge, state };
}

describe('the query embedding of a turn', () => {
  it('is nothing when the stage is off', async () => {
    expect(await semanticQueryFor(demoKnowledge(), ['refund?'])).toBeUndefined();
  });

  it('is one vector per turn, of the last two customer messages, and fuses the paraphrase’s section in', async () => {
    const { knowledge, state } = await embeddedDemo();
    const calls = state.calls;
    const query = await semanticQueryFor(knowledge, ['older message', 'hi', 'how heavy can my stuff be?']);
    expect(state.calls).toBe(calls + 1);
    expect(query).toMatchObject({ kind: 'vector', settings: { model: 'stub-embed', topK: 10, minSimilarity: 0.3, rrfK: 60 } });
    const e = explain(select(knowledge.index, ['how heavy can my stuff be?'], await semanticQueryFor(knowledge, ['how heavy can my stuff be?'])));
    expect(e.sentIds).toContain(UPLOAD_LIMITS);
  });

  it('embeds nothing when BM25 is confident (at or above EMBEDDING_FUSE_BELOW), and fuses when it is not', async () => {
    const { embedder, state } = testEmbedder(200, 0.5);
    const knowledge: Knowledge = { ...demoKnowledge() };
    knowledge.embeddings = new SectionEmbedder(embedder, quiet).attach(knowledge.index);
    await knowledge.embeddings.done;
    const calls = state.calls;
    const confident = await semanticQueryFor(knowledge, ['can I get a refund?']);
    expect(confident).toEqual({ kind: 'skipped', model: 'stub-embed', confidence: lexicalConfidence(knowledge.index, ['can I get a refund?']), fuseBelow: 0.5 });
    expect(state.calls).toBe(calls); // no query embedding
    const e = explain(select(knowledge.index, ['can I get a refund?'], confident));
    expect(e.semantic).toMatchObject({ status: 'skipped', fuseBelow: 0.5 });
    expect(e.sentIds).toEqual(explain(select(knowledge.index, ['can I get a refund?'])).sentIds);
    // a paraphrase whose words find little is embedded and fused
    expect(lexicalConfidence(knowledge.index, ['how heavy can my stuff be?'])).toBeLessThan(0.5);
    expect(await semanticQueryFor(knowledge, ['how heavy can my stuff be?'])).toMatchObject({ kind: 'vector' });
    expect(state.calls).toBe(calls + 1);
  });

  const failures = [
    { mode: 'hang', reason: 'the embedding model did not answer within 200 ms' },
    { mode: '500', reason: /^the embedding model answered HTTP 500: stub: internal server error/ },
    { mode: 'short', reason: "the query embedding has 3 dimensions, the sections' 4096" },
    { mode: 'wrong-count', reason: "the embedding model's answer was not usable: No embedding generated." },
  ] as const;
  for (const { mode, reason } of failures) {
    it(`falls back to BM25 alone when the model ${mode === 'hang' ? 'times out' : `answers ${mode}`}, and says why`, async () => {
      const { knowledge, state } = await embeddedDemo();
      state.mode = mode;
      const started = performance.now();
      const query = await semanticQueryFor(knowledge, ['how heavy can my stuff be?']);
      expect(performance.now() - started).toBeLessThan(1500);
      expect(query).toMatchObject({ kind: 'fallback', model: 'stub-embed', reason, ms: expect.any(Number) });
      const e = explain(select(knowledge.index, ['how heavy can my stuff be?'], query));
      expect(e.semantic).toMatchObject({ status: 'fallback', reason });
      expect(e.sentIds).toEqual(explain(select(knowledge.index, ['how heavy can my stuff be?'])).sentIds);
    });
  }

  it('falls back while no section has its embedding yet, and when none could be embedded', async () => {
    const { embedder, state } = testEmbedder();
    state.mode = '500';
    const knowledge: Knowledge = { ...demoKnowledge() };
    knowledge.embeddings = new SectionEmbedder(embedder, quiet).attach(knowledge.index);
    expect(await semanticQueryFor(knowledge, ['refund?'])).toEqual({
      kind: 'fallback',
      model: 'stub-embed',
      reason: 'the sections are still being embedded (the knowledge base was just loaded)',
    });
    await knowledge.embeddings.done;
    expect(await semanticQueryFor(knowledge, ['refund?'])).toMatchObject({ kind: 'fallback', reason: /^no section has an embedding: the embedding model answered HTTP 500/ });
  });
});
