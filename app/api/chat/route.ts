import { getChatModel } from '@/lib/ai/providers';
import { env } from '@/lib/env';
import { getVisitorSecret } from '@/lib/chat/visitor-server';
import { getKnowledge } from '@/lib/knowledge';
import { getRateLimiter } from '@/lib/rate-limit/server';
import { devHostRefusal } from '@/lib/security/dev-host';
import { getTraceStore } from '@/lib/traces';
import { createChatHandler } from './handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** One chat turn (handler.ts), with the server's environment, KB, model, trace store, rate limiter and visitor secret. */
const handle = createChatHandler({
  settings: env,
  limiter: getRateLimiter,
  knowledge: getKnowledge,
  chat: getChatModel,
  traces: getTraceStore,
  visitorSecret: getVisitorSecret,
});

/** Not behind proxy.ts (its body cap is the chat's own), so it checks the development Host itself: the model costs money. */
export async function POST(request: Request): Promise<Response> {
  return devHostRefusal(request.headers) ?? handle(request);
}
