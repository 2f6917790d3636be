import { revokeKey } from '@/lib/admin/team';
import { guardApi } from '@/lib/debug/access';
import { crossSiteRefusal, teamErrorResponse } from '@/lib/debug/admin-api';
import { faultSafe } from '@/lib/debug/faults';
import { json } from '@/lib/http';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** DELETE /api/debug/keys/:id — revokes the key: it stops working at once, on every instance. Admin. */
export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { refused, principal } = await guardApi('admin', request);
  if (refused) return refused;
  const crossSite = crossSiteRefusal(request);
  if (crossSite) return crossSite;
  const { id } = await params;
  return faultSafe(async () => {
    try {
      return json({ revoked: await revokeKey(serverApp().store(), principal, id) });
    } catch (error) {
      return teamErrorResponse(error);
    }
  });
}
