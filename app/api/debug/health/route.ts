import { NextResponse } from 'next/server';
import { refuseNonAdmin } from '@/lib/debug/access';
import { healthReport } from '@/lib/debug/data';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/debug/health — budget, coverage, never-sent and most-sent sections, vocabulary gaps. */
export async function GET() {
  const refused = await refuseNonAdmin();
  if (refused) return refused;
  return NextResponse.json(healthReport(), { headers: { 'cache-control': 'no-store' } });
}
