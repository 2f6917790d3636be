import { logSafe } from '@/lib/admin/log-safe';
import { safeNext, signInUrl } from '@/lib/admin/origin';
import { pendingSetCookie } from '@/lib/admin/oidc';
import { errorText } from '@/lib/errors';
import { viaHttps } from '@/lib/http';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * GET /api/debug/oidc/start?next=/debug/… — starts a sign-in with the company's OpenID
 * Connect provider (lib/admin/oidc.ts): a 303 to its authorization endpoint with PKCE, state
 * and nonce, which this browser's pending cookie keeps. Open (it grants nothing by itself).
 */
export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const next = safeNext(url.searchParams.get('next'));
  const oidc = serverApp().oidc;
  if (!oidc) return new Response(null, { status: 303, headers: { location: signInUrl(next, 'oidc-off'), 'cache-control': 'no-store' } });
  try {
    const started = await oidc.start(originOf(request), next);
    return new Response(null, {
      status: 303,
      headers: { location: started.url, 'cache-control': 'no-store', 'set-cookie': pendingSetCookie(started.pending, viaHttps(request)) },
    });
  } catch (error) {
    console.error(`[debug] the OpenID Connect sign-in could not start: ${logSafe(errorText(error))}`);
    return new Response(null, { status: 303, headers: { location: signInUrl(next, 'oidc-failed'), 'cache-control': 'no-store' } });
  }
}

/** This site as the browser named it (Host, and X-Forwarded-Proto behind a TLS terminator): the default redirect URI's origin. */
function originOf(request: Request): string {
  const host = request.headers.get('host') ?? new URL(request.url).host;
  return `${viaHttps(request) ? 'https' : 'http'}://${host}`;
}
