import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Card } from '@/components/debug/card';
import { DeliveryBadge, HandoffReasonBadge, RetryNowButton } from '@/components/debug/handoff-badges';
import { inspectorPage } from '@/components/debug/inspector-page';
import { roleAllows } from '@/lib/admin/principal';
import { requireAdmin } from '@/lib/debug/access';
import { readHandoff } from '@/lib/debug/views';

export const dynamic = 'force-dynamic';

export default inspectorPage(async function HandoffPage({ params }: { params: Promise<{ id: string }> }) {
  const principal = await requireAdmin(); // before anything is read: see lib/debug/access.ts
  const { id } = await params;
  const h = await readHandoff(principal, decodeURIComponent(id));
  if (!h) notFound();
  const transcript = h.document?.data.transcript ?? [];

  return (
    <div className="space-y-6" data-testid="handoff-detail" data-handoff-id={h.id} data-status={h.status}>
      <div>
        <Link href="/debug/handoffs" className="text-sm text-slate-500 hover:text-slate-900">
          ← All hand-offs
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="text-xl font-semibold text-slate-900">Hand-off from {h.email}</h1>
          <DeliveryBadge status={h.status} />
          <HandoffReasonBadge reason={h.reason} />
          {h.status === 'failed' && roleAllows(principal.role, 'admin') && <RetryNowButton id={h.id} />}
        </div>
        <p className="mt-1 font-mono text-xs text-slate-500">
          {h.createdAt} · {h.id} ·{' '}
          <Link className="hover:underline" href={`/debug?conversation=${encodeURIComponent(h.conversationId)}`}>
            conversation {h.conversationId}
          </Link>
          {h.page && (
            <>
              {' '}· page <span title={h.page.url}>{h.page.title ?? h.page.url}</span>
            </>
          )}
        </p>
      </div>

      <Card title="Deliveries" description="Each channel is retried with backoff until it is sent or its deadline passes; then it is failed and can be retried from here." testId="handoff-deliveries">
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="py-1 pr-4 font-medium">Channel</th>
              <th className="py-1 pr-4 font-medium">Status</th>
              <th className="py-1 pr-4 font-medium">Attempts</th>
              <th className="py-1 pr-4 font-medium">Next attempt / sent</th>
              <th className="py-1 pr-4 font-medium">Retried until</th>
              <th className="py-1 font-medium">Last error</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {h.deliveries.map((d) => (
              <tr key={d.channel} data-testid="handoff-delivery" data-channel={d.channel} data-status={d.status}>
                <td className="py-1.5 pr-4">{d.channel}</td>
                <td className="py-1.5 pr-4">
                  <DeliveryBadge status={d.status} />
                </td>
                <td className="py-1.5 pr-4 tabular-nums">{d.attempts}</td>
                <td className="py-1.5 pr-4 font-mono text-xs">{d.sentAt ?? d.nextAttemptAt ?? '—'}</td>
                <td className="py-1.5 pr-4 font-mono text-xs">{d.retryUntil}</td>
                <td className="py-1.5 text-xs text-red-700">{d.lastError ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>

      <Card title="Attempts" description="Every delivery attempt, oldest first, with the instance that made it." testId="handoff-attempts">
        {h.attempts.length === 0 ? (
          <p className="text-sm text-slate-500">No attempt yet.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th className="py-1 pr-4 font-medium">Started (UTC)</th>
                <th className="py-1 pr-4 font-medium">Channel</th>
                <th className="py-1 pr-4 font-medium">#</th>
                <th className="py-1 pr-4 font-medium">Outcome</th>
                <th className="py-1 pr-4 font-medium">Took</th>
                <th className="py-1 font-medium">Instance</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {h.attempts.map((a) => (
                <tr key={`${a.channel}-${a.attempt}`} data-testid="handoff-attempt" data-channel={a.channel} data-ok={a.ok}>
                  <td className="py-1.5 pr-4 font-mono text-xs">{a.startedAt}</td>
                  <td className="py-1.5 pr-4">{a.channel}</td>
                  <td className="py-1.5 pr-4 tabular-nums">{a.attempt}</td>
                  <td className={`py-1.5 pr-4 text-xs ${a.ok ? 'text-emerald-700' : 'text-red-700'}`}>{a.ok ? 'delivered' : a.error}</td>
                  <td className="py-1.5 pr-4 tabular-nums text-xs">{Math.round(a.durationMs)} ms</td>
                  <td className="py-1.5 font-mono text-xs text-slate-500">{a.instance}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>

      <Card title="What was sent" description="The customer's note and the conversation as they saw it, as the webhook and the email carry them." testId="handoff-sent">
        <div className="space-y-4 text-sm">
          <div>
            <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">Note</h3>
            <p className="mt-1 whitespace-pre-wrap text-slate-800" data-testid="handoff-note">{h.note ?? '(none)'}</p>
          </div>
          <ol className="space-y-2" data-testid="handoff-transcript">
            {transcript.map((entry, i) => (
              <li key={i} className={`rounded-lg px-3 py-2 ${entry.role === 'customer' ? 'bg-brand-50' : 'bg-slate-50'}`}>
                <div className="flex flex-wrap items-baseline justify-between gap-2 text-xs text-slate-500">
                  <span>
                    {entry.role === 'customer' ? 'Customer' : 'Assistant'}
                    {entry.status ? ` (${entry.status})` : ''} · {entry.at}
                  </span>
                  <Link href={`/debug/turns/${encodeURIComponent(entry.turnId)}`} className="font-mono text-brand-700 hover:underline">
                    turn {entry.turnId.slice(0, 8)}
                  </Link>
                </div>
                <p className="mt-1 whitespace-pre-wrap text-slate-800">{entry.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </Card>
    </div>
  );
});
