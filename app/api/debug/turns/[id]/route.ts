import { guardApi } from '@/lib/debug/access';
import { auditTurnView } from '@/lib/debug/views';
import { faultSafe } from '@/lib/debug/faults';
import { turnDetail } from '@/lib/debug/data';
import { json, jsonError } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/debug/turns/:id — the whole trace of one turn, with the request's token split. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { refused, principal } = await guardApi();
  if (refused) return refused;
  const { id } = await params;
  return faultSafe(async () => {
    const detail = await turnDetail(id);
    if (!detail) return jsonError(404, `no turn with id "${id}"`);
    await auditTurnView(principal, detail.trace);
    return json(detail);
  });
}
