import 'server-only';
import { cookies, headers } from 'next/headers';
import { NextResponse } from 'next/server';
import { ADMIN_COOKIE, adminSettings, checkAdminAccess, type AdminAccess } from '../admin/auth';

/**
 * The second gate for /debug pages and /api/debug handlers (proxy.ts is the first):
 * each one checks again, so a matcher mistake can never expose a trace.
 */
export async function adminAccess(): Promise<AdminAccess> {
  const [h, c] = await Promise.all([headers(), cookies()]);
  return checkAdminAccess({ authorization: h.get('authorization'), sessionCookie: c.get(ADMIN_COOKIE)?.value }, adminSettings());
}

/** For route handlers: a 401 JSON response when the caller is not an admin, else undefined. */
export async function refuseNonAdmin(): Promise<NextResponse | undefined> {
  const access = await adminAccess();
  if (access.ok) return undefined;
  return NextResponse.json({ error: 'admin credential required' }, { status: 401, headers: { 'cache-control': 'no-store' } });
}
