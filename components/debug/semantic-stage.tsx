import type { SectionVerdict, SemanticStage } from '@/lib/retrieval/index';

/** The semantic stage in /debug: how it went for a turn, and each section's place in both rankings. */

/** One line on the stage: fused (with its settings), not needed (BM25 was confident), or why the turn fell back to BM25 alone. */
export function SemanticStageNotice({ stage }: { stage: SemanticStage }) {
  const status: string = stage.status;
  if (status !== 'fused' && status !== 'fallback' && status !== 'skipped') {
    // A status a newer version recorded (lib/retrieval/explain/record/packed.ts keeps it by name).
    return (
      <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-inset ring-slate-200" data-testid="semantic-stage" data-status={status}>
        <strong>Semantic stage: {status}</strong> ({stage.model}) — recorded by a newer version of the app; this one cannot show its details.
      </p>
    );
  }
  if (stage.status === 'fallback') {
    return (
      <p className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-inset ring-red-200" data-testid="semantic-stage" data-status="fallback">
        <strong>Semantic stage fell back to BM25 alone</strong> ({stage.model}): {stage.reason}
        {stage.ms !== undefined && <span className="text-red-600"> · after {Math.round(stage.ms)} ms</span>}
      </p>
    );
  }
  if (stage.status === 'skipped') {
    return (
      <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-inset ring-slate-200" data-testid="semantic-stage" data-status="skipped">
        <strong>Semantic stage not needed</strong> ({stage.model}): BM25 found a confident match (confidence {stage.confidence.toFixed(2)} ≥ {stage.fuseBelow}), so
        this turn kept BM25&apos;s ranking and embedded nothing.
      </p>
    );
  }
  return (
    <p className="rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900 ring-1 ring-inset ring-sky-200" data-testid="semantic-stage" data-status="fused">
      <strong>Semantic stage on</strong> ({stage.model}): BM25&apos;s ranking and the {stage.listed} most similar section(s) (top {stage.topK}, similarity ≥{' '}
      {stage.minSimilarity}) fused by reciprocal rank fusion, k = {stage.rrfK}; query embedded in {Math.round(stage.ms)} ms.
      {stage.unembedded > 0 && <span className="text-amber-800"> {stage.unembedded} section(s) have no embedding and are ranked by BM25 alone.</span>}
    </p>
  );
}

function Rank({ rank }: { rank: number | undefined }) {
  return <span className="inline-block w-7 text-right text-slate-400">{rank === undefined ? '—' : `#${rank}`}</span>;
}

/** BM25 rank of a fused section (its score bar is beside it). */
export function LexicalRank({ v }: { v: SectionVerdict }) {
  return <Rank rank={v.fusion?.lexicalRank} />;
}

/** Semantic rank and cosine similarity of a fused section. */
export function SemanticCell({ v }: { v: SectionVerdict }) {
  if (!v.fusion) return null;
  const { semanticRank, similarity } = v.fusion;
  return (
    <span className="flex items-center gap-1.5 font-mono text-xs tabular-nums" data-testid="semantic-cell">
      <Rank rank={semanticRank} />
      <span className={semanticRank === undefined ? 'text-slate-400' : 'text-sky-700'} title="cosine similarity to the query">
        {similarity === undefined ? 'no embedding' : similarity.toFixed(3)}
      </span>
    </span>
  );
}
