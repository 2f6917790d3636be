import { json, jsonError } from '@/lib/http';
import { knowledgeHolder } from '@/lib/knowledge';
import { getTraceStore } from '@/lib/traces';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Readiness for a load balancer or a deploy script: 200 `{ "status": "ok" }` when the chat
 * can serve (knowledge base loaded, trace store open — with DATABASE_URL, PostgreSQL migrated and answering), else 503. Says nothing more: the
 * reason is in the server log.
 */
export async function GET(): Promise<Response> {
  try {
    if (!knowledgeHolder().ready) return jsonError(503, 'the knowledge base is not loaded');
    await getTraceStore().ready();
  } catch (error) {
    console.error('[health]', error instanceof Error ? error.message : error);
    return jsonError(503, 'not ready');
  }
  return json({ status: 'ok' });
}
