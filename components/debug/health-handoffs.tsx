import Link from 'next/link';
import type { HandoffHealth } from '@/lib/debug/handoffs';
import { formatNumber as n, formatPercent as pct } from '@/lib/format';
import { Card } from './card';
import { reasonLabel } from './handoff-badges';

/**
 * /debug/health: how many conversations the bot resolved and how many it passed to a person — the
 * deflection rate per day (last 30 days) — hand-offs by reason, and the sections most often sent
 * (because they scored) in the turns just before a hand-off: where the KB lets customers down.
 */
export function HandoffHealthPanel({ health }: { health: HandoffHealth }) {
  const { deflection } = health;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card
        title="Deflection"
        description="Conversations that ended without a hand-off to a person, over all conversations with at least one turn, by the UTC day they began (last 30 days)."
        testId="health-deflection"
        actions={
          <Link href="/debug/handoffs" className="text-xs font-medium text-brand-700 hover:underline">
            Hand-offs →
          </Link>
        }
      >
        {deflection.rate === undefined ? (
          <p className="text-sm text-slate-500">No conversations yet.</p>
        ) : (
          <div className="space-y-3">
            <p className="text-sm text-slate-800" data-testid="deflection-summary">
              <strong data-testid="deflection-rate">{pct(deflection.rate)}</strong> deflected: {n(deflection.deflected)} of {n(deflection.conversations)} conversations
              ended without a person; {n(deflection.handedOff)} handed off.
              {health.channels.length === 0 && ' (No hand-off channel is set up: see docs/handoff.md "Connect a helpdesk".)'}
            </p>
            <table className="w-full text-left text-xs">
              <thead>
                <tr className="text-slate-500">
                  <th className="py-1 pr-3 font-medium">Day (UTC)</th>
                  <th className="w-1/2 py-1 pr-3 font-medium">Deflected</th>
                  <th className="py-1 text-right font-medium">Conversations</th>
                </tr>
              </thead>
              <tbody>
                {deflection.days.map((d) => (
                  <tr key={d.day} data-testid="deflection-day" data-day={d.day}>
                    <td className="py-1 pr-3 font-mono text-slate-600">{d.day}</td>
                    <td className="py-1 pr-3">
                      <div className="flex items-center gap-2">
                        <div className="h-2.5 flex-1 overflow-hidden rounded-full bg-amber-100" aria-hidden="true">
                          <div className="h-full bg-emerald-500" style={{ width: `${d.rate * 100}%` }} />
                        </div>
                        <span className="w-10 text-right tabular-nums text-slate-700">{pct(d.rate)}</span>
                      </div>
                    </td>
                    <td className="py-1 text-right tabular-nums text-slate-500">
                      {d.handedOff} handed off of {d.conversations}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Card
        title="Why customers asked for a person"
        description="Hand-offs of the last 30 days by what offered them, and the sections that scored in the last three turns before a hand-off (pinned and floor sections left out)."
        testId="health-handoff-reasons"
      >
        <div className="space-y-4 text-sm">
          {health.failed > 0 && (
            <p className="rounded-lg bg-red-50 px-3 py-2 text-red-800 ring-1 ring-inset ring-red-200" role="alert" data-testid="handoffs-failed">
              {n(health.failed)} hand-off{health.failed === 1 ? '' : 's'} could not be delivered:{' '}
              <Link href="/debug/handoffs?status=failed" className="font-medium underline">
                retry them
              </Link>
              .
            </p>
          )}
          {health.byReason.length === 0 ? (
            <p className="text-slate-500">No hand-offs yet.</p>
          ) : (
            <ul className="flex flex-wrap gap-3">
              {health.byReason.map((r) => (
                <li key={r.reason} className="rounded-lg bg-slate-50 px-3 py-2" data-testid="handoff-reason" data-reason={r.reason}>
                  <span className="text-lg font-semibold tabular-nums text-slate-900">{n(r.count)}</span> <span className="text-slate-600">{reasonLabel(r.reason)}</span>
                </li>
              ))}
            </ul>
          )}
          {health.beforeHandoff.length > 0 && (
            <div>
              <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">Sent just before a hand-off</h3>
              <ol className="mt-1 space-y-1">
                {health.beforeHandoff.map((s) => (
                  <li key={s.sectionId} className="flex items-baseline justify-between gap-3" data-testid="section-before-handoff" data-section-id={s.sectionId}>
                    <Link href={`/debug?section=${encodeURIComponent(s.sectionId)}&state=sent`} className="truncate text-slate-800 hover:underline">
                      {s.path}
                    </Link>
                    <span className="shrink-0 font-mono text-xs text-slate-500">
                      {s.handoffs} hand-off{s.handoffs === 1 ? '' : 's'}
                    </span>
                  </li>
                ))}
              </ol>
            </div>
          )}
        </div>
      </Card>
    </div>
  );
}
