import { audit } from '@/lib/admin/audit';
import { CLEAR_SESSION_COOKIE } from '@/lib/admin/auth';
import { originProblem, signInUrl } from '@/lib/admin/origin';
import { adminAccess } from '@/lib/debug/access';
import { databaseFault, faultMessage } from '@/lib/debug/faults';
import { jsonError } from '@/lib/http';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Sign out of /debug: ends this session's record in the store (so the cookie — and any copy
 * of it — stops working on every instance), clears the cookie, records it in the audit trail,
 * and goes to the sign-in page. Only from this site (Origin check). With the database
 * unreachable the cookie is still cleared, and the sign-in page says the session could not be
 * ended elsewhere.
 */
export async function POST(request: Request): Promise<Response> {
  const crossSite = originProblem(request.headers);
  if (crossSite) return jsonError(403, crossSite);
  const access = await adminAccess();
  let ended = access.ok || access.reason !== 'unavailable';
  if (access.ok && access.principal.sessionId) {
    try {
      const store = serverApp().store();
      await store.endSession(access.principal.sessionId, new Date().toISOString());
      await audit(store, access.principal, { action: 'sign-out', target: access.principal.sessionId });
    } catch (error) {
      console.error(`[debug] sign-out could not end the session: ${faultMessage(databaseFault(error))}`);
      ended = false;
    }
  }
  return new Response(null, {
    status: 303,
    headers: { location: ended ? '/debug/sign-in' : signInUrl('/debug', 'signed-out-here'), 'cache-control': 'no-store', 'set-cookie': CLEAR_SESSION_COOKIE },
  });
}
