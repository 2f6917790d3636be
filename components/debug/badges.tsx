import type { ReactNode } from 'react';

const STATUS_STYLES: Record<string, string> = {
  ok: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  pending: 'bg-slate-50 text-slate-600 ring-slate-500/20',
  error: 'bg-red-50 text-red-700 ring-red-600/20',
  aborted: 'bg-amber-50 text-amber-800 ring-amber-600/20',
};

export function Badge({ children, className }: { children: ReactNode; className: string }) {
  return (
    <span className={`inline-flex items-center rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${className}`}>
      {children}
    </span>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <Badge className={STATUS_STYLES[status] ?? STATUS_STYLES.pending!}>{status}</Badge>;
}

const REASON_STYLES: Record<string, { label: string; className: string }> = {
  pinned: { label: 'pinned', className: 'bg-indigo-50 text-indigo-700 ring-indigo-600/20' },
  scored: { label: 'scored', className: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20' },
  floor: { label: 'floor', className: 'bg-amber-50 text-amber-800 ring-amber-600/20' },
  'over-budget': { label: 'did not fit', className: 'bg-red-50 text-red-700 ring-red-600/20' },
  'no-match': { label: 'no match', className: 'bg-slate-50 text-slate-500 ring-slate-500/20' },
};

/** A reason this version does not know (a trace from a newer one) shows by its stored name. */
export function ReasonBadge({ reason }: { reason: string }) {
  const style = REASON_STYLES[reason] ?? { label: reason, className: 'bg-white text-slate-700 ring-slate-400/40' };
  return <Badge className={style.className}>{style.label}</Badge>;
}

/** Whether /debug knows how to place a verdict of this reason. */
export function knownReason(reason: string): boolean {
  return reason in REASON_STYLES;
}
