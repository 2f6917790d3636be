import 'server-only';
import { cookies, headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { ADMIN_COOKIE, adminRefusal, adminSettings, adminThrottle, checkAdminAccess, type AdminAccess } from '../admin/auth';
import { env } from '../env';
import { clientKey } from '../rate-limit/client';
import { getAdminStateStore } from '../traces';

/**
 * The guard of the inspector: every /debug page, every /api/debug handler and any server
 * action calls it first, before it reads anything (proxy.ts is a first gate, not the only
 * one: a page renders — and Next.js serialises its data — whatever its layout shows, so a
 * check in the layout alone protects nothing). This check is the complete one: the
 * credential, the throttle on wrong tokens, and the session generation (a cookie from
 * before a sign-out is refused), which the proxy cannot see.
 *
 *     export default async function Page() {
 *       await requireAdmin();
 *       …
 */
export async function adminAccess(): Promise<AdminAccess> {
  const [h, c] = await Promise.all([headers(), cookies()]);
  const settings = adminSettings();
  return checkAdminAccess(
    { authorization: h.get('authorization'), sessionCookie: c.get(ADMIN_COOKIE)?.value, client: clientKey(h, env().TRUST_PROXY).key },
    settings,
    { throttle: adminThrottle(), generation: settings.token ? await getAdminStateStore().sessionGeneration() : undefined },
  );
}

/** For pages and server actions: answers 404 unless the request is an admin's. */
export async function requireAdmin(): Promise<Extract<AdminAccess, { ok: true }>> {
  const access = await adminAccess();
  if (!access.ok) notFound();
  return access;
}

/** For route handlers: the refusal when the caller is not an admin, else undefined. */
export async function refuseNonAdmin(): Promise<Response | undefined> {
  const access = await adminAccess();
  return access.ok ? undefined : adminRefusal(access);
}
