import { devHostRefusal } from '@/lib/security/dev-host';
import { serverEnv } from '@/lib/server/registry';
import { serverApp } from '@/lib/server/server-app';
import { createChatHandler } from './handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** One chat turn (handler.ts), with the server's environment, KB, model, store, rate limiter and visitor secret. */
const handle = createChatHandler({
  settings: serverEnv,
  limiter: () => serverApp().limiter(),
  knowledge: () => serverApp().knowledge.whenReady(),
  chat: () => serverApp().chat,
  traces: () => serverApp().store(),
  visitorSecret: () => serverApp().visitorSecret(),
  identitySecret: () => serverEnv().EMBED_IDENTITY_SECRET,
  redactor: () => serverApp().redactor,
});

/** Not behind proxy.ts (its body cap is the chat's own), so it checks the development Host itself: the model costs money. */
export async function POST(request: Request): Promise<Response> {
  return devHostRefusal(request.headers, undefined, serverEnv().DEV_ALLOWED_HOSTS) ?? handle(request);
}
