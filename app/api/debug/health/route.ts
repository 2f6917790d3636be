import { refuseNonAdmin } from '@/lib/debug/access';
import { faultSafe } from '@/lib/debug/faults';
import { healthReport } from '@/lib/debug/data';
import { handoffHealth } from '@/lib/debug/handoffs';
import { loopHealth } from '@/lib/debug/loop-health';
import { json } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/debug/health — budget, coverage, never-sent and most-sent sections, vocabulary gaps; `loop`: feedback, synonym candidates, the last reload's impact; `handoffs`: deflection, reasons, sections before hand-offs. */
export async function GET() {
  const refused = await refuseNonAdmin();
  if (refused) return refused;
  return faultSafe(async () => json({ ...(await healthReport()), loop: await loopHealth(), handoffs: await handoffHealth() }));
}
