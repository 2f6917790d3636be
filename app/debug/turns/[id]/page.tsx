import Link from 'next/link';
import { notFound } from 'next/navigation';
import { StatusBadge } from '@/components/debug/badges';
import { Card, Stat } from '@/components/debug/card';
import { ContextViewer } from '@/components/debug/context-viewer';
import { ExplanationSections, QueryTerms, SelectionSummary } from '@/components/debug/explanation-view';
import { MakeTest } from '@/components/debug/make-test';
import { ReplyReview } from '@/components/debug/reply-review';
import { TurnOrigin } from '@/components/debug/turn-origin';
import { SPLIT_COLORS, TokenBar } from '@/components/debug/token-bar';
import { testCaseFromTurn } from '@/lib/kb-test/from-turn';
import { requireAdmin } from '@/lib/debug/access';
import { readTurn } from '@/lib/debug/views';
import { addCounts } from '@/lib/privacy/redact';
import { RedactedBadge } from '@/components/debug/redacted-badge';
import { formatNumber as n } from '@/lib/format';
import { isUnrecordedEnding } from '@/lib/store/unrecorded';
import { inspectorPage } from '@/components/debug/inspector-page';

export const dynamic = 'force-dynamic';


export default inspectorPage(async function TurnPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const principal = await requireAdmin(); // before anything is read: see lib/debug/access.ts
  const { id } = await params;
  const { test } = await searchParams;
  const detail = await readTurn(principal, decodeURIComponent(id));
  if (!detail) notFound();
  const { trace, split } = detail;
  const e = trace.explanation;
  const requestParts = [
    { label: 'instructions', tokens: split.instructions, color: SPLIT_COLORS.instructions },
    { label: 'pinned', tokens: split.pinned, color: SPLIT_COLORS.pinned },
    { label: 'scored', tokens: split.scored, color: SPLIT_COLORS.scored },
    { label: 'floor', tokens: split.floor, color: SPLIT_COLORS.floor },
    { label: 'conversation history', tokens: split.history, color: SPLIT_COLORS.history },
    { label: 'question', tokens: split.question, color: SPLIT_COLORS.question },
  ];
  const requestTotal = requestParts.reduce((sum, p) => sum + p.tokens, 0);

  return (
    <div className="space-y-6" data-testid="turn-detail" data-turn-id={trace.id}>
      <div>
        <Link href="/debug" className="text-sm text-slate-500 hover:text-slate-900">
          ← All turns
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="text-xl font-semibold text-slate-900">“{trace.question}”</h1>
          <StatusBadge status={trace.status} />
          <RedactedBadge counts={addCounts(trace.redactions ?? {}, trace.replyRedactions ?? {})} />
        </div>
        <p className="mt-1 font-mono text-xs text-slate-500">
          {trace.createdAt} · turn {trace.id} ·{' '}
          <Link className="hover:underline" href={`/debug?conversation=${encodeURIComponent(trace.conversationId)}`}>
            conversation {trace.conversationId}
          </Link>{' '}
          · {trace.provider} / {trace.modelId}
        </p>
      </div>

      {trace.error && (
        <div className="rounded-xl bg-red-50 px-5 py-3 text-sm text-red-800 ring-1 ring-inset ring-red-200" data-testid="turn-error">
          <strong>{trace.status === 'aborted' ? 'Aborted' : isUnrecordedEnding(trace.error) ? 'Ending not recorded' : 'Model call failed'}:</strong> {trace.error}
        </div>
      )}

      <TurnOrigin trace={trace} />

      <MakeTest yaml={testCaseFromTurn(trace)} initiallyOpen={test !== undefined} />

      <Card title="Query" description="Built from the last two customer messages; assistant messages are never part of it.">
        <QueryTerms explanation={e} />
      </Card>

      <Card title="Token split" description="Knowledge against its budget, then the whole request as sent (o200k_base), with what the provider reported.">
        <div className="space-y-5">
          <SelectionSummary explanation={e} />
          <div>
            <h3 className="mb-2 text-xs font-medium uppercase tracking-wide text-slate-500">Whole request</h3>
            <TokenBar parts={requestParts} total={requestTotal} legend label="request tokens" />
          </div>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
            <Stat label="Selection" value={`${n(trace.selectionUs)} µs`} />
            <Stat label="First token" value={trace.firstTokenMs === undefined ? '—' : `${Math.round(trace.firstTokenMs)} ms`} />
            <Stat label="Total" value={trace.totalMs === undefined ? '—' : `${Math.round(trace.totalMs)} ms`} />
            <Stat label="Input tokens" value={n(trace.usage?.inputTokens)} hint="reported by provider" />
            <Stat label="Output tokens" value={n(trace.usage?.outputTokens)} hint="reported by provider" />
            <Stat label="Finish" value={trace.finishReason ?? '—'} />
          </dl>
        </div>
      </Card>

      <ExplanationSections explanation={e} />

      <Card title="Reply" description={trace.status === 'ok' ? 'As streamed to the customer.' : 'What had streamed when the turn ended.'}>
        <ReplyReview trace={trace} />
      </Card>

      <ContextViewer text={trace.systemPrompt} title="Exact system text sent to the model" />

      <Card title="Customer messages in this conversation" description="Oldest first; the last two built the query.">
        <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
          {trace.customerMessages.map((m, i) => (
            <li key={i}>{m}</li>
          ))}
        </ol>
      </Card>
    </div>
  );
});
