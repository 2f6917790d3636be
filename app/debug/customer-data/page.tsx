import { Card } from '@/components/debug/card';
import { inspectorPage } from '@/components/debug/inspector-page';
import { ActionForm } from '@/components/debug/team/action-form';
import { BUTTON, INPUT } from '@/components/debug/team/styles';
import { requireAdmin } from '@/lib/debug/access';
import { serverApp } from '@/lib/server/server-app';

export const dynamic = 'force-dynamic';

function SubjectFields() {
  return (
    <>
      <label className="flex flex-col text-xs text-slate-500">
        Find by
        <select name="kind" defaultValue="visitor" className={INPUT}>
          <option value="visitor">visitor id</option>
          <option value="user">verified user id</option>
          <option value="email">email address</option>
        </select>
      </label>
      <label className="flex flex-col text-xs text-slate-500">
        Value
        <input name="value" required maxLength={320} className={`${INPUT} w-80`} />
      </label>
    </>
  );
}

/** /debug/customer-data — a customer's data on request: export it, delete it. Admin only; both are in the audit trail. */
export default inspectorPage(async function CustomerDataPage() {
  await requireAdmin('admin', '/debug/customer-data');
  const { TRACE_REDACT } = serverApp().env;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">Customer data</h1>
        <p className="text-sm text-slate-500">
          A customer asks what is kept about them, or to be forgotten. Find them by their visitor id (the support_visitor cookie&apos;s id, or a turn&apos;s visitor on its API), the
          user id your site verified, or an email address they wrote. Personal data in traces: TRACE_REDACT={TRACE_REDACT}.
        </p>
      </div>
      <Card title="Export" description="Their turns — questions, replies, votes, times — as a JSON download (GET /api/debug/customer-data/export).">
        <form method="get" action="/api/debug/customer-data/export" className="flex flex-wrap items-end gap-2">
          <SubjectFields />
          <button type="submit" className={BUTTON}>
            Download
          </button>
        </form>
      </Card>
      <Card
        title="Delete"
        description="Removes their conversations, turns, votes — and what other parts of the store hold of them, such as hand-offs — from this store, for good. The audit trail keeps that it was done, with the counts, never the data."
        testId="delete-customer-data"
      >
        <ActionForm method="POST" action="/api/debug/customer-data/delete" show="deletion" confirm="Delete this customer's data for good?" className="flex flex-wrap items-end gap-2">
          <SubjectFields />
          <button type="submit" className="rounded-lg bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700">
            Delete
          </button>
        </ActionForm>
      </Card>
    </div>
  );
});
