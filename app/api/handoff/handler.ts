import { randomBytes } from 'node:crypto';
import { conversationOwner, ownerKey } from '@/lib/chat/owner';
import type { Env } from '@/lib/env';
import { errorText } from '@/lib/errors';
import { formatIssues } from '@/lib/format';
import { buildPayload } from '@/lib/handoff/payload';
import { bodyFailureResponse, json, jsonError, readJsonBody } from '@/lib/http';
import type { HandoffLimitDecision, HandoffLimits } from '@/lib/handoff/limits';
import { clientKey } from '@/lib/rate-limit/client';
import type { AssistantIdentity } from '@/lib/retrieval/index';
import type { ConversationStore } from '@/lib/store/ports/conversations';
import type { HandoffChannel, HandoffReason, HandoffRecord, HandoffStore } from '@/lib/store/ports/handoffs';
import type { TurnStore } from '@/lib/store/ports/turns';
import type { PageContext } from '@/lib/store/page';
import { HANDOFF_MAX_BODY_BYTES, handoffRequestSchema, NOTE_MAX_CHARS, type HandoffRequest } from './schema';

/**
 * The hand-off to a person (docs/handoff.md), with its dependencies passed in
 * (route.ts wires in the server's own; handler.test.ts runs it in-process):
 *
 * - GET /api/handoff?conversation=ID — what the widget shows: whether hand-offs are on, when a
 *   person answers (the identity file's `handoff_reply_time`), the identity's `handoff` text when
 *   they are off, and this visitor's hand-off of the conversation, if any.
 * - POST /api/handoff `{ conversationId, email, note?, reason, page? }` — written to the store
 *   with its deliveries *before* the answer (201), so a "sent" the customer sees is never lost;
 *   the delivery worker sends it. Refused, with nothing written or sent: 503 no channel set up;
 *   403 no visitor cookie; 429 over the visitor's, the address's or the site's limit
 *   (lib/handoff/limits.ts); 413 a body over
 *   the cap; 400 a malformed body, email or note; 404 a conversation of another visitor; 409 a
 *   conversation handed off already (the first hand-off comes back).
 */

export type HandoffSettings = Pick<Env, 'PUBLIC_URL' | 'HANDOFF_RETRY_SECONDS' | 'TRUST_PROXY'>;

export interface HandoffDependencies {
  settings: () => HandoffSettings;
  /** The channels set up (empty: hand-offs are off). */
  channels: () => readonly HandoffChannel[];
  store: () => Pick<TurnStore, 'listTurnsByConversation'> & ConversationStore & Pick<HandoffStore, 'createHandoff' | 'conversationHandoff'>;
  visitorSecret: () => Uint8Array;
  /** EMBED_IDENTITY_SECRET: a verified user of the embed hands off their conversations (lib/chat/owner.ts). */
  identitySecret?: () => string | undefined;
  /** Per visitor, per client address and per site (lib/handoff/limits.ts). */
  limits: () => HandoffLimits;
  /** The KB's identity: the company, when a person answers, the contact text; the defaults without a KB. */
  identity: () => Pick<AssistantIdentity, 'company' | 'handoff' | 'handoffReplyTime'>;
  /** The page the customer asked from, as it is stored and delivered (TRACE_REDACT, as a turn's page: lib/chat/redaction.ts). */
  pageAsStored: (page: PageContext) => PageContext;
  /** A hand-off was written: deliver it now (the worker's kick). */
  written: () => void;
  now?: () => Date;
}

/** What the customer's browser is told of a hand-off: never its deliveries or anyone else's. */
export interface CustomerHandoff {
  id: string;
  createdAt: string;
  email: string;
  reason: HandoffReason;
}

const customerView = (h: HandoffRecord): CustomerHandoff => ({ id: h.id, createdAt: h.createdAt, email: h.email, reason: h.reason });

const FROM = { visitor: 'from this browser', address: 'from your network', site: 'on this site right now' } as const;

/** 429 with Retry-After, saying which limit it is in words the customer can act on. */
function limitRefusal(refused: Extract<HandoffLimitDecision, { allowed: false }>): Response {
  const minutes = Math.ceil(refused.retryAfterSeconds / 60);
  return jsonError(429, `Too many requests for a person ${FROM[refused.scope]}. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`, {
    'retry-after': String(refused.retryAfterSeconds),
  });
}

/** A hand-off id: also the webhook id and the email's Message-ID (letters and digits, 128 random bits). */
export function newHandoffId(): string {
  return `ho_${randomBytes(16).toString('hex')}`;
}

function storeUnavailable(error: unknown): Response {
  console.error(`[handoff] the store could not be used: ${errorText(error)}`);
  return jsonError(503, 'A person cannot be reached from the chat right now. Please try again in a moment.');
}

