import Link from 'next/link';
import { inspectorPage } from '@/components/debug/inspector-page';
import { BUTTON, CELL, INPUT, when } from '@/components/debug/team/styles';
import { requireAdmin } from '@/lib/debug/access';
import { serverApp } from '@/lib/server/server-app';

export const dynamic = 'force-dynamic';

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

/** /debug/audit — the audit trail, newest first, by action or actor. Admin only. */
export default inspectorPage(async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireAdmin('admin', '/debug/audit');
  const params = await searchParams;
  const filter = { action: first(params.action), actor: first(params.actor) };
  const page = Number.parseInt(first(params.page) ?? '1', 10) || 1;
  const result = await serverApp().store().listAudit(filter, page, 50);
  const link = (p: number) => `/debug/audit?${new URLSearchParams({ ...(filter.action ? { action: filter.action } : {}), ...(filter.actor ? { actor: filter.actor } : {}), page: String(p) })}`;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">Audit trail</h1>
        <p className="text-sm text-slate-500">
          Sign-ins and failed ones, sign-outs, key, member and session changes, every read of customer data (turns, searches, hand-offs, health), every export and deletion: who, what, when,
          from where. Append-only; kept {serverApp().env.AUDIT_RETENTION_DAYS} days (AUDIT_RETENTION_DAYS).
        </p>
      </div>
      <form method="get" action="/debug/audit" className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col text-xs text-slate-500">
          Action
          <input name="action" defaultValue={filter.action ?? ''} placeholder="turn.view" className={INPUT} />
        </label>
        <label className="flex flex-col text-xs text-slate-500">
          Actor
          <input name="actor" defaultValue={filter.actor ?? ''} placeholder="ann@example.com" className={INPUT} />
        </label>
        <button type="submit" className={BUTTON}>
          Filter
        </button>
      </form>
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
        <table className="w-full text-left text-sm" data-testid="audit-table">
          <thead className="text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className={CELL}>When (UTC)</th>
              <th className={CELL}>Who</th>
              <th className={CELL}>Action</th>
              <th className={CELL}>Target</th>
              <th className={CELL}>Details</th>
              <th className={CELL}>From</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {result.entries.map((e) => (
              <tr key={e.seq} data-testid="audit-row" data-action={e.action} data-outcome={e.outcome} className={e.outcome === 'refused' ? 'bg-red-50/50' : ''}>
                <td className={`${CELL} whitespace-nowrap font-mono text-xs`}>{when(e.at)}</td>
                <td className={CELL}>
                  {e.actor}
                  <span className="text-xs text-slate-500">
                    {' '}
                    {e.role ? `${e.role}, ` : ''}
                    {e.via}
                  </span>
                </td>
                <td className={`${CELL} font-mono text-xs`}>
                  {e.action}
                  {e.outcome === 'refused' ? ' (refused)' : ''}
                </td>
                <td className={`${CELL} font-mono text-xs`}>{e.target ?? ''}</td>
                <td className={`${CELL} text-xs text-slate-600`}>{e.detail ? Object.entries(e.detail).map(([k, v]) => `${k}: ${v}`).join(', ') : ''}</td>
                <td className={`${CELL} font-mono text-xs text-slate-500`}>{e.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-sm text-slate-500">
        {result.total} entr{result.total === 1 ? 'y' : 'ies'} · page {result.page} of {result.pages}
        {result.page > 1 && (
          <Link className="ml-3 hover:underline" href={link(result.page - 1)}>
            ← newer
          </Link>
        )}
        {result.page < result.pages && (
          <Link className="ml-3 hover:underline" href={link(result.page + 1)}>
            older →
          </Link>
        )}
      </p>
    </div>
  );
});
