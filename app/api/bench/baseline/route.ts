import { createOpenAI } from '@ai-sdk/openai';
import { streamText } from 'ai';
import { jsonError } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The benchmarks' yardstick, not part of the product: the smallest AI SDK chat route there
 * is — `streamText` on the same OpenAI-compatible provider, a fixed question, no
 * selection, no trace, no validation — so `npm run load -- --baseline` can state what the
 * real chat route adds, measured in the same server and the same run.
 *
 * It answers 404 unless the server was started with BENCH_BASELINE_ROUTE=1 (only the load
 * script does that), so a deployment never exposes it.
 */
export async function POST(request: Request): Promise<Response> {
  if (process.env.BENCH_BASELINE_ROUTE !== '1') return jsonError(404, 'not found');
  await request.arrayBuffer();
  const openai = createOpenAI({ apiKey: process.env.OPENAI_API_KEY, baseURL: process.env.OPENAI_BASE_URL });
  const result = streamText({
    model: openai.chat(process.env.OPENAI_MODEL ?? 'stub-model'),
    system: 'You are a support assistant.',
    messages: [{ role: 'user', content: 'can I get a refund?' }],
    maxRetries: 0,
  });
  return result.toUIMessageStreamResponse();
}
