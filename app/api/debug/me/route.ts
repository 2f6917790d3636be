import { guardApi } from '@/lib/debug/access';
import { json } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/debug/me — who the credential is: actor, role, how it came in. Any member. */
export async function GET(request: Request) {
  const { refused, principal } = await guardApi('viewer', request);
  if (refused) return refused;
  return json({ actor: principal.actor, role: principal.role, via: principal.via });
}
