import { guardApi } from '@/lib/debug/access';
import { readTurn } from '@/lib/debug/views';
import { faultSafe } from '@/lib/debug/faults';
import { json, jsonError } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/debug/turns/:id — the whole trace of one turn, with the request's token split. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { refused, principal } = await guardApi();
  if (refused) return refused;
  const { id } = await params;
  return faultSafe(async () => {
    const detail = await readTurn(principal, id);
    return detail ? json(detail) : jsonError(404, `no turn with id "${id}"`);
  });
}
