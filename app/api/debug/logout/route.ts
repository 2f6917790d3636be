import { NextResponse } from 'next/server';
import { ADMIN_COOKIE } from '@/lib/admin/auth';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Sign out of /debug. */
export async function POST(request: Request) {
  const response = NextResponse.redirect(new URL('/debug', request.url), 303);
  response.cookies.delete(ADMIN_COOKIE);
  return response;
}
