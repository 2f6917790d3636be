import { NextResponse, type NextRequest } from 'next/server';
import { ADMIN_COOKIE, adminSettings, checkAdminAccess } from './lib/admin/auth';
import { adminLoginPage } from './lib/admin/login-page';
import { createNonce, pageCsp } from './lib/security/headers.mjs';

/**
 * Runs before every page and every /api/debug request.
 * - Pages get a Content-Security-Policy with a fresh nonce (lib/security/headers.mjs). Next.js
 *   reads the nonce from the request's CSP header and puts it on its own scripts, so every
 *   page renders per request (the root layout opts into dynamic rendering).
 * - /debug and /api/debug/*: admin only. Without a valid credential a page gets a 401
 *   sign-in page and an API a 401 JSON error — never a byte of trace or KB content.
 *   (Pages and handlers check again themselves: the proxy is the first gate, not the only one.)
 * The other security headers (nosniff, referrer policy, framing, the API's CSP) come from
 * next.config.mjs, for every response.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const isApi = pathname.startsWith('/api/');
  const nonce = createNonce();
  const csp = pageCsp({
    nonce,
    dev: process.env.NODE_ENV === 'development',
    https: request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https',
  });

  const gated = pathname === '/debug' || pathname.startsWith('/debug/') || pathname.startsWith('/api/debug/');
  const open = pathname === '/api/debug/login' || pathname === '/api/debug/logout';
  if (gated && !open) {
    const access = checkAdminAccess(
      { authorization: request.headers.get('authorization'), sessionCookie: request.cookies.get(ADMIN_COOKIE)?.value },
      adminSettings(),
    );
    if (!access.ok) {
      const message =
        access.reason === 'not-configured'
          ? 'The inspector is locked: set ADMIN_TOKEN on the server to enable it.'
          : access.reason === 'invalid'
            ? 'Invalid admin credential.'
            : 'Admin credential required: sign in at /debug, or send Authorization: Bearer <ADMIN_TOKEN>.';
      if (isApi) {
        return NextResponse.json({ error: message }, { status: 401, headers: { 'cache-control': 'no-store' } });
      }
      const html = adminLoginPage({
        notConfigured: access.reason === 'not-configured',
        error: access.reason === 'invalid' ? 'That session is no longer valid. Sign in again.' : undefined,
        next: pathname + request.nextUrl.search,
        nonce,
      });
      return new NextResponse(html, {
        status: 401,
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': csp },
      });
    }
  }
  if (isApi) return NextResponse.next();

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', csp);
  return response;
}

export const config = {
  matcher: [
    // Every page (not the API, not Next's static files), and the inspector's API.
    '/((?!api/|_next/static|_next/image|favicon.ico).*)',
    '/api/debug/:path*',
  ],
};
