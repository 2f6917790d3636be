import { conversationOwner, ownerKey } from '@/lib/chat/owner';
import { customerTextRedaction } from '@/lib/chat/redaction';
import type { Knowledge } from '@/lib/knowledge/load';
import type { TraceRedactor } from '@/lib/privacy/redact';
import { formatIssues } from '@/lib/format';
import { bodyFailureResponse, json, jsonError, readJsonBody } from '@/lib/http';
import type { FeedbackStore } from '@/lib/store/ports/feedback';
import type { TurnStore } from '@/lib/store/ports/turns';
import { feedbackSchema } from './schema';

export interface FeedbackDependencies {
  traces: () => Pick<TurnStore, 'getTurn'> & FeedbackStore;
  visitorSecret: () => Uint8Array;
  /** EMBED_IDENTITY_SECRET: a verified user votes on their own replies (lib/chat/owner.ts). */
  identitySecret?: () => string | undefined;
  /** TRACE_REDACT: the reason is stored redacted, as the question is. */
  redactor: () => TraceRedactor;
  /** The KB in service, if one is loaded: the addresses it states are kept in a reason (lib/chat/redaction.ts). */
  knowledge?: () => Pick<Knowledge, 'index'> | undefined;
}

const MAX_BODY_BYTES = 4096;

/**
 * POST /api/feedback — a thumbs up or down (and an optional short reason) on one reply.
 * One vote per reply: voting again replaces it. The reason is stored (and answered) with its
 * personal data redacted (TRACE_REDACT). Only the visitor whose conversation the reply
 * is in can vote on it (their signed cookie, the embed's credential or a verified user:
 * lib/chat/owner.ts); for anyone else the reply
 * does not exist (404), the same answer as for an id nobody used.
 *
 * 200 `{ turnId, vote, reason? }`; 400 a body that is not `{ turnId, vote, reason? }` (saying
 * what is wrong); 403 no visitor cookie; 404 not a reply of this visitor; 409 the reply has
 * not finished; 415/413 not JSON / too large; 503 the trace store is unavailable.
 */
export function createFeedbackHandler(deps: FeedbackDependencies) {
  return async function handle(request: Request): Promise<Response> {
    const body = await readJsonBody(request, MAX_BODY_BYTES);
    if (!body.ok) return bodyFailureResponse(body);
    const parsed = feedbackSchema.safeParse(body.value);
    if (!parsed.success) return jsonError(400, formatIssues(parsed.error.issues, 'body'));
    const { turnId, vote } = parsed.data;

    const who = conversationOwner(request, { visitor: deps.visitorSecret(), identity: deps.identitySecret?.() });
    if (!who.ok) return jsonError(who.status, who.error);
    const visitor = ownerKey(who.owner);
    if (!visitor) return jsonError(403, 'no visitor cookie: vote from the chat the reply was shown in');
    const reason = parsed.data.reason && customerTextRedaction(deps.redactor(), deps.knowledge?.())(parsed.data.reason);
    try {
      const traces = deps.traces();
      const turn = await traces.getTurn(turnId);
      if (!turn || turn.visitorId !== visitor) return jsonError(404, 'no reply with this id in your conversations');
      if (turn.status === 'pending' || !turn.reply.trim()) return jsonError(409, 'this reply has not finished yet: vote once it has');
      await traces.setFeedback(turnId, { vote, ...(reason ? { reason } : {}), at: new Date().toISOString() });
    } catch (error) {
      console.error('[feedback] the trace store could not be written:', error);
      return jsonError(503, 'Feedback cannot be saved right now. Please try again later.');
    }
    return json({ turnId, vote, ...(reason ? { reason } : {}) });
  };
}
