import { endSession } from '@/lib/admin/team';
import { guardApi } from '@/lib/debug/access';
import { crossSiteRefusal, teamErrorResponse } from '@/lib/debug/admin-api';
import { faultSafe } from '@/lib/debug/faults';
import { json } from '@/lib/http';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** DELETE /api/debug/sessions/:id — ends someone's session (its cookie stops working everywhere). Admin. */
export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { refused, principal } = await guardApi('admin', request);
  if (refused) return refused;
  const crossSite = crossSiteRefusal(request);
  if (crossSite) return crossSite;
  const { id } = await params;
  return faultSafe(async () => {
    try {
      await endSession(serverApp().store(), principal, id);
      return json({ ended: id });
    } catch (error) {
      return teamErrorResponse(error);
    }
  });
}
