import { NextResponse, type NextRequest } from 'next/server';
import { ADMIN_COOKIE, adminRefusal, adminSettings, checkAdminAccess, refusalMessage } from '@/lib/admin/auth';
import { adminLoginPage } from '@/lib/admin/login-page';
import { helpGate } from '@/lib/help/gate';
import { clientKey } from '@/lib/rate-limit/client';
import { hasMalformedEscape, malformedEscapeResponse } from '@/lib/security/malformed-url';
import { devHostRefusal } from '@/lib/security/dev-host';
import { createNonce, EMBED_PATH, NO_FRAMING_HEADERS, pageCsp } from '@/lib/security/headers.mjs';
import { adminThrottle, serverEnv } from '@/lib/server/registry';

/**
 * Runs before every page and every /api/debug request.
 * - Pages get a Content-Security-Policy with a fresh nonce (lib/security/headers.mjs). Next.js
 *   reads the nonce from the request's CSP header and puts it on its own scripts, so every
 *   page renders per request (the root layout opts into dynamic rendering).
 * - /debug and /api/debug/*: admin only. Without a valid credential a page gets a 401
 *   sign-in page and an API a 401 JSON error — never a byte of trace or KB content.
 *   Wrong tokens are throttled (429 + Retry-After). Pages and handlers check again
 *   themselves (lib/debug/access.ts), with the session generation this gate cannot see:
 *   the proxy is the first gate, not the only one.
 * - /debug/sign-in is open and sets its own CSP (app/debug/sign-in/route.ts).
 * - A path with a malformed percent-escape (`/help/%ff`) is answered 400 here: past this point
 *   Next.js would answer it a bare 500 (lib/security/malformed-url.ts).
 * - Under `next dev`, a Host that is not loopback (nor in DEV_ALLOWED_HOSTS) gets 403
 *   (lib/security/dev-host.ts: DNS rebinding).
 * - /embed (the chat in a frame of a company's site): its CSP lets EMBED_ALLOWED_ORIGINS frame it;
 *   every other page keeps frame-ancestors 'none'.
 * - /help/*: the client's help page limit, 503 while no KB is loaded, 304 for a page the
 *   browser already has, and the page's ETag and Cache-Control (lib/help/gate.ts).
 * The other security headers (nosniff, referrer policy, framing, the API's CSP) come from
 * next.config.mjs, for every response.
 */
export async function proxy(request: NextRequest) {
  const env = serverEnv();
  const misdirected = devHostRefusal(request.headers, undefined, env.DEV_ALLOWED_HOSTS);
  if (misdirected) return misdirected;
  const { pathname } = request.nextUrl;
  const isApi = pathname.startsWith('/api/');
  const nonce = createNonce();
  const embed = pathname === EMBED_PATH;
  const csp = pageCsp({
    nonce,
    dev: process.env.NODE_ENV === 'development',
    https: request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https',
    frameAncestors: embed ? (env.EMBED_ALLOWED_ORIGINS ?? []) : [],
  });
  if (hasMalformedEscape(pathname)) return malformedEscapeResponse(isApi, csp);

  const gated = pathname === '/debug' || pathname.startsWith('/debug/') || pathname.startsWith('/api/debug/');
  const open = pathname === '/api/debug/login' || pathname === '/api/debug/logout' || pathname === '/debug/sign-in';
  if (gated && !open) {
    const access = checkAdminAccess(
      {
        authorization: request.headers.get('authorization'),
        sessionCookie: request.cookies.get(ADMIN_COOKIE)?.value,
        client: clientKey(request.headers, env.TRUST_PROXY).key,
      },
      adminSettings(env),
      { throttle: adminThrottle() },
    );
    if (!access.ok) {
      if (isApi) return adminRefusal(access);
      const html = adminLoginPage({
        notConfigured: access.reason === 'not-configured',
        error:
          access.reason === 'invalid' ? 'That session is no longer valid. Sign in again.' : access.reason === 'throttled' ? refusalMessage(access) : undefined,
        next: pathname + request.nextUrl.search,
        nonce,
      });
      return new NextResponse(html, {
        status: access.reason === 'throttled' ? 429 : 401,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy': csp,
          ...(access.reason === 'throttled' ? { 'retry-after': String(access.retryAfterSeconds) } : {}),
        },
      });
    }
  }
  if (isApi || pathname === '/debug/sign-in') return NextResponse.next();

  let pageHeaders: Record<string, string> = {};
  // next.config.mjs sends X-Frame-Options everywhere but here: while embedding is off, here too.
  if (embed && !env.EMBED_ALLOWED_ORIGINS?.length) pageHeaders = { ...NO_FRAMING_HEADERS };
  if (pathname.startsWith('/help/')) {
    const client = clientKey(request.headers, env.TRUST_PROXY).key;
    const help = await helpGate({ path: pathname, ifNoneMatch: request.headers.get('if-none-match'), client, nonce, csp });
    if ('response' in help) return help.response;
    pageHeaders = help.headers;
  }

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', csp);
  for (const [name, value] of Object.entries(pageHeaders)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    // Every page (not the API, not Next's static files), and the inspector's API.
    '/((?!api/|_next/static|_next/image|favicon.ico).*)',
    '/api/debug/:path*',
    // Only for the 400 on a malformed percent-escape: the one other dynamic API route (GET only, no body to buffer).
    '/api/conversations/:path*',
  ],
};
