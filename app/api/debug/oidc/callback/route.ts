import { cookies } from 'next/headers';
import { audit, auditRefusal } from '@/lib/admin/audit';
import { sessionSetCookie } from '@/lib/admin/auth';
import { decideEntry } from '@/lib/admin/membership';
import { logSafe } from '@/lib/admin/log-safe';
import { CLEAR_PENDING_COOKIE, OIDC_PENDING_COOKIE } from '@/lib/admin/oidc';
import { safeNext, signInUrl } from '@/lib/admin/origin';
import { startSession } from '@/lib/admin/sessions';
import { databaseFault, faultMessage } from '@/lib/debug/faults';
import { viaHttps } from '@/lib/http';
import { clientKey } from '@/lib/rate-limit/client';
import { adminThrottle, serverEnv } from '@/lib/server/registry';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const back = (location: string) =>
  new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', 'set-cookie': CLEAR_PENDING_COOKIE } });

const throttled = (seconds: number) =>
  new Response(`Too many failed sign-ins from this address: try again in ${seconds} second${seconds === 1 ? '' : 's'}.\n`, {
    status: 429,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'retry-after': String(seconds) },
  });

/**
 * GET /api/debug/oidc/callback — where the provider sends the browser back. openid-client
 * checks state, nonce and PKCE and exchanges the code (lib/admin/oidc.ts); the claims decide
 * who may enter and with which role (lib/admin/membership.ts, with the members list); then a
 * session record, its cookie, and an entry in the audit trail — or a refusal, recorded too,
 * and the sign-in page saying so.
 *
 * The answer is a small page that moves on to `next` itself, not a 303: this request came
 * from the provider's site, and a browser does not send a SameSite=Strict cookie on a redirect
 * of a cross-site navigation — it does on the page's own, same-site one.
 *
 * Anyone can send this request, so a callback that does not complete (no sign-in started in
 * this browser, a tampered state, the provider's error) counts against the throttle on wrong
 * admin tokens (lib/admin/throttle.ts): while it says wait, the callback is refused unchecked,
 * 429 with Retry-After. Both kinds are audited in bounded form (lib/admin/failure-digest.ts):
 * a client's first at once, then one row a minute with the counts — and one log line each.
 */
export async function GET(request: Request): Promise<Response> {
  const app = serverApp();
  const source = clientKey(request.headers, serverEnv().TRUST_PROXY).key;
  if (!app.oidc) return back(signInUrl('/debug', 'oidc-off'));
  const throttle = adminThrottle();
  const wait = throttle.retryAfter(source);
  if (wait > 0) {
    await app.oidcFailures.throttled(source);
    return throttled(wait);
  }
  const pending = (await cookies()).get(OIDC_PENDING_COOKIE)?.value;
  let result: Awaited<ReturnType<typeof app.oidc.finish>>;
  try {
    result = await app.oidc.finish(new URL(request.url), pending);
  } catch (error) {
    // By name: the sign-in object lives in the composition root, which another bundle may have built (its own copy of the class).
    if (!(error instanceof Error) || error.name !== 'OidcSignInError') throw error;
    throttle.fail(source);
    await app.oidcFailures.failed(source, error.message);
    return back(signInUrl('/debug', 'oidc-failed'));
  }
  const next = safeNext(result.next);
  try {
    const store = app.store();
    const email = typeof result.claims.email === 'string' ? result.claims.email.toLowerCase() : undefined;
    const entry = decideEntry(result.claims, app.oidc.settings.policy, email ? await store.getMember(email) : undefined);
    if (!entry.ok) {
      await auditRefusal(store, { actor: entry.email ?? 'unknown', via: 'oidc', source }, { action: 'sign-in.failed', detail: { reason: entry.reason } });
      return back(signInUrl(next, 'not-allowed'));
    }
    const started = await startSession(store, app.sessionKey(), { actor: entry.email, role: entry.role, via: 'oidc' });
    await audit(store, { actor: entry.email, role: entry.role, via: 'oidc', source }, { action: 'sign-in', target: started.session.id, detail: { because: entry.because } });
    const target = escapeHtml(next);
    const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    headers.append('set-cookie', sessionSetCookie(started.cookie, viaHttps(request)));
    headers.append('set-cookie', CLEAR_PENDING_COOKIE);
    return new Response(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${target}"><title>Signed in</title></head>` +
        `<body><p data-testid="oidc-signed-in">Signed in as ${escapeHtml(entry.email)} (${entry.role}). <a href="${target}">Continue to the inspector</a>.</p></body></html>`,
      { status: 200, headers },
    );
  } catch (error) {
    console.error(`[debug] OpenID Connect sign-in failed: ${logSafe(faultMessage(databaseFault(error)))}`);
    return back(signInUrl(next, 'unavailable'));
  }
}
