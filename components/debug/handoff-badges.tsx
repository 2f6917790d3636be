import type { DeliveryStatus, HandoffReason } from '@/lib/store/ports/handoffs';
import { Badge } from './badges';

const STATUS: Record<DeliveryStatus, { label: string; className: string }> = {
  pending: { label: 'pending', className: 'bg-slate-50 text-slate-600 ring-slate-500/20' },
  sent: { label: 'sent', className: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20' },
  failed: { label: 'failed', className: 'bg-red-50 text-red-700 ring-red-600/20' },
};

export function DeliveryBadge({ status }: { status: DeliveryStatus }) {
  const style = STATUS[status] ?? STATUS.pending;
  return <Badge className={style.className}>{style.label}</Badge>;
}

const REASONS: Record<HandoffReason, string> = { asked: 'asked for a person', 'thin-answers': 'thin answers', 'down-vote': 'down-vote' };

export function reasonLabel(reason: HandoffReason): string {
  return REASONS[reason] ?? reason;
}

export function HandoffReasonBadge({ reason }: { reason: HandoffReason }) {
  return <Badge className="bg-indigo-50 text-indigo-700 ring-indigo-600/20">{reasonLabel(reason)}</Badge>;
}

/** "Retry now" for a hand-off whose delivery failed: a form POST (Origin-checked) back to its page. */
export function RetryNowButton({ id }: { id: string }) {
  return (
    <form method="post" action={`/api/debug/handoffs/${encodeURIComponent(id)}/retry`}>
      <button type="submit" data-testid="handoff-retry" className="rounded-md bg-red-600 px-2.5 py-1 text-xs font-semibold text-white hover:bg-red-700">
        Retry now
      </button>
    </form>
  );
}
