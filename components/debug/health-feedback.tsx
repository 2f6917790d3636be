import Link from 'next/link';
import type { LoopHealth } from '@/lib/debug/loop-health';
import { formatNumber as n, formatPercent as pct } from '@/lib/format';
import { Card } from './card';

/** /debug/health: the down-voted share of replies per day, and the sections most often sent in down-voted turns. */
export function FeedbackHealth({ feedback, downVoted }: Pick<LoopHealth, 'feedback' | 'downVoted'>) {
  const votes = feedback.up + feedback.down;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card
        title="Feedback on replies"
        description="Thumbs up and down from customers, by day (last 30 days). The share is of the replies that got a vote."
        testId="health-feedback"
        actions={
          <Link href="/debug?feedback=down" className="text-xs font-medium text-brand-700 hover:underline">
            Down-voted turns →
          </Link>
        }
      >
        {votes === 0 ? (
          <p className="text-sm text-slate-500">No votes yet.</p>
        ) : (
          <div className="space-y-3">
            <p className="text-sm text-slate-800" data-testid="feedback-summary">
              <strong>{pct(feedback.down / votes)}</strong> down-voted: {n(feedback.down)} of {n(votes)} votes, on {n(feedback.turns)} turns.
            </p>
            <table className="w-full text-left text-xs">
              <thead>
                <tr className="text-slate-500">
                  <th className="py-1 pr-3 font-medium">Day (UTC)</th>
                  <th className="w-1/2 py-1 pr-3 font-medium">Down-voted share</th>
                  <th className="py-1 text-right font-medium">Votes and turns</th>
                </tr>
              </thead>
              <tbody>
                {feedback.days
                  .filter((d) => d.up + d.down > 0)
                  .map((d) => {
                    const share = d.down / (d.up + d.down);
                    return (
                      <tr key={d.day} data-testid="feedback-day">
                        <td className="py-1 pr-3 font-mono text-slate-600">{d.day}</td>
                        <td className="py-1 pr-3">
                          <div className="flex items-center gap-2">
                            <div className="h-2.5 flex-1 overflow-hidden rounded-full bg-emerald-100" aria-hidden="true">
                              <div className="h-full bg-red-500" style={{ width: `${share * 100}%` }} />
                            </div>
                            <span className="w-10 text-right tabular-nums text-slate-700">{pct(share)}</span>
                          </div>
                        </td>
                        <td className="py-1 text-right tabular-nums text-slate-500">
                          {d.down} down · {d.up} up · {d.turns} turns
                        </td>
                      </tr>
                    );
                  })}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Card
        title="Sent in down-voted turns"
        description="Sections that scored for a down-voted reply (its grounding), most often first: the pages to read first. Pinned and floor sections are left out."

        testId="health-down-voted-sections"
      >
        {downVoted.length === 0 ? (
          <p className="text-sm text-slate-500">No down-voted turns yet.</p>
        ) : (
          <ol className="space-y-1 text-sm">
            {downVoted.map((s) => (
              <li key={s.sectionId} className="flex items-baseline justify-between gap-3" data-testid="down-voted-section">
                <Link href={`/debug?section=${encodeURIComponent(s.sectionId)}&state=sent&feedback=down`} className="truncate text-slate-800 hover:underline">
                  {s.path}
                </Link>
                <span className="shrink-0 font-mono text-xs text-slate-500">
                  {s.downVoted}× <span className="text-slate-400">of {s.sent} scored</span>
                </span>
              </li>
            ))}
          </ol>
        )}
      </Card>
    </div>
  );
}
