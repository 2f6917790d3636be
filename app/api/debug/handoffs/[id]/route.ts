import { guardApi } from '@/lib/debug/access';
import { faultSafe } from '@/lib/debug/faults';
import { readHandoff } from '@/lib/debug/views';
import { json, jsonError } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/debug/handoffs/:id — one hand-off: its deliveries, every attempt, and what was sent. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { refused, principal } = await guardApi();
  if (refused) return refused;
  const { id } = await params;
  return faultSafe(async () => {
    const detail = await readHandoff(principal, id);
    return detail ? json(detail) : jsonError(404, `no hand-off with id "${id}"`);
  });
}
