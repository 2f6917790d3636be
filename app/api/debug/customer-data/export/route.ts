import { exportCustomerData, subjectSchema } from '@/lib/admin/customer-data';
import { guardApi } from '@/lib/debug/access';
import { faultSafe } from '@/lib/debug/faults';
import { formatIssues } from '@/lib/format';
import { json, jsonError } from '@/lib/http';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/debug/customer-data/export?kind=visitor|user|email&value=… — the customer's turns as JSON (a download). Admin. */
export async function GET(request: Request) {
  const { refused, principal } = await guardApi('admin', request);
  if (refused) return refused;
  const params = new URL(request.url).searchParams;
  const subject = subjectSchema.safeParse({ kind: params.get('kind'), value: params.get('value') ?? '' });
  if (!subject.success) return jsonError(400, formatIssues(subject.error.issues, 'query'));
  const app = serverApp();
  return faultSafe(async () =>
    json(await exportCustomerData(app.store(), app.sessionKey(), principal, subject.data), {
      headers: { 'content-disposition': 'attachment; filename="customer-data.json"' },
    }),
  );
}
