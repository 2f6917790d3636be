import { z } from 'zod';
import { expectationKind, fail, pass } from './types';

/** `semantic: fused | skipped` — the semantic stage fused its ranking with BM25's, or BM25 was confident enough to skip it. */
export const semantic = expectationKind({
  key: 'semantic',
  doc: '`fused`: the semantic stage ranked with BM25; `skipped`: BM25 was confident enough (checked only when the stage is on)',
  schema: z.enum(['fused', 'skipped']),
  needs: 'semantic',
  expected: (status) => (status === 'fused' ? 'fuses the semantic stage' : 'skips the semantic stage'),
  check(status, { view }) {
    const stage = view.retrieval.selection.semantic?.stage;
    if (stage?.status === status) return pass;
    if (!stage) return fail('the semantic stage was off');
    if (stage.status === 'skipped') return fail(`the stage was skipped: BM25's confidence ${stage.confidence.toFixed(2)} is at or above its threshold ${stage.fuseBelow}`);
    if (stage.status === 'fallback') return fail(`the stage fell back to BM25 alone: ${stage.reason}`);
    return fail(`the stage fused: ${stage.listed} sections in the semantic list (BM25's confidence was under the threshold)`);
  },
});
