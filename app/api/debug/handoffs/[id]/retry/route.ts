import { audit } from '@/lib/admin/audit';
import { originProblem } from '@/lib/admin/origin';
import { guardApi } from '@/lib/debug/access';
import { faultSafe } from '@/lib/debug/faults';
import { retryHandoff } from '@/lib/debug/handoffs';
import { json, jsonError } from '@/lib/http';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * POST /api/debug/handoffs/:id/retry — "retry now": the hand-off's failed deliveries are due at
 * once (and retried for another HANDOFF_RETRY_SECONDS). Only from this site (Origin check, as
 * sign-in and sign-out). A form gets 303 back to the hand-off's page; a script asking for JSON
 * gets `{ retried }` (409 when nothing had failed). Admins only (a viewer gets 403); in the audit trail.
 */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { refused, principal } = await guardApi('admin', request);
  if (refused) return refused;
  const crossSite = originProblem(request.headers);
  if (crossSite) return jsonError(403, crossSite);
  const { id } = await params;
  return faultSafe(async () => {
    const retried = await retryHandoff(id);
    await audit(serverApp().store(), principal, { action: 'handoff.retry', target: id, detail: { retried } });
    if (request.headers.get('accept')?.includes('application/json')) {
      return retried > 0 ? json({ retried }) : jsonError(409, `hand-off "${id}" has no failed delivery to retry`);
    }
    return new Response(null, { status: 303, headers: { location: `/debug/handoffs/${encodeURIComponent(id)}`, 'cache-control': 'no-store' } });
  });
}
