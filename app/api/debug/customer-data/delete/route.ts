import { deleteCustomerData, subjectSchema } from '@/lib/admin/customer-data';
import { guardApi } from '@/lib/debug/access';
import { adminJsonBody } from '@/lib/debug/admin-api';
import { faultSafe } from '@/lib/debug/faults';
import { json } from '@/lib/http';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * POST /api/debug/customer-data/delete {"kind": "visitor" | "user" | "email", "value"} — deletes the customer's conversations, turns,
 * votes (and what other ports hold), purges them from the store's files, and drops their questions from this process's memory
 * (the last KB reload's report); the counts. Admin.
 */
export async function POST(request: Request) {
  const { refused, principal } = await guardApi('admin', request);
  if (refused) return refused;
  const body = await adminJsonBody(request, subjectSchema);
  if (!body.ok) return body.response;
  const app = serverApp();
  return faultSafe(async () => {
    const erased = await deleteCustomerData(app.store(), app.sessionKey(), principal, body.data);
    await app.reloadImpact.prune();
    return json(erased);
  });
}
