import { guardApi } from '@/lib/debug/access';
import { faultSafe } from '@/lib/debug/faults';
import { json } from '@/lib/http';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/debug/sessions — the live sign-in sessions (who, role, how, since when). Admin. */
export async function GET(request: Request) {
  const { refused } = await guardApi('admin', request);
  if (refused) return refused;
  return faultSafe(async () => json({ sessions: await serverApp().store().listSessions(new Date().toISOString()) }));
}
