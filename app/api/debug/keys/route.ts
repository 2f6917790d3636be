import { addApiKey, newKeySchema } from '@/lib/admin/team';
import { guardApi } from '@/lib/debug/access';
import { adminJsonBody, teamErrorResponse } from '@/lib/debug/admin-api';
import { faultSafe } from '@/lib/debug/faults';
import { json } from '@/lib/http';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/debug/keys — every API key, live and revoked (never a key's secret). Admin. */
export async function GET(request: Request) {
  const { refused } = await guardApi('admin', request);
  if (refused) return refused;
  return faultSafe(async () => json({ keys: await serverApp().store().listApiKeys() }));
}

/** POST /api/debug/keys {"name", "role": "viewer" | "admin"} — 201 with the key, shown this once. Admin. */
export async function POST(request: Request) {
  const { refused, principal } = await guardApi('admin', request);
  if (refused) return refused;
  const body = await adminJsonBody(request, newKeySchema);
  if (!body.ok) return body.response;
  return faultSafe(async () => {
    try {
      const { key, record } = await addApiKey(serverApp().store(), principal, body.data);
      return json({ ...record, key }, { status: 201 });
    } catch (error) {
      return teamErrorResponse(error);
    }
  });
}
