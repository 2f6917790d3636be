import { serverEnv } from '@/lib/server/registry';
import { serverApp } from '@/lib/server/server-app';
import { createEmbedSessionHandler } from './handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = createEmbedSessionHandler({
  traces: () => serverApp().store(),
  visitorSecret: () => serverApp().visitorSecret(),
  identitySecret: () => serverEnv().EMBED_IDENTITY_SECRET,
});

/** The embed frame's start: whose chat, which conversation (handler.ts). */
export async function GET(request: Request): Promise<Response> {
  return handle(request);
}
