import Link from 'next/link';
import { DeliveryBadge, HandoffReasonBadge, RetryNowButton } from '@/components/debug/handoff-badges';
import { inspectorPage } from '@/components/debug/inspector-page';
import { requireAdmin } from '@/lib/debug/access';
import { readHandoffList } from '@/lib/debug/views';
import { formatNumber } from '@/lib/format';
import type { DeliveryStatus } from '@/lib/store/ports/handoffs';

export const dynamic = 'force-dynamic';

const PAGE_SIZE = 25;
const STATUSES: readonly DeliveryStatus[] = ['pending', 'sent', 'failed'];

const when = (iso: string) => new Date(iso).toISOString().replace('T', ' ').slice(0, 19);

export default inspectorPage(async function HandoffsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const principal = await requireAdmin(); // before anything is read: see lib/debug/access.ts
  const params = await searchParams;
  const status = STATUSES.find((s) => s === params.status);
  const page = Math.max(1, Number(params.page) || 1);
  const result = await readHandoffList(principal, status, page, PAGE_SIZE);
  const link = (p: number) => `/debug/handoffs?${new URLSearchParams({ ...(status ? { status } : {}), page: String(p) })}`;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold text-slate-900">Hand-offs</h1>
          <p className="text-sm text-slate-500">Conversations customers asked a person to take over, newest first, and how their delivery went.</p>
        </div>
        <p className="text-sm tabular-nums text-slate-500" data-testid="handoffs-total">
          {formatNumber(result.total)} hand-off{result.total === 1 ? '' : 's'}
        </p>
      </div>
      <nav aria-label="Hand-off status" className="flex gap-1 text-sm">
        {[undefined, ...STATUSES].map((s) => (
          <Link
            key={s ?? 'all'}
            href={s ? `/debug/handoffs?status=${s}` : '/debug/handoffs'}
            aria-current={s === status ? 'page' : undefined}
            className={`rounded-md px-3 py-1.5 ${s === status ? 'bg-slate-900 text-white' : 'text-slate-600 hover:bg-slate-100'}`}
          >
            {s ?? 'all'}
          </Link>
        ))}
      </nav>
      {result.handoffs.length === 0 ? (
        <p className="rounded-xl border border-slate-200 bg-white px-5 py-8 text-center text-sm text-slate-500">No hand-offs{status ? ` ${status}` : ''} yet.</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th className="px-4 py-2 font-medium">When (UTC)</th>
                <th className="px-4 py-2 font-medium">Status</th>
                <th className="px-4 py-2 font-medium">Reason</th>
                <th className="px-4 py-2 font-medium">Customer</th>
                <th className="px-4 py-2 font-medium">Conversation</th>
                <th className="px-4 py-2 font-medium">Deliveries</th>
                <th className="px-4 py-2 font-medium" />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {result.handoffs.map((h) => (
                <tr key={h.id} data-testid="handoff-row" data-handoff-id={h.id} data-status={h.status} className="align-top">
                  <td className="whitespace-nowrap px-4 py-2 font-mono text-xs text-slate-600">
                    <Link href={`/debug/handoffs/${encodeURIComponent(h.id)}`} className="hover:underline">
                      {when(h.createdAt)}
                    </Link>
                  </td>
                  <td className="px-4 py-2">
                    <DeliveryBadge status={h.status} />
                  </td>
                  <td className="px-4 py-2">
                    <HandoffReasonBadge reason={h.reason} />
                  </td>
                  <td className="px-4 py-2 text-slate-800">{h.email}</td>
                  <td className="px-4 py-2 font-mono text-xs">
                    <Link href={`/debug?conversation=${encodeURIComponent(h.conversationId)}`} className="text-brand-700 hover:underline">
                      {h.conversationId.slice(0, 12)}
                    </Link>
                  </td>
                  <td className="px-4 py-2 text-xs text-slate-600">
                    {h.deliveries.map((d) => (
                      <div key={d.channel} data-testid="handoff-delivery" data-channel={d.channel} data-status={d.status}>
                        {d.channel}: {d.status}, {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
                        {d.status !== 'sent' && d.lastError && <span className="block max-w-xs truncate text-red-700" title={d.lastError}>{d.lastError}</span>}
                      </div>
                    ))}
                  </td>
                  <td className="px-4 py-2">{h.status === 'failed' && <RetryNowButton id={h.id} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {result.pages > 1 && (
        <div className="flex items-center justify-between text-sm text-slate-500">
          <span>
            Page {result.page} of {result.pages}
          </span>
          <span className="flex gap-2">
            {result.page > 1 && <Link href={link(result.page - 1)} className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50">← Newer</Link>}
            {result.page < result.pages && <Link href={link(result.page + 1)} className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50">Older →</Link>}
          </span>
        </div>
      )}
    </div>
  );
});
