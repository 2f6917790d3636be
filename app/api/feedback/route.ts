import { serverEnv } from '@/lib/server/registry';
import { serverApp } from '@/lib/server/server-app';
import { createFeedbackHandler } from './handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = createFeedbackHandler({
  traces: () => serverApp().store(),
  visitorSecret: () => serverApp().visitorSecret(),
  identitySecret: () => serverEnv().EMBED_IDENTITY_SECRET,
  redactor: () => serverApp().redactor,
  knowledge: () => {
    try {
      return serverApp().knowledge.get();
    } catch {
      return undefined; // no KB loaded: nothing of it to keep
    }
  },
});

/** A vote on one of the visitor's replies (handler.ts). */
export async function POST(request: Request): Promise<Response> {
  return handle(request);
}