export function createHandoffHandlers(deps: HandoffDependencies) {
  const now = deps.now ?? (() => new Date());

  async function get(request: Request): Promise<Response> {
    const identity = deps.identity();
    const conversationId = new URL(request.url).searchParams.get('conversation');
    let handoff: CustomerHandoff | null = null;
    const who = conversationOwner(request, { visitor: deps.visitorSecret(), identity: deps.identitySecret?.() });
    const visitor = who.ok ? ownerKey(who.owner) : undefined;
    if (visitor && conversationId) {
      try {
        const found = await deps.store().conversationHandoff(conversationId, visitor);
        handoff = found ? customerView(found) : null;
      } catch (error) {
        return storeUnavailable(error);
      }
    }
    return json({
      enabled: deps.channels().length > 0,
      company: identity.company ?? null,
      replyTime: identity.handoffReplyTime ?? null,
      contact: identity.handoff ?? null,
      noteMaxChars: NOTE_MAX_CHARS,
      handoff,
    });
  }

  async function post(request: Request): Promise<Response> {
    // 1. Guards before the body: hand-offs set up, a visitor, within the visitor's, the address's and the site's limits.
    const channels = deps.channels();
    if (channels.length === 0) {
      const contact = deps.identity().handoff;
      return jsonError(503, `Hand-off to a person is not set up on this site${contact ? `: ${contact}` : '.'}`);
    }
    const who = conversationOwner(request, { visitor: deps.visitorSecret(), identity: deps.identitySecret?.() });
    if (!who.ok) return jsonError(who.status, who.error);
    const visitor = ownerKey(who.owner);
    if (!visitor) return jsonError(403, 'no visitor cookie: ask for a person from the chat your conversation is in');
    const settings = deps.settings();
    const decision = await deps.limits().take({ visitor, client: clientKey(request.headers, settings.TRUST_PROXY).key });
    if (!decision.allowed) return limitRefusal(decision);

    // 2. The body: capped while read, then its shape, the email and the note.
    const body = await readJsonBody(request, HANDOFF_MAX_BODY_BYTES);
    if (!body.ok) {
      return body.status === 413
        ? bodyFailureResponse({ ...body, error: `the request is too large (at most ${HANDOFF_MAX_BODY_BYTES} bytes): the note can be at most ${NOTE_MAX_CHARS} characters` })
        : bodyFailureResponse(body);
    }
    const parsed = handoffRequestSchema.safeParse(body.value);
    if (!parsed.success) return jsonError(400, formatIssues(parsed.error.issues, 'body'));
    const asked: HandoffRequest = parsed.data;

    // 3. The conversation: this visitor's. One nobody has used yet may be handed off with a note (no question asked yet).
    const store = deps.store();
    let turns;
    try {
      turns = await store.listVisitorConversation(asked.conversationId, visitor);
      if (turns.length === 0 && (await store.listTurnsByConversation(asked.conversationId)).length > 0) {
        return jsonError(404, 'no conversation with this id in this browser: ask for a person from the chat your conversation is in');
      }
    } catch (error) {
      return storeUnavailable(error);
    }
    if (turns.length === 0 && !asked.note) return jsonError(400, 'note: tell us what you need help with (this conversation has no messages yet)');

    // 4. Written with its deliveries before the answer; then delivered.
    const createdAt = now();
    const id = newHandoffId();
    const page = asked.page && deps.pageAsStored(asked.page);
    const payload = buildPayload({
      id,
      conversationId: asked.conversationId,
      createdAt: createdAt.toISOString(),
      reason: asked.reason as HandoffReason,
      email: asked.email,
      note: asked.note || undefined,
      page,
      turns,
      publicUrl: settings.PUBLIC_URL!,
    });
    let result;
    try {
      result = await store.createHandoff({
        id,
        conversationId: asked.conversationId,
        visitorId: visitor,
        createdAt: createdAt.toISOString(),
        reason: asked.reason as HandoffReason,
        email: asked.email,
        ...(asked.note ? { note: asked.note } : {}),
        ...(page ? { page } : {}),
        payload: JSON.stringify(payload),
        channels: [...channels],
        retryUntil: new Date(createdAt.getTime() + settings.HANDOFF_RETRY_SECONDS * 1000).toISOString(),
      });
    } catch (error) {
      return storeUnavailable(error);
    }
    if (!result.created) {
      return json({ error: 'this conversation has been handed to a person already', handoff: customerView(result.handoff) }, { status: 409 });
    }
    deps.written();
    return json({ handoff: customerView(result.handoff) }, { status: 201 });
  }

  async function guarded(handle: (request: Request) => Promise<Response>, request: Request): Promise<Response> {
    try {
      return await handle(request);
    } catch (error) {
      console.error('[handoff] unexpected error:', error);
      return jsonError(500, 'Something went wrong on our side. Please try again.');
    }
  }

  return {
    GET: (request: Request) => guarded(get, request),
    POST: (request: Request) => guarded(post, request),
  };
}
