import { describe, expect, it, vi } from 'vitest';
import { demoKnowledge } from '@/app/api/chat/testing';
import * as bm25 from '../retrieval/rank/bm25';
import { explain, select } from '../retrieval/index';
import { testEmbedder } from '../testing/embeddings';
import { SectionEmbedder } from './embeddings';
import type { Knowledge } from './load';
import { retrieveForTurn } from './retrieve';

// Every scoring of a query goes through scoreInto: counted here.
vi.mock('../retrieval/rank/bm25', async (importOriginal) => {
  const real = await importOriginal<typeof import('../retrieval/rank/bm25')>();
  return { ...real, scoreInto: vi.fn(real.scoreInto) };
});

const quiet = { info: () => {}, error: () => {} };

/** The demo KB with the semantic stage on (the test model's vectors), fusing below `fuseBelow`. */
async function withSemanticStage(fuseBelow: number) {
  const { embedder, state } = testEmbedder(200, fuseBelow);
  const knowledge: Knowledge = { ...demoKnowledge() };
  knowledge.embeddings = new SectionEmbedder(embedder, quiet).attach(knowledge.index);
  await knowledge.embeddings.done;
  return { knowledge, state };
}

describe('retrieveForTurn', () => {
  it('with the semantic stage on, scores the query once and embeds it once when the turn fuses', async () => {
    const { knowledge, state } = await withSemanticStage(1);
    const scored = vi.mocked(bm25.scoreInto);
    scored.mockClear();
    const calls = state.calls;
    const turn = await retrieveForTurn(knowledge, ['how heavy can my stuff be?']);
    expect(scored).toHaveBeenCalledTimes(1);
    expect(state.calls).toBe(calls + 1);
    expect(turn.explanation.semantic).toMatchObject({ status: 'fused' });
  });

  it('scores once and embeds nothing when BM25 is confident', async () => {
    const { knowledge, state } = await withSemanticStage(0.5);
    const scored = vi.mocked(bm25.scoreInto);
    scored.mockClear();
    const calls = state.calls;
    const turn = await retrieveForTurn(knowledge, ['can I get a refund?']);
    expect(scored).toHaveBeenCalledTimes(1);
    expect(state.calls).toBe(calls);
    expect(turn.explanation.semantic).toMatchObject({ status: 'skipped', fuseBelow: 0.5 });
  });

  it('sends what the selector sends, with the prompt, the sources and the time it took', async () => {
    const knowledge = demoKnowledge();
    const turn = await retrieveForTurn(knowledge, ['how do I start a live stream?', 'and how long is the delay?']);
    expect(turn.explanation).toEqual(explain(select(knowledge.index, ['how do I start a live stream?', 'and how long is the delay?'])));
    expect(turn.systemPrompt).toContain(turn.selection.context.slice(knowledge.index.pinnedContext.length).trimEnd());
    expect(turn.sources.map((s) => s.page)).toContain('product/video-streaming.md');
    expect(turn.selectionUs).toBeGreaterThan(0);
  });
});
