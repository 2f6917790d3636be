import { pageRedaction } from '@/lib/chat/redaction';
import { defaultIdentity } from '@/lib/retrieval/index';
import { devHostRefusal } from '@/lib/security/dev-host';
import { serverEnv } from '@/lib/server/registry';
import { serverApp } from '@/lib/server/server-app';
import { createHandoffHandlers } from './handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The KB in service, or undefined while none is loaded (the form still works). */
function knowledge() {
  try {
    return serverApp().knowledge.get();
  } catch {
    return undefined;
  }
}

/** The identity of the KB in service; the neutral one while none is loaded. */
const identity = () => knowledge()?.kb.identity ?? defaultIdentity();

/** The hand-off to a person (handler.ts), with the server's store, channels, limits and delivery worker. */
const handlers = createHandoffHandlers({
  settings: serverEnv,
  channels: () => serverApp().handoffs.channels,
  store: () => serverApp().store(),
  visitorSecret: () => serverApp().visitorSecret(),
  identitySecret: () => serverEnv().EMBED_IDENTITY_SECRET,
  limits: () => serverApp().handoffs.limits(),
  identity,
  pageAsStored: (page) => pageRedaction(serverApp().redactor, knowledge())(page),
  written: () => serverApp().handoffs.worker?.kick(),
});

/** Not behind proxy.ts, as the chat: it checks the development Host itself (a hand-off sends mail). */
export async function GET(request: Request): Promise<Response> {
  return devHostRefusal(request.headers, undefined, serverEnv().DEV_ALLOWED_HOSTS) ?? handlers.GET(request);
}

export async function POST(request: Request): Promise<Response> {
  return devHostRefusal(request.headers, undefined, serverEnv().DEV_ALLOWED_HOSTS) ?? handlers.POST(request);
}
