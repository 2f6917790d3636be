import { removeMember } from '@/lib/admin/team';
import { guardApi } from '@/lib/debug/access';
import { crossSiteRefusal, teamErrorResponse } from '@/lib/debug/admin-api';
import { faultSafe } from '@/lib/debug/faults';
import { json } from '@/lib/http';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** DELETE /api/debug/members/:email — removes the entry and ends their sessions. Admin. */
export async function DELETE(request: Request, { params }: { params: Promise<{ email: string }> }) {
  const { refused, principal } = await guardApi('admin', request);
  if (refused) return refused;
  const crossSite = crossSiteRefusal(request);
  if (crossSite) return crossSite;
  const { email } = await params;
  return faultSafe(async () => {
    try {
      return json({ removed: await removeMember(serverApp().store(), principal, decodeURIComponent(email)) });
    } catch (error) {
      return teamErrorResponse(error);
    }
  });
}
