import type { ReactNode } from 'react';
import type { NumberMention, TurnTrace } from '@/lib/store/ports/turns';
import { Badge } from './badges';

/**
 * What the support lead's loop adds to a reply in /debug: its text with the numbers the
 * sent knowledge does not state marked, the number check, the sources the customer was shown
 * and the customer's vote. Badges for the turns table too.
 */

const DOWN = 'bg-red-50 text-red-700 ring-red-600/20';
const UP = 'bg-emerald-50 text-emerald-700 ring-emerald-600/20';
const WARN = 'bg-amber-50 text-amber-800 ring-amber-600/20';

export function FeedbackBadge({ vote }: { vote: 'up' | 'down' | null | undefined }) {
  if (!vote) return <span className="text-slate-300">—</span>;
  return <Badge className={`whitespace-nowrap ${vote === 'down' ? DOWN : UP}`}>{vote === 'down' ? 'voted down' : 'voted up'}</Badge>;
}

/** null: not checked (the turn has not ended); 0: every number stated was found in the knowledge sent. */
export function UnverifiedBadge({ count }: { count: number | null | undefined }) {
  if (count === null || count === undefined) return <span className="text-slate-300">—</span>;
  if (count === 0) return <span className="text-xs text-slate-400">none</span>;
  return <Badge className={`whitespace-nowrap ${WARN}`}>{count} unverified</Badge>;
}

/** The reply with each unverified number's text marked. */
function markedReply(reply: string, unverified: readonly NumberMention[]): ReactNode[] {
  const texts = [...new Set(unverified.map((m) => m.text))].sort((a, b) => b.length - a.length);
  if (texts.length === 0) return [reply];
  const pattern = new RegExp(`(${texts.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'g');
  return reply.split(pattern).map((piece, i) =>
    i % 2 === 1 ? (
      <mark key={i} className="rounded bg-amber-200 px-0.5 text-amber-950" title="not stated in the knowledge sent">
        {piece}
      </mark>
    ) : (
      piece
    ),
  );
}

export function ReplyReview({ trace }: { trace: TurnTrace }) {
  const unverified = trace.numbers?.unverified ?? [];
  return (
    <div className="space-y-4">
      <p className="whitespace-pre-wrap text-sm text-slate-800" data-testid="turn-reply">
        {trace.reply ? markedReply(trace.reply, unverified) : <span className="text-slate-400">(no text)</span>}
      </p>
      <dl className="grid gap-3 border-t border-slate-100 pt-3 text-sm md:grid-cols-3">
        <div data-testid="turn-numbers">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Numbers checked</dt>
          <dd className="mt-1 text-slate-800">
            {!trace.numbers ? (
              <span className="text-slate-400">not checked (the turn has not ended, or was recorded before the check)</span>
            ) : unverified.length === 0 ? (
              <span>{trace.numbers.checked === 0 ? 'no prices, percentages, durations or amounts' : `${trace.numbers.checked} stated, all found in the knowledge sent`}</span>
            ) : (
              <span>
                <strong className="text-amber-800">{unverified.length}</strong> of {trace.numbers.checked} not found in the knowledge sent:{' '}
                {unverified.map((m) => (
                  <code key={`${m.kind}:${m.unit}:${m.value}`} className="mr-1 rounded bg-amber-50 px-1 text-amber-900" data-testid="unverified-number">
                    {m.text}
                  </code>
                ))}
              </span>
            )}
          </dd>
        </div>
        <div data-testid="turn-sources">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Sources shown</dt>
          <dd className="mt-1">
            {!trace.sources?.length ? (
              <span className="text-slate-400">none</span>
            ) : (
              <ul className="space-y-0.5">
                {trace.sources.map((s) => (
                  <li key={s.page} className="text-slate-800">
                    {s.title} <span className="font-mono text-xs text-slate-400">{s.url ?? s.page}</span>
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div data-testid="turn-feedback">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Customer feedback</dt>
          <dd className="mt-1 text-slate-800">
            <FeedbackBadge vote={trace.feedback?.vote} />
            {trace.feedback?.reason && <span className="ml-2">“{trace.feedback.reason}”</span>}
          </dd>
        </div>
      </dl>
    </div>
  );
}
