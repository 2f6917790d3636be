import { formatNumber } from '@/lib/format';

/** Stacked horizontal bar of token parts against a total (the budget), with an optional legend. */

export interface TokenPart {
  label: string;
  tokens: number;
  /** Tailwind background class, e.g. "bg-indigo-500". */
  color: string;
}

export const SPLIT_COLORS = {
  instructions: 'bg-slate-400',
  pinned: 'bg-indigo-500',
  scored: 'bg-emerald-500',
  floor: 'bg-amber-400',
  history: 'bg-sky-300',
  question: 'bg-rose-400',
} as const;

export function TokenBar({
  parts,
  total,
  size = 'md',
  legend = false,
  label,
}: {
  parts: TokenPart[];
  total: number;
  size?: 'sm' | 'md';
  legend?: boolean;
  label?: string;
}) {
  const used = parts.reduce((sum, p) => sum + p.tokens, 0);
  const scale = Math.max(total, used, 1);
  const title = parts.map((p) => `${p.label} ${formatNumber(p.tokens)}`).join(' · ');
  return (
    <div className="min-w-0">
      <div
        className={`flex w-full overflow-hidden rounded-full bg-slate-100 ring-1 ring-inset ring-slate-200 ${size === 'sm' ? 'h-2' : 'h-3'}`}
        role="img"
        aria-label={`${label ?? 'tokens'}: ${title} of ${formatNumber(total)}`}
        title={`${title} / ${formatNumber(total)}`}
      >
        {parts.map((p) =>
          p.tokens > 0 ? <div key={p.label} className={p.color} style={{ width: `${(100 * p.tokens) / scale}%` }} /> : null,
        )}
      </div>
      {legend && (
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
          {parts.map((p) => (
            <li key={p.label} className="flex items-center gap-1.5">
              <span className={`inline-block h-2.5 w-2.5 rounded-sm ${p.color}`} aria-hidden />
              {p.label} <span className="font-medium tabular-nums text-slate-900">{formatNumber(p.tokens)}</span>
            </li>
          ))}
          <li className="text-slate-500">
            of <span className="tabular-nums">{formatNumber(total)}</span>
          </li>
        </ul>
      )}
    </div>
  );
}

export function splitParts(tokens: { pinned: number; scored: number; floor: number }): TokenPart[] {
  return [
    { label: 'pinned', tokens: tokens.pinned, color: SPLIT_COLORS.pinned },
    { label: 'scored', tokens: tokens.scored, color: SPLIT_COLORS.scored },
    { label: 'floor', tokens: tokens.floor, color: SPLIT_COLORS.floor },
  ];
}
