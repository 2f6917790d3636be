import type { LoopHealth } from '@/lib/debug/loop-health';
import { shareChange } from '@/lib/kb-impact/impact';
import { formatPercent as pct } from '@/lib/format';
import { Card } from './card';

/** /debug/health: what the last reload of an edited KB changed for recent questions (npm run kb:impact's report). */
export function ReloadImpactCard({ reload }: Pick<LoopHealth, 'reload'>) {
  return (
    <Card
      title="Since the last reload"
      description="When the server reloads an edited knowledge base, the newest recorded questions are asked of the KB it replaced and of the new one — the report of npm run kb:impact."
      testId="reload-impact"
    >
      {!reload ? (
        <p className="text-sm text-slate-500">The knowledge base has not been reloaded since the server started.</p>
      ) : !reload.report ? (
        <p className="text-sm text-red-700">Reloaded at {reload.reloadedAt}; the comparison failed: {reload.error}</p>
      ) : (
        <ReloadReport reload={reload} report={reload.report} />
      )}
    </Card>
  );
}

function ReloadReport({ reload, report }: { reload: NonNullable<LoopHealth['reload']>; report: NonNullable<NonNullable<LoopHealth['reload']>['report']> }) {
  const coverage = shareChange(report.coverage);
  const pinned = shareChange(report.pinnedShare);
  return (
    <div className="space-y-3 text-sm">
      <p className="text-slate-800" data-testid="reload-summary">
        Reloaded at <span className="font-mono text-xs">{reload.reloadedAt}</span> (replacing the KB loaded at{' '}
        <span className="font-mono text-xs">{reload.previousLoadedAt}</span>): of {report.questions} recent questions, <strong>{report.changed.length}</strong> would
        now send different sections and <strong>{report.newlyFloor}</strong> newly take the floor. Coverage {coverage ?? `unchanged (${pct(report.coverage.work, 1)})`}; pinned share{' '}
        {pinned ?? `unchanged (${pct(report.pinnedShare.work, 1)})`}.
      </p>
      {report.lostRules.map((rule) => (
        <div key={rule.sectionId} className="rounded-lg bg-red-50 px-3 py-2 text-red-900 ring-1 ring-inset ring-red-200" data-testid="reload-lost-rule">
          <strong>A pinned rule is no longer sent:</strong> {rule.path} <span className="font-mono text-xs">[{rule.sectionId}]</span>, for {rule.questions.length} question
          {rule.questions.length === 1 ? '' : 's'}: {rule.questions.slice(0, 5).map((q) => `“${q}”`).join(', ')}
        </div>
      ))}
      {report.sections.length > 0 && (
        <ul className="space-y-0.5 text-xs">
          {report.sections.slice(0, 12).map((s) => (
            <li key={s.sectionId} className="flex items-baseline justify-between gap-3">
              <span className="truncate text-slate-700">{s.path}</span>
              <span className="shrink-0 font-mono">
                <span className="text-emerald-700">+{s.gained}</span> <span className="text-red-700">−{s.lost}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
