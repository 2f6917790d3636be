import { ADMIN_COOKIE } from '@/lib/admin/auth';
import { originProblem } from '@/lib/admin/origin';
import { jsonError } from '@/lib/http';
import { adminAccess } from '@/lib/debug/access';
import { getAdminStateStore } from '@/lib/traces';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Sign out of /debug: ends the session server-side (bumps the session generation, so the
 * cookie — and any copy of it — stops working everywhere), clears the cookie, and goes to
 * the sign-in page. Only from this site (Origin check).
 */
export async function POST(request: Request): Promise<Response> {
  const crossSite = originProblem(request.headers);
  if (crossSite) return jsonError(403, crossSite);
  const access = await adminAccess();
  if (access.ok && access.via !== 'development') await getAdminStateStore().endAllSessions();
  return new Response(null, {
    status: 303,
    headers: {
      location: '/debug/sign-in',
      'cache-control': 'no-store',
      'set-cookie': `${ADMIN_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`,
    },
  });
}
