import { formatIssues } from '@/lib/format';
import { z } from 'zod';
import { refuseNonAdmin } from '@/lib/debug/access';
import { faultSafe } from '@/lib/debug/faults';
import { tryQuestion } from '@/lib/debug/data';
import { bodyFailureResponse, json, jsonError, readJsonBody } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const bodySchema = z.strictObject({
  question: z.string().trim().min(1, 'question is empty').max(4000),
  previous: z.string().max(4000).optional(),
});

/** POST /api/debug/try {question, previous?} — the selector's explanation, without calling the model. */
export async function POST(request: Request) {
  const refused = await refuseNonAdmin();
  if (refused) return refused;
  // Two texts of at most 4000 characters: read under a byte cap, never buffered whole.
  const body = await readJsonBody(request, 32 * 1024);
  if (!body.ok) return bodyFailureResponse(body);
  const parsed = bodySchema.safeParse(body.value);
  if (!parsed.success) {
    return jsonError(400, formatIssues(parsed.error.issues, 'body'));
  }
  return faultSafe(async () => json(await tryQuestion(parsed.data.question, parsed.data.previous)));
}
