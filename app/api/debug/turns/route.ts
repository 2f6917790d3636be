import { guardApi } from '@/lib/debug/access';
import { readTurnList } from '@/lib/debug/views';
import { faultSafe } from '@/lib/debug/faults';
import { parseTurnFilter } from '@/lib/debug/filters';
import { json } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/debug/turns?q=&status=&floor=yes|no&section=&state=sent|dropped|any&conversation=&page=&pageSize= */
export async function GET(request: Request) {
  const { refused, principal } = await guardApi();
  if (refused) return refused;
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const { filter, page } = parseTurnFilter(params);
  const pageSize = Number.parseInt(params.pageSize ?? '25', 10);
  return faultSafe(async () => {
    return json(await readTurnList(principal, filter, page, Number.isFinite(pageSize) ? pageSize : 25));
  });
}
