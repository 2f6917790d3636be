/** The admin pages' form controls (one look). */
export const INPUT = 'rounded-lg border border-slate-300 bg-white px-2.5 py-1.5 text-sm';
export const BUTTON = 'rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700';
export const DANGER = 'rounded-md px-2 py-1 text-xs font-medium text-red-700 ring-1 ring-inset ring-red-200 hover:bg-red-50';
export const CELL = 'px-3 py-2';
export const when = (iso: string | undefined) => (iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 16) : '—');
