import type { KbTestRun } from '@/lib/kb-test/watch';
import type { CaseResult } from '@/lib/kb-test/types';
import { Card } from './card';

/** /debug/health: the KB's own tests (tests/*.yaml), run on the KB in service — "N of M KB tests fail since the last reload", each failure with why. */
export function KbTestsCard({ run }: { run: KbTestRun }) {
  return (
    <Card
      title="KB tests"
      description="The cases in the knowledge base's tests/ folder, run through the chat's retrieval on every load and reload (npm run kb:test). Advice: a failing test does not take the knowledge base out of service."
      testId="kb-tests"
    >
      <KbTestsBody run={run} />
    </Card>
  );
}

function KbTestsBody({ run }: { run: KbTestRun }) {
  if (run.fileError) {
    return (
      <p className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900 ring-1 ring-inset ring-red-200" data-testid="kb-tests-summary">
        The tests could not be read: <span className="font-mono text-xs">{run.fileError}</span>
      </p>
    );
  }
  if (!run.report) return <p className="text-sm text-red-700" data-testid="kb-tests-summary">The tests could not run: {run.error}</p>;
  const { summary, cases, notices } = run.report;
  if (!summary.cases) {
    return (
      <p className="text-sm text-slate-500" data-testid="kb-tests-summary">
        This knowledge base has no tests yet: add cases in tests/*.yaml (a turn&apos;s &quot;Make a test&quot; gives one).
      </p>
    );
  }
  const failed = cases.filter((c) => c.status === 'failed');
  return (
    <div className="space-y-3 text-sm">
      <p className={failed.length ? 'font-medium text-red-800' : 'text-slate-800'} data-testid="kb-tests-summary">
        {failed.length ? `${failed.length} of ${summary.cases} KB tests fail` : `All ${summary.cases} KB tests pass`} since the last reload{' '}
        <span className="font-normal text-slate-500">
          (the knowledge base loaded at <span className="font-mono text-xs">{run.loadedAt}</span>; {run.report.ms.toFixed(0)} ms)
        </span>
      </p>
      {failed.length > 0 && (
        <ul className="space-y-2">
          {failed.map((c) => (
            <FailedCase key={`${c.file}:${c.line}`} result={c} />
          ))}
        </ul>
      )}
      {notices.map((n) => (
        <p key={n} className="text-xs text-slate-500">
          {n}
        </p>
      ))}
    </div>
  );
}

function FailedCase({ result }: { result: CaseResult }) {
  return (
    <li className="rounded-lg bg-red-50 px-3 py-2 text-red-950 ring-1 ring-inset ring-red-200" data-testid="kb-test-failure">
      <p>
        <strong>{result.name}</strong> <span className="font-mono text-xs text-red-800">{`${result.file}:${result.line}`}</span>
      </p>
      {result.question && (
        <p className="text-xs text-red-900">
          “{result.question}”{result.history.length > 0 && <> after “{result.history.at(-1)}”</>}
        </p>
      )}
      <ul className="mt-1 space-y-1">
        {result.expectations
          .filter((e) => e.status === 'failed')
          .map((e) => (
            <li key={`${e.kind}:${e.line}`}>
              <p className="text-xs font-medium">
                ✗ {e.expected} <span className="font-mono text-red-700">(line {e.line})</span>
              </p>
              <pre className="whitespace-pre-wrap break-words pl-3 font-mono text-[11px] leading-snug text-red-900" data-testid="kb-test-why">
                {e.why.join('\n')}
              </pre>
            </li>
          ))}
      </ul>
    </li>
  );
}
