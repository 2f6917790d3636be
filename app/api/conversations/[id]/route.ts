import { serverEnv } from '@/lib/server/registry';
import { serverApp } from '@/lib/server/server-app';
import { createConversationHandler } from './handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = createConversationHandler({
  traces: () => serverApp().store(),
  visitorSecret: () => serverApp().visitorSecret(),
  identitySecret: () => serverEnv().EMBED_IDENTITY_SECRET,
});

/** The visitor's own conversation (handler.ts). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(request, (await params).id);
}
