import { getVisitorSecret } from '@/lib/chat/visitor-server';
import { getTraceStore } from '@/lib/traces';
import { createFeedbackHandler } from './handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = createFeedbackHandler({ traces: getTraceStore, visitorSecret: getVisitorSecret });

/** A vote on one of the visitor's replies (handler.ts). */
export async function POST(request: Request): Promise<Response> {
  return handle(request);
}
