import 'server-only';
import { cookies, headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { ADMIN_COOKIE, adminRefusal, adminSettings, checkAdminAccess, verifySessionValue, type AdminAccess } from '../admin/auth';
import { clientKey } from '../rate-limit/client';
import { adminThrottle, serverEnv } from '../server/registry';
import { serverApp } from '../server/server-app';
import { databaseFault, faultResponse, InspectorFaultError, type InspectorFault } from './faults';

/**
 * The guard of the inspector: every /debug page, every /api/debug handler and any server
 * action calls it first, before it reads anything (proxy.ts is a first gate, not the only
 * one: a page renders — and Next.js serialises its data — whatever its layout shows, so a
 * check in the layout alone protects nothing). This check is the complete one: the
 * credential, the throttle on wrong tokens, and the session generation (a cookie from
 * before a sign-out is refused), which the proxy cannot see.
 *
 *     export default inspectorPage(async function Page() {
 *       await requireAdmin();
 *       …
 *
 * The generation is read from the database only for a signed, unexpired session cookie (a
 * Bearer token needs none). When it cannot be read, the cookie can be neither accepted nor
 * refused: the request is `unavailable` — it sees that the database is unreachable, and why,
 * never a byte of trace or KB content (a signed-out cookie must not read the KB while the
 * database is down).
 */
export type InspectorAccess = AdminAccess | { ok: false; reason: 'unavailable'; fault: InspectorFault };

export async function adminAccess(): Promise<InspectorAccess> {
  const [h, c] = await Promise.all([headers(), cookies()]);
  const env = serverEnv();
  const settings = adminSettings(env);
  const sessionCookie = c.get(ADMIN_COOKIE)?.value;
  const access = checkAdminAccess(
    { authorization: h.get('authorization'), sessionCookie, client: clientKey(h, env.TRUST_PROXY).key },
    settings,
    { throttle: adminThrottle() },
  );
  if (!access.ok || access.via !== 'cookie') return access;
  let generation: number;
  try {
    generation = await serverApp().store().sessionGeneration();
  } catch (error) {
    return { ok: false, reason: 'unavailable', fault: databaseFault(error) };
  }
  return verifySessionValue(settings.token!, sessionCookie!, Date.now(), generation) ? access : { ok: false, reason: 'invalid' };
}

/**
 * For pages and server actions: answers 404 unless the request is an admin's; throws
 * InspectorFaultError when the session cannot be checked (the page's inspectorPage() shows it).
 */
export async function requireAdmin(): Promise<Extract<AdminAccess, { ok: true }>> {
  const access = await adminAccess();
  if (access.ok) return access;
  if (access.reason === 'unavailable') throw new InspectorFaultError(access.fault);
  notFound();
}

/** For route handlers: the refusal when the caller is not an admin (503 when the session cannot be checked), else undefined. */
export async function refuseNonAdmin(): Promise<Response | undefined> {
  const access = await adminAccess();
  if (access.ok) return undefined;
  return access.reason === 'unavailable' ? faultResponse(access.fault) : adminRefusal(access);
}
