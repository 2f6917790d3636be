import { adminSettings } from '@/lib/admin/auth';
import { adminLoginPage } from '@/lib/admin/login-page';
import { safeNext } from '@/lib/admin/origin';
import { adminAccess } from '@/lib/debug/access';
import { viaHttps } from '@/lib/http';
import { serverEnv } from '@/lib/server/registry';
import { createNonce, pageCsp } from '@/lib/security/headers.mjs';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * What a failed attempt comes back with (`?error=`) and the status it answers. A Map: the query
 * value is looked up as a key, never as a property (`?error=__proto__` is just unknown).
 */
const ERRORS = new Map<string, { status: number; message: (retry: number) => string }>([
  ['wrong', { status: 401, message: () => 'Wrong admin token.' }],
  ['throttled', { status: 401, message: (retry) => `Too many wrong admin tokens. Try again in ${retry} second${retry === 1 ? '' : 's'}.` }],
  ['not-configured', { status: 401, message: () => 'No ADMIN_TOKEN is configured on this server.' }],
  // Sign-in with the company's provider: refused by the allow-list or the members list, or not completed (both in the audit trail).
  ['not-allowed', { status: 403, message: () => 'That account may not use the inspector. Ask an admin to add you to the members list.' }],
  ['oidc-failed', { status: 401, message: () => 'The sign-in with your company account did not complete. Try again.' }],
  ['oidc-off', { status: 401, message: () => 'Sign-in with a company account is not configured on this server.' }],
  // The database (where sessions are kept) is down: said without its details, this page is open to anyone.
  ['unavailable', { status: 503, message: () => 'The inspector is unavailable right now: its database cannot be reached. Try again in a moment.' }],
  [
    'signed-out-here',
    {
      status: 503,
      message: () =>
        'Signed out in this browser. The database cannot be reached, so other copies of the session could not be ended: sign in and out again once it is back.',
    },
  ],
]);

/**
 * GET /debug/sign-in?next=…&error=… — the sign-in page, where a failed sign-in comes back
 * to (a 303 from /api/debug/login): the same styled form with what went wrong, under the
 * pages' CSP (its own nonce: the proxy leaves this path alone), so the next attempt can be
 * posted. Shows no trace or KB content; an admin already signed in goes straight on. When
 * the database is unreachable it says the inspector is unavailable (503), nothing more.
 */
export async function GET(request: Request): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const next = safeNext(params.get('next'));
  const access = await adminAccess();
  if (access.ok) return new Response(null, { status: 303, headers: { location: next, 'cache-control': 'no-store' } });
  const nonce = createNonce();
  const retry = Math.max(1, Number.parseInt(params.get('retry') ?? '1', 10) || 1);
  const failure = ERRORS.get(access.reason === 'unavailable' ? 'unavailable' : (params.get('error') ?? ''));
  const settings = adminSettings(serverEnv());
  const html = adminLoginPage({ notConfigured: access.reason === 'not-configured', error: failure?.message(retry), next, nonce, token: Boolean(settings.token), oidc: settings.oidc });
  const https = viaHttps(request);
  return new Response(html, {
    status: failure?.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': pageCsp({ nonce, dev: process.env.NODE_ENV === 'development', https }),
    },
  });
}
