import { guardApi } from '@/lib/debug/access';
import { faultSafe } from '@/lib/debug/faults';
import { readHealth } from '@/lib/debug/views';
import { json } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/debug/health — budget, coverage, never-sent and most-sent sections, vocabulary gaps; `loop`: feedback, synonym candidates, the last reload's impact; `handoffs`: deflection, reasons, sections before hand-offs. */
export async function GET() {
  const { refused, principal } = await guardApi();
  if (refused) return refused;
  return faultSafe(async () => {
    const { report, loop, handoffs } = await readHealth(principal);
    return json({ ...report, loop, handoffs });
  });
}
