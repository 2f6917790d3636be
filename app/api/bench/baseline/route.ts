import { createOpenAI } from '@ai-sdk/openai';
import { streamText } from 'ai';
import { adminRefusal, adminSettings, checkAdminAccess } from '@/lib/admin/auth';
import { bodyFailureResponse, jsonError, readBody } from '@/lib/http';
import { clientKey } from '@/lib/rate-limit/client';
import { devHostRefusal } from '@/lib/security/dev-host';
import { adminThrottle, serverEnv } from '@/lib/server/registry';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The benchmarks' yardstick, not part of the product: the smallest AI SDK chat route there
 * is — `streamText` on the same OpenAI-compatible provider, a fixed question, no
 * selection, no trace, no validation — so `npm run load -- --baseline` can state what the
 * real chat route adds, measured in the same server and the same run.
 *
 * It calls the paid model, so: 404 unless the server was started with BENCH_BASELINE_ROUTE=1
 * (only the load script does that); then only for an admin credential sent with the request
 * (`Authorization: Bearer <ADMIN_TOKEN>`, throttled like every admin token; under `next dev`
 * without ADMIN_TOKEN, open as /debug is); and the body is read under the chat's cap
 * (CHAT_MAX_BODY_BYTES, 413 above it), as the chat route reads it.
 */
export async function POST(request: Request): Promise<Response> {
  const settings = serverEnv();
  if (settings.BENCH_BASELINE_ROUTE !== '1') return jsonError(404, 'not found');
  const misdirected = devHostRefusal(request.headers, undefined, settings.DEV_ALLOWED_HOSTS);
  if (misdirected) return misdirected;
  const access = checkAdminAccess(
    { authorization: request.headers.get('authorization'), sessionCookie: undefined, client: clientKey(request.headers, settings.TRUST_PROXY).key },
    adminSettings(settings),
    { throttle: adminThrottle() },
  );
  if (!access.ok) return adminRefusal(access);
  // ADMIN_TOKEN only: an API key's or a cookie's shape passes checkAdminAccess, but only the store could tell whether it is real.
  if (access.via !== 'header' && access.via !== 'development') return adminRefusal({ ok: false, reason: 'invalid' });
  const body = await readBody(request, settings.CHAT_MAX_BODY_BYTES);
  if (!body.ok) return bodyFailureResponse(body);
  const openai = createOpenAI({ apiKey: settings.OPENAI_API_KEY, baseURL: settings.OPENAI_BASE_URL });
  const result = streamText({
    model: openai.chat(settings.OPENAI_MODEL),
    system: 'You are a support assistant.',
    messages: [{ role: 'user', content: 'can I get a refund?' }],
    maxRetries: 0,
  });
  return result.toUIMessageStreamResponse();
}
