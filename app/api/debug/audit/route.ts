import { guardApi } from '@/lib/debug/access';
import { faultSafe } from '@/lib/debug/faults';
import { json } from '@/lib/http';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/debug/audit?action=&actor=&page=&pageSize= — the audit trail, newest first. Admin. */
export async function GET(request: Request) {
  const { refused } = await guardApi('admin', request);
  if (refused) return refused;
  const params = new URL(request.url).searchParams;
  const filter = { action: params.get('action') || undefined, actor: params.get('actor') || undefined };
  const page = Number.parseInt(params.get('page') ?? '1', 10) || 1;
  const pageSize = Number.parseInt(params.get('pageSize') ?? '50', 10) || 50;
  return faultSafe(async () => json(await serverApp().store().listAudit(filter, page, pageSize)));
}
