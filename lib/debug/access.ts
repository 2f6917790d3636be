import 'server-only';
import { cookies, headers } from 'next/headers';
import { forbidden, notFound } from 'next/navigation';
import { apiKeyOf } from '../admin/api-keys';
import { auditRefusal } from '../admin/audit';
import { ADMIN_COOKIE, adminRefusal, adminSettings, checkAdminAccess, type AdminAccess } from '../admin/auth';
import { roleAllows, type Principal } from '../admin/principal';
import { sessionOfCookie } from '../admin/sessions';
import { jsonError } from '../http';
import { clientKey } from '../rate-limit/client';
import { adminThrottle, serverEnv } from '../server/registry';
import { serverApp } from '../server/server-app';
import type { Role } from '../store/ports/role';
import { databaseFault, faultResponse, InspectorFaultError, type InspectorFault } from './faults';

/**
 * The guard of the inspector: every /debug page, every /api/debug handler and any server
 * action calls it first, before it reads anything (proxy.ts is a first gate, not the only
 * one: a page renders — and Next.js serialises its data — whatever its layout shows, so a
 * check in the layout alone protects nothing). This check is the complete one: the
 * credential (ADMIN_TOKEN, an API key, a session cookie — lib/admin/auth.ts), the throttle on
 * wrong ones, the session's or key's record in the store, and the role the page or action
 * needs (viewer: reading; admin: managing access, exporting and deleting data).
 *
 *     export default inspectorPage(async function Page() {
 *       const principal = await requireAdmin('admin', '/debug/team');
 *       …
 *
 * A session cookie is checked against its signature first (a forged one is refused without
 * the store), then its record. When the store cannot be read the cookie can be neither
 * accepted nor refused: the request is `unavailable` — it sees that the database is
 * unreachable, and why, never a byte of trace or KB content. A request with too low a role
 * is refused 403 (pages: Next.js's forbidden()), and the refusal is in the audit trail.
 */
export type InspectorAccess =
  | { ok: true; principal: Principal }
  | Exclude<AdminAccess, { ok: true }>
  | { ok: false; reason: 'unavailable'; fault: InspectorFault };

export async function adminAccess(): Promise<InspectorAccess> {
  const [h, c] = await Promise.all([headers(), cookies()]);
  const env = serverEnv();
  const source = clientKey(h, env.TRUST_PROXY).key;
  const access = checkAdminAccess({ authorization: h.get('authorization'), sessionCookie: c.get(ADMIN_COOKIE)?.value, client: source }, adminSettings(env), {
    throttle: adminThrottle(),
  });
  if (!access.ok) return access;
  if (access.via === 'development') return { ok: true, principal: { actor: 'development', role: 'admin', via: 'development', source } };
  if (access.via === 'header') return { ok: true, principal: { actor: 'admin-token', role: 'admin', via: 'token', source } };
  const app = serverApp();
  if (access.via === 'cookie') {
    let session: Awaited<ReturnType<typeof sessionOfCookie>>;
    try {
      session = await sessionOfCookie(app.store(), app.sessionKey(), access.session);
    } catch (error) {
      return { ok: false, reason: 'unavailable', fault: databaseFault(error) };
    }
    if (session === 'forged' || session === undefined) return { ok: false, reason: 'invalid' };
    return { ok: true, principal: { actor: session.actor, role: session.role, via: session.via === 'token' ? 'token' : 'oidc', sessionId: session.id, source } };
  }
  let key: Awaited<ReturnType<typeof apiKeyOf>>;
  try {
    key = await apiKeyOf(app.store(), access.key);
  } catch (error) {
    return { ok: false, reason: 'unavailable', fault: databaseFault(error) };
  }
  if (!key) {
    // An unknown or revoked key: a failed credential like a wrong token, and on the record.
    adminThrottle().fail(source);
    await auditRefusal(app.store(), { actor: `key:${access.key.slice(0, 12)}…`, via: 'key', source }, { action: 'sign-in.failed', detail: { reason: 'unknown or revoked API key' } });
    return { ok: false, reason: 'invalid' };
  }
  return { ok: true, principal: { actor: `key:${key.name}`, role: key.role, via: 'key', keyId: key.id, source } };
}

/** The refusal of a role the caller does not have, on the record. */
async function refuseRole(principal: Principal, needed: Role, what: string): Promise<void> {
  await auditRefusal(serverApp().store(), principal, { action: 'access.refused', target: what, detail: { needs: needed } });
}

/**
 * For pages and server actions: the caller, if signed in with at least `role` (default
 * viewer). Not signed in: 404; too low a role: 403 (forbidden()); the session cannot be
 * checked: InspectorFaultError (the page's inspectorPage() shows it).
 */
export async function requireAdmin(role: Role = 'viewer', what = 'a /debug page'): Promise<Principal> {
  const access = await adminAccess();
  if (!access.ok) {
    if (access.reason === 'unavailable') throw new InspectorFaultError(access.fault);
    notFound();
  }
  if (!roleAllows(access.principal.role, role)) {
    await refuseRole(access.principal, role, what);
    forbidden();
  }
  return access.principal;
}

/**
 * For route handlers: `refused` — 401 (no or a wrong credential), 403 (too low a role), 429
 * (throttled) or 503 (the session cannot be checked) — or the caller.
 */
export async function guardApi(
  role: Role = 'viewer',
  request?: Request,
): Promise<{ refused: Response; principal?: undefined } | { refused?: undefined; principal: Principal }> {
  const access = await adminAccess();
  if (!access.ok) return { refused: access.reason === 'unavailable' ? faultResponse(access.fault) : adminRefusal(access) };
  if (!roleAllows(access.principal.role, role)) {
    const what = request ? `${request.method} ${new URL(request.url).pathname}` : 'an /api/debug action';
    await refuseRole(access.principal, role, what);
    return { refused: jsonError(403, `this needs the ${role} role; ${access.principal.actor} is a ${access.principal.role}`) };
  }
  return { principal: access.principal };
}

/** For route handlers that need only the refusal: see guardApi. */
export async function refuseNonAdmin(role: Role = 'viewer', request?: Request): Promise<Response | undefined> {
  return (await guardApi(role, request)).refused;
}
