import { audit, auditRefusal } from '@/lib/admin/audit';
import { adminSettings, checkToken, sessionSetCookie } from '@/lib/admin/auth';
import { originProblem, safeNext, signInUrl } from '@/lib/admin/origin';
import { startSession } from '@/lib/admin/sessions';
import { databaseFault, faultMessage, faultResponse } from '@/lib/debug/faults';
import { bodyFailureResponse, json, jsonError, readTextBody, viaHttps } from '@/lib/http';
import { clientKey } from '@/lib/rate-limit/client';
import { adminThrottle, serverEnv } from '@/lib/server/registry';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Largest sign-in body: a token and a `next` path. */
const MAX_BODY_BYTES = 4096;

const redirect = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', ...headers } });

/**
 * Sign in to /debug with ADMIN_TOKEN: the token from the sign-in form (or JSON `{"token": …}`)
 * → a session record in the store (role admin, lib/admin/sessions.ts), its httpOnly cookie,
 * and a 303 to `next`. Both outcomes are in the audit trail.
 * - Only from this site (Origin check), with a small body read under a byte cap.
 * - Wrong tokens are throttled per address and globally (lib/admin/throttle.ts): while
 *   throttled the token is not even checked (JSON: 429 + Retry-After).
 * - A failed form sign-in goes back (303) to the styled sign-in page, /debug/sign-in,
 *   with the error — served with the pages' CSP, so the next attempt can be posted.
 * - A `next` that is not a plain /debug path (CR/LF, another host…) becomes /debug.
 * - The right token while the database is unreachable: no session can be issued (JSON: 503
 *   with the reason — the caller proved the token; the form: back to the sign-in page, which
 *   says only that the inspector is unavailable).
 */
export async function POST(request: Request): Promise<Response> {
  const crossSite = originProblem(request.headers);
  if (crossSite) return jsonError(403, crossSite);
  const body = await readTextBody(request, MAX_BODY_BYTES, ['application/x-www-form-urlencoded', 'application/json']);
  if (!body.ok) return bodyFailureResponse(body);
  const wantsJson = body.type === 'application/json';
  let token = '';
  let next = '/debug';
  if (wantsJson) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      return jsonError(400, 'send the token as a form field "token" or JSON {"token": "..."}');
    }
    const value = (parsed as { token?: unknown } | null)?.token;
    token = typeof value === 'string' ? value : '';
  } else {
    const form = new URLSearchParams(body.text);
    token = form.get('token') ?? '';
    next = safeNext(form.get('next'));
  }

  const settings = adminSettings(serverEnv());
  if (!settings.token) return wantsJson ? jsonError(401, 'No ADMIN_TOKEN is configured on this server.') : redirect(signInUrl(next, 'not-configured'));
  const source = clientKey(request.headers, serverEnv().TRUST_PROXY).key;
  const result = checkToken(token, settings.token, source, adminThrottle());
  const who = { actor: 'admin-token', role: 'admin' as const, via: 'token', source };
  if (result !== 'ok') {
    if (result === 'invalid') {
      await auditRefusal(serverApp().store(), who, { action: 'sign-in.failed', detail: { reason: 'wrong admin token' } });
      return wantsJson ? jsonError(401, 'Wrong admin token.') : redirect(signInUrl(next, 'wrong'));
    }
    const retryAfter = { 'retry-after': String(result.retryAfterSeconds) };
    return wantsJson
      ? jsonError(429, `Too many wrong admin tokens. Try again in ${result.retryAfterSeconds} seconds.`, retryAfter)
      : redirect(signInUrl(next, 'throttled', result.retryAfterSeconds), retryAfter);
  }

  // Sessions live in the database: no database, no session.
  let cookie: string;
  try {
    const app = serverApp();
    const started = await startSession(app.store(), app.sessionKey(), { actor: 'admin-token', role: 'admin', via: 'token' });
    cookie = started.cookie;
    await audit(app.store(), who, { action: 'sign-in', target: started.session.id });
  } catch (error) {
    const fault = databaseFault(error);
    console.error(`[debug] sign-in refused: ${faultMessage(fault)}`);
    return wantsJson ? faultResponse(fault) : redirect(signInUrl(next, 'unavailable'));
  }
  // A relative Location: request.url names the host Next was started with, not the one the browser used.
  const response = wantsJson ? json({ ok: true }) : redirect(next);
  response.headers.append('set-cookie', sessionSetCookie(cookie, viaHttps(request)));
  return response;
}
