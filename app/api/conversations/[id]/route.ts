import { getVisitorSecret } from '@/lib/chat/visitor-server';
import { getTraceStore } from '@/lib/traces';
import { createConversationHandler } from './handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = createConversationHandler({ traces: getTraceStore, visitorSecret: getVisitorSecret });

/** The visitor's own conversation (handler.ts). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(request, (await params).id);
}
