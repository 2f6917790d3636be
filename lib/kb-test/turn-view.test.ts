import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SectionEmbedder } from '../knowledge/embeddings';
import { retrieveForTurn, turnKnowledgeOf } from '../knowledge/retrieve';
import { loadKnowledgeBase } from '../retrieval/index';
import { testEmbedder } from '../testing/embeddings';
import { TurnView } from './turn-view';

const kb = loadKnowledgeBase(path.resolve(import.meta.dirname, '../../content'));
const QUESTIONS = [['Can I get a refund?'], ['Can I get a refund?', 'and for annual plans?'], ['my vidoe keeps bufering'], ['how much is the pro plan?'], ['hi']];

describe('TurnView.rankOf', () => {
  it('gives every section the rank the explanation gives it, without building it (BM25 alone, and fused)', async () => {
    const plain = turnKnowledgeOf(kb);
    const fused = turnKnowledgeOf(kb);
    fused.embeddings = new SectionEmbedder(testEmbedder(200, 1).embedder, { info() {}, error() {} }).attach(fused.index);
    await fused.embeddings.done;
    for (const knowledge of [plain, fused]) {
      for (const messages of QUESTIONS) {
        const retrieval = await retrieveForTurn(knowledge, messages);
        const view = new TurnView(retrieval);
        const units = new Map(knowledge.index.sections.map((s) => [s.id, s]));
        const listed = retrieval.explanation.sections;
        expect(listed.map((v) => [v.id, view.rankOf(units.get(v.id)!)])).toEqual(listed.map((v) => [v.id, v.rank]));
      }
    }
    expect((await retrieveForTurn(fused, ['Can I get a refund?'])).selection.semantic?.stage.status).toBe('fused');
  });
});
