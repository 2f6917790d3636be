import { Card } from '@/components/debug/card';
import { ContextViewer } from '@/components/debug/context-viewer';
import { ExplanationSections, QueryTerms, SelectionSummary } from '@/components/debug/explanation-view';
import { tryQuestion } from '@/lib/debug/data';
import { requireAdmin } from '@/lib/debug/access';
import { formatNumber } from '@/lib/format';
import { inspectorPage } from '@/components/debug/inspector-page';

export const dynamic = 'force-dynamic';

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

export default inspectorPage(async function TryPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireAdmin(); // before anything is read: see lib/debug/access.ts
  const params = await searchParams;
  const question = first(params.q).slice(0, 4000);
  const previous = first(params.previous).slice(0, 4000);
  const result = question.trim() ? await tryQuestion(question, previous) : undefined;
  const inputClass =
    'w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30';

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">Try a question</h1>
        <p className="text-sm text-slate-500">Runs the selector exactly as the chat does, without calling the model — the explain CLI in the browser.</p>
      </div>
      <form method="get" action="/debug/try" className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="try-form">
        <div>
          <label htmlFor="try-q" className="text-sm font-medium text-slate-700">
            Customer question
          </label>
          <input id="try-q" name="q" defaultValue={question} required placeholder="can I get a refund?" className={`${inputClass} mt-1`} data-testid="try-question" />
        </div>
        <div>
          <label htmlFor="try-previous" className="text-sm font-medium text-slate-700">
            Previous customer message <span className="font-normal text-slate-400">(optional)</span>
          </label>
          <input id="try-previous" name="previous" defaultValue={previous} placeholder="do you support live streaming?" className={`${inputClass} mt-1`} data-testid="try-previous" />
        </div>
        <button type="submit" className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700" data-testid="try-submit">
          Explain the selection
        </button>
      </form>
      {result && (
        <div className="space-y-6" data-testid="try-result">
          <Card title="Query" description={`Selection took ${formatNumber(result.selectionUs)} µs.`}>
            <QueryTerms explanation={result.explanation} />
          </Card>
          <Card title="Token split">
            <SelectionSummary explanation={result.explanation} />
          </Card>
          <ExplanationSections explanation={result.explanation} />
          <ContextViewer text={result.explanation.context} title="Knowledge text that would be sent" />
        </div>
      )}
    </div>
  );
});
