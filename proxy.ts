import { NextResponse, type NextRequest } from 'next/server';
import { ADMIN_COOKIE, adminSettings, checkAdminAccess } from './lib/admin/auth';
import { adminLoginPage } from './lib/admin/login-page';

/**
 * Runs before every matched request.
 * - /debug and /api/debug/*: admin only. Without a valid credential a page gets a 401
 *   sign-in page and an API a 401 JSON error — never a byte of trace or KB content.
 *   (Pages and handlers check again themselves: the proxy is the first gate, not the only one.)
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname === '/api/debug/login' || pathname === '/api/debug/logout') return NextResponse.next();

  const access = checkAdminAccess(
    { authorization: request.headers.get('authorization'), sessionCookie: request.cookies.get(ADMIN_COOKIE)?.value },
    adminSettings(),
  );
  if (access.ok) return NextResponse.next();

  const message =
    access.reason === 'not-configured'
      ? 'The inspector is locked: set ADMIN_TOKEN on the server to enable it.'
      : access.reason === 'invalid'
        ? 'Invalid admin credential.'
        : 'Admin credential required: sign in at /debug, or send Authorization: Bearer <ADMIN_TOKEN>.';
  if (pathname.startsWith('/api/')) {
    return NextResponse.json({ error: message }, { status: 401, headers: { 'cache-control': 'no-store' } });
  }
  const html = adminLoginPage({
    notConfigured: access.reason === 'not-configured',
    error: access.reason === 'invalid' ? 'That session is no longer valid. Sign in again.' : undefined,
    next: pathname + request.nextUrl.search,
  });
  return new NextResponse(html, {
    status: 401,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

export const config = {
  matcher: ['/debug', '/debug/:path*', '/api/debug/:path*'],
};
