import { guardApi } from '@/lib/debug/access';
import { faultSafe } from '@/lib/debug/faults';
import { readHandoffList } from '@/lib/debug/views';
import { json } from '@/lib/http';
import type { DeliveryStatus } from '@/lib/store/ports/handoffs';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const STATUSES: readonly DeliveryStatus[] = ['pending', 'sent', 'failed'];

/** GET /api/debug/handoffs?status=&page=&pageSize= — hand-offs newest first, with their deliveries. */
export async function GET(request: Request) {
  const { refused, principal } = await guardApi();
  if (refused) return refused;
  const params = new URL(request.url).searchParams;
  const status = STATUSES.find((s) => s === params.get('status'));
  return faultSafe(async () => json(await readHandoffList(principal, status, Number(params.get('page')) || 1, Number(params.get('pageSize')) || 25)));
}
