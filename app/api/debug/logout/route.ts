import { ADMIN_COOKIE } from '@/lib/admin/auth';
import { originProblem, signInUrl } from '@/lib/admin/origin';
import { databaseFault, faultMessage } from '@/lib/debug/faults';
import { jsonError } from '@/lib/http';
import { adminAccess } from '@/lib/debug/access';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Sign out of /debug: ends the session server-side (bumps the session generation, so the
 * cookie — and any copy of it — stops working everywhere), clears the cookie, and goes to
 * the sign-in page. Only from this site (Origin check). With the database unreachable the
 * cookie is still cleared, and the sign-in page says the session could not be ended elsewhere.
 */
export async function POST(request: Request): Promise<Response> {
  const crossSite = originProblem(request.headers);
  if (crossSite) return jsonError(403, crossSite);
  const access = await adminAccess();
  let endedEverywhere = access.ok || access.reason !== 'unavailable';
  if (access.ok && access.via !== 'development') endedEverywhere = await endAllSessions();
  return new Response(null, {
    status: 303,
    headers: {
      location: endedEverywhere ? '/debug/sign-in' : signInUrl('/debug', 'signed-out-here'),
      'cache-control': 'no-store',
      'set-cookie': `${ADMIN_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`,
    },
  });
}

/** Bumps the session generation; false (logged) when the database cannot be written. */
async function endAllSessions(): Promise<boolean> {
  try {
    await serverApp().store().endAllSessions();
    return true;
  } catch (error) {
    console.error(`[debug] sign-out could not end the sessions: ${faultMessage(databaseFault(error))}`);
    return false;
  }
}
