import Link from 'next/link';
import type { SemanticStageState } from '@/lib/debug/data';
import { CONSIDER_SHARE, LOW_SCORE, type SemanticAdvice } from '@/lib/debug/semantic-advice';
import { formatPercent as pct } from '@/lib/format';
import { Card } from './card';

/** /debug/health: how often BM25 found little for recent questions — when the semantic stage is worth a look. */
export function SemanticAdvicePanel({ advice }: { advice: SemanticAdvice & { stage: SemanticStageState | undefined } }) {
  const { stage } = advice;
  return (
    <Card
      title="When to consider the semantic stage"
      description={`Recent turns that hit the floor or whose best BM25 score was under ${LOW_SCORE}. Read the examples: questions the KB answers in other words are what the semantic stage (EMBEDDING_MODEL) can help; vague or off-topic ones it cannot, and synonyms.json is the cheaper fix for single words.`}
      testId="semantic-advice"
    >
      <div className="space-y-3">
        <StageLine stage={stage} />
        {advice.turns === 0 ? (
          <p className="text-sm text-slate-500">No turns recorded yet.</p>
        ) : (
          <>
            <p className="text-sm text-slate-800" data-testid="semantic-advice-share">
              <strong>{pct(advice.share)}</strong> of the last {advice.turns} turns found little by their words: {advice.floor} hit the floor, {advice.low} scored low.{' '}
              {advice.consider ? (
                <span className="font-medium text-amber-800">
                  That is {pct(CONSIDER_SHARE)} or more:{' '}
                  {stage
                    ? 'these are BM25’s own scores — open the examples to see what the semantic list found for them.'
                    : 'worth reading the examples, and considering the semantic stage.'}
                </span>
              ) : (
                <span className="text-slate-500">Under {pct(CONSIDER_SHARE)}: BM25 finds most questions.</span>
              )}
            </p>
            {advice.examples.length > 0 && (
              <ul className="divide-y divide-slate-100 text-sm" data-testid="semantic-advice-examples">
                {advice.examples.map((e) => (
                  <li key={e.id} className="flex items-baseline justify-between gap-3 py-1.5">
                    <Link href={`/debug/turns/${encodeURIComponent(e.id)}`} className="truncate text-slate-800 hover:underline">
                      “{e.question}”
                    </Link>
                    <span className="shrink-0 font-mono text-xs text-slate-500">
                      {e.count > 1 && `${e.count}× · `}
                      {e.why === 'floor' ? 'floor' : `best ${e.topScore.toFixed(2)}`}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </Card>
  );
}

function StageLine({ stage }: { stage: SemanticStageState | undefined }) {
  if (!stage) {
    return (
      <p className="text-xs text-slate-500" data-testid="semantic-stage-state">
        The semantic stage is off (EMBEDDING_MODEL is not set). <code>EMBEDDING_MODEL=local:universal-sentence-encoder</code> turns it on with a model
        that runs inside the server, no key or service needed; eval/README.md says what it gains and costs.
      </p>
    );
  }
  const embedded = stage.sections - stage.unembedded;
  return (
    <p className="text-xs text-slate-600" data-testid="semantic-stage-state" data-status={stage.status}>
      The semantic stage is on ({stage.model}): {embedded} of {stage.sections} sections embedded
      {stage.status === 'embedding' && ', the rest still being embedded'}
      {stage.status === 'failed' && <span className="text-red-700"> — the rest failed: {stage.error}</span>}.
    </p>
  );
}
