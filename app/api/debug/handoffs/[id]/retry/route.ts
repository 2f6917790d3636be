import { originProblem } from '@/lib/admin/origin';
import { refuseNonAdmin } from '@/lib/debug/access';
import { faultSafe } from '@/lib/debug/faults';
import { retryHandoff } from '@/lib/debug/handoffs';
import { json, jsonError } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * POST /api/debug/handoffs/:id/retry — "retry now": the hand-off's failed deliveries are due at
 * once (and retried for another HANDOFF_RETRY_SECONDS). Only from this site (Origin check, as
 * sign-in and sign-out). A form gets 303 back to the hand-off's page; a script asking for JSON
 * gets `{ retried }` (409 when nothing had failed).
 */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const refused = await refuseNonAdmin();
  if (refused) return refused;
  const crossSite = originProblem(request.headers);
  if (crossSite) return jsonError(403, crossSite);
  const { id } = await params;
  return faultSafe(async () => {
    const retried = await retryHandoff(id);
    if (request.headers.get('accept')?.includes('application/json')) {
      return retried > 0 ? json({ retried }) : jsonError(409, `hand-off "${id}" has no failed delivery to retry`);
    }
    return new Response(null, { status: 303, headers: { location: `/debug/handoffs/${encodeURIComponent(id)}`, 'cache-control': 'no-store' } });
  });
}
