import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { notFound } from 'next/navigation';
import { adminAccess } from '@/lib/debug/access';

export const metadata: Metadata = { title: 'Retrieval inspector', robots: { index: false } };
export const dynamic = 'force-dynamic';

const NAV = [
  { href: '/debug', label: 'Turns' },
  { href: '/debug/try', label: 'Try a question' },
  { href: '/debug/health', label: 'Knowledge base health' },
  { href: '/debug/handoffs', label: 'Hand-offs' },
];
/** The admin's pages (lib/admin: roles, keys, the audit trail, customer data). */
const ADMIN_NAV = [
  { href: '/debug/team', label: 'Team' },
  { href: '/debug/audit', label: 'Audit' },
  { href: '/debug/customer-data', label: 'Customer data' },
];

export default async function DebugLayout({ children }: { children: ReactNode }) {
  // The pages check for themselves (requireAdmin); refusing here too keeps the layout from
  // rendering a page shell around a refused request. A session that cannot be checked (the
  // database is unreachable) gets the shell: its page shows why, and Sign out still works here.
  const access = await adminAccess();
  if (!access.ok && access.reason !== 'unavailable') notFound();
  const principal = access.ok ? access.principal : undefined;
  const via = principal?.via;
  const nav = principal?.role === 'admin' ? [...NAV, ...ADMIN_NAV] : NAV;
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <div className="flex items-center gap-6">
            <Link href="/debug" className="flex items-center gap-2 font-semibold text-slate-900">
              <span className="grid h-7 w-7 place-items-center rounded-md bg-brand-600 text-xs font-bold text-white" aria-hidden>
                Rx
              </span>
              Retrieval inspector
            </Link>
            <nav aria-label="Inspector" className="flex gap-1 text-sm">
              {nav.map((item) => (
                <Link key={item.href} href={item.href} className="rounded-md px-3 py-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900">
                  {item.label}
                </Link>
              ))}
            </nav>
          </div>
          <div className="flex items-center gap-3 text-xs text-slate-500">
            {via === 'development' && (
              <span className="rounded-md bg-amber-50 px-2 py-1 text-amber-800 ring-1 ring-inset ring-amber-200">
                open: development mode without ADMIN_TOKEN
              </span>
            )}
            <Link href="/" className="hover:text-slate-900">
              Site ↗
            </Link>
            {principal && principal.via !== 'development' && (
              <span data-testid="signed-in-as" data-role={principal.role}>
                {principal.actor} · {principal.role}
              </span>
            )}
            {(principal ? principal.sessionId !== undefined : true) && (
              <form method="post" action="/api/debug/logout">
                <button type="submit" className="rounded-md px-2 py-1 hover:bg-slate-100 hover:text-slate-900">
                  Sign out
                </button>
              </form>
            )}
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6">
        {children}
      </main>
    </div>
  );
}
