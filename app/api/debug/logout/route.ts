import { NextResponse } from 'next/server';
import { ADMIN_COOKIE } from '@/lib/admin/auth';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Sign out of /debug. */
export async function POST() {
  const response = new NextResponse(null, { status: 303, headers: { location: '/debug' } });
  response.cookies.delete(ADMIN_COOKIE);
  return response;
}
