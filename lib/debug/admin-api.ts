import 'server-only';
import type { z } from 'zod';
import { originProblem } from '../admin/origin';
import { TeamError } from '../admin/team';
import { formatIssues } from '../format';
import { bodyFailureResponse, jsonError, readTextBody } from '../http';

/**
 * What the admin's /api/debug actions share after their guard: the Origin check (they change
 * state: only from this site, as sign-in and sign-out), a small JSON body validated by a zod
 * schema (400 saying what is wrong), and TeamError as its 4xx.
 */

const MAX_BODY_BYTES = 4096;

export async function adminJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<{ ok: true; data: z.infer<S> } | { ok: false; response: Response }> {
  const crossSite = originProblem(request.headers);
  if (crossSite) return { ok: false, response: jsonError(403, crossSite) };
  const body = await readTextBody(request, MAX_BODY_BYTES, ['application/json']);
  if (!body.ok) return { ok: false, response: bodyFailureResponse(body) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch {
    return { ok: false, response: jsonError(400, 'the body is not valid JSON') };
  }
  const result = schema.safeParse(parsed);
  return result.success ? { ok: true, data: result.data } : { ok: false, response: jsonError(400, formatIssues(result.error.issues, 'body')) };
}

/** For an action without a body (DELETE): the Origin check alone. */
export function crossSiteRefusal(request: Request): Response | undefined {
  const crossSite = originProblem(request.headers);
  return crossSite ? jsonError(403, crossSite) : undefined;
}

/** A TeamError as its JSON answer; anything else is thrown on (faultSafe answers it). */
export function teamErrorResponse(error: unknown): Response {
  if (error instanceof TeamError) return jsonError(error.status, error.message);
  throw error;
}
