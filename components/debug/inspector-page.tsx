import { unstable_rethrow } from 'next/navigation';
import type { ReactNode } from 'react';
import { faultTitle, inspectorFault, type InspectorFault } from '@/lib/debug/faults';

/**
 * Every /debug page is wrapped in inspectorPage(): when the database is unreachable or no
 * knowledge base is loaded, the page shows that, with the reason, in the inspector's look
 * (inside its layout, under the pages' CSP) instead of Next.js's bare error page. The page
 * itself still calls the guard first (app/debug/guard.test.ts). notFound() and redirect()
 * pass through; any other error is a bug and is thrown on.
 *
 * The page answers 200: a Next.js page can set no other status than 404, 401, 403 or a
 * redirect. /api/health and the inspector's APIs answer 503.
 */
export function inspectorPage<Props extends unknown[]>(page: (...props: Props) => Promise<ReactNode>): (...props: Props) => Promise<ReactNode> {
  return async function InspectorPage(...props: Props): Promise<ReactNode> {
    try {
      return await page(...props);
    } catch (error) {
      unstable_rethrow(error);
      const fault = await inspectorFault(error);
      if (!fault) throw error;
      return <FaultPanel fault={fault} />;
    }
  };
}

const HELP: Record<InspectorFault['kind'], string> = {
  database:
    'The inspector reads every turn and the session of whoever signs in from it. Nothing is shown until it answers again; reload this page then. The chat answers 503 meanwhile, and so does /api/health.',
  knowledge:
    'The inspector cannot explain selections without one. Fix what the loader names above (a file and line, or the folder): the server checks the knowledge base again when its files change, and this page works on the next reload. The chat answers 503 meanwhile.',
};

/** The fault, in the inspector's look: what is wrong, the reason, what to do. */
export function FaultPanel({ fault }: { fault: InspectorFault }) {
  return (
    <section className="rounded-xl border border-red-200 bg-white shadow-sm" data-testid="inspector-fault" data-fault={fault.kind} role="alert">
      <header className="border-b border-red-100 bg-red-50 px-5 py-3">
        <h1 className="text-base font-semibold text-red-900">{faultTitle(fault)}</h1>
      </header>
      <div className="space-y-3 px-5 py-4">
        <p className="break-words rounded-lg bg-slate-50 px-3 py-2 font-mono text-sm text-slate-800 ring-1 ring-inset ring-slate-200" data-testid="inspector-fault-reason">
          {fault.reason}
        </p>
        <p className="text-sm text-slate-600">{HELP[fault.kind]}</p>
      </div>
    </section>
  );
}

/** The same fault as one line, for a page that still works without what is missing (the turn list without a KB). */
export function FaultNotice({ fault, consequence }: { fault: InspectorFault; consequence: string }) {
  return (
    <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-inset ring-amber-200" data-testid="inspector-fault-notice" data-fault={fault.kind}>
      <strong>{faultTitle(fault)}</strong>: <span className="font-mono">{fault.reason}</span>. {consequence}
    </p>
  );
}
