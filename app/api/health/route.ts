import { errorText } from '@/lib/errors';
import { json, jsonError } from '@/lib/http';
import { serverApp } from '@/lib/server/server-app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Readiness for a load balancer, a deploy script or a monitor:
 * - 503 `{ "status": "loading", "progress": { "done": 120, "total": 500 } }`: the server has just
 *   started and is loading its knowledge base (document files done of all); a chat sent now
 *   waits for it (lib/knowledge/holder.ts `whenReady`);
 * - 200 `{ "status": "ok" }`: the chat serves the whole knowledge base on disk, and the trace
 *   store is open (with DATABASE_URL, PostgreSQL migrated and answering);
 * - 200 `{ "status": "degraded", "reasons": [...] }`: the chat serves, but not all of what is on
 *   disk: an edit was refused (the last good version is served), files were left out, or the
 *   KB lacks rules it declares (lib/knowledge/holder.ts `health`). Alert on it;
 * - 503 `{ "error" }`: no knowledge base in service, or the store is not ready (the details
 *   are in the server log).
 */
export async function GET(): Promise<Response> {
  let knowledge;
  try {
    knowledge = serverApp().knowledge.health();
    if (knowledge.status === 'loading') return json({ status: 'loading', progress: knowledge.progress }, { status: 503, headers: { 'retry-after': '1' } });
    if (knowledge.status === 'unavailable') return jsonError(503, 'the knowledge base is not loaded');
    await serverApp().store().ready();
  } catch (error) {
    console.error('[health]', errorText(error));
    return jsonError(503, 'not ready');
  }
  return knowledge.status === 'degraded' ? json({ status: 'degraded', reasons: knowledge.reasons }) : json({ status: 'ok' });
}
