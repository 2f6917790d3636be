import { memberSchema, setMember } from '@/lib/admin/team';
import { guardApi } from '@/lib/debug/access';
import { adminJsonBody } from '@/lib/debug/admin-api';
import { faultSafe } from '@/lib/debug/faults';
import { json } from '@/lib/http';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/debug/members — the members list. Admin. */
export async function GET(request: Request) {
  const { refused } = await guardApi('admin', request);
  if (refused) return refused;
  return faultSafe(async () => json({ members: await serverApp().store().listMembers() }));
}

/** POST /api/debug/members {"email", "role": "viewer" | "admin" | "none"} — adds or changes a member; their sessions take the role at once. Admin. */
export async function POST(request: Request) {
  const { refused, principal } = await guardApi('admin', request);
  if (refused) return refused;
  const body = await adminJsonBody(request, memberSchema);
  if (!body.ok) return body.response;
  return faultSafe(async () => json(await setMember(serverApp().store(), principal, body.data)));
}
