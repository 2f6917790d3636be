import { adminLoginPage } from '@/lib/admin/login-page';
import { safeNext } from '@/lib/admin/origin';
import { adminAccess } from '@/lib/debug/access';
import { viaHttps } from '@/lib/http';
import { createNonce, pageCsp } from '@/lib/security/headers.mjs';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const ERRORS: Record<string, (retry: number) => string> = {
  wrong: () => 'Wrong admin token.',
  throttled: (retry) => `Too many wrong admin tokens. Try again in ${retry} second${retry === 1 ? '' : 's'}.`,
  'not-configured': () => 'No ADMIN_TOKEN is configured on this server.',
};

/**
 * GET /debug/sign-in?next=…&error=… — the sign-in page, where a failed sign-in comes back
 * to (a 303 from /api/debug/login): the same styled form with what went wrong, under the
 * pages' CSP (its own nonce: the proxy leaves this path alone), so the next attempt can be
 * posted. Shows no trace or KB content; an admin already signed in goes straight on.
 */
export async function GET(request: Request): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const next = safeNext(params.get('next'));
  const access = await adminAccess();
  if (access.ok) return new Response(null, { status: 303, headers: { location: next, 'cache-control': 'no-store' } });
  const nonce = createNonce();
  const retry = Math.max(1, Number.parseInt(params.get('retry') ?? '1', 10) || 1);
  const error = ERRORS[params.get('error') ?? '']?.(retry);
  const html = adminLoginPage({ notConfigured: access.reason === 'not-configured', error, next, nonce });
  const https = viaHttps(request);
  return new Response(html, {
    status: error ? 401 : 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': pageCsp({ nonce, dev: process.env.NODE_ENV === 'development', https }),
    },
  });
}
