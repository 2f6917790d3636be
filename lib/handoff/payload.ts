import type { HandoffReason } from '../store/ports/handoffs';
import type { PageContext } from '../store/page';
import type { TurnStatus, TurnTrace } from '../store/ports/turns';

/**
 * What a hand-off delivers: one JSON document, built when the customer submits the form and
 * stored with the hand-off, so every attempt (and every channel) sends the same thing. The
 * webhook's body is this document; the email is its text (email.ts). Documented with an example
 * in docs/handoff.md "The webhook"; `type` and `timestamp` follow Standard Webhooks' suggested
 * shape (`{ type, timestamp, data }`).
 */

export const HANDOFF_EVENT = 'handoff.created';

export interface TranscriptEntry {
  role: 'customer' | 'assistant';
  text: string;
  /** ISO 8601: when the customer sent it, when the reply ended. */
  at: string;
  /** The turn it belongs to, and that turn on /debug. */
  turnId: string;
  debugUrl: string;
  /** A reply that did not end normally (`error`, `aborted`, still `pending`): what the customer saw of it. */
  status?: Exclude<TurnStatus, 'ok'>;
}

export interface HandoffPayload {
  type: typeof HANDOFF_EVENT;
  timestamp: string;
  data: {
    id: string;
    conversationId: string;
    createdAt: string;
    reason: HandoffReason;
    customer: { email: string; note: string | null };
    /** The page the customer was on, as their browser said (untrusted). */
    page: { url: string; title: string | null } | null;
    /** The conversation as the customer saw it, oldest first (a reply asked again replaces the one before). */
    transcript: TranscriptEntry[];
    links: { conversation: string; handoff: string };
  };
}

export interface PayloadInput {
  id: string;
  conversationId: string;
  createdAt: string;
  reason: HandoffReason;
  email: string;
  note?: string;
  page?: PageContext;
  /** The visitor's turns of the conversation, oldest first. */
  turns: readonly TurnTrace[];
  /** PUBLIC_URL: the base of the /debug links. */
  publicUrl: string;
}

/** An absolute link to a path of this app. */
export function appLink(publicUrl: string, path: string): string {
  return new URL(path, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`).toString();
}

/** The /debug paths a hand-off links to. */
export const debugPaths = {
  turn: (id: string) => `debug/turns/${encodeURIComponent(id)}`,
  conversation: (id: string) => `debug?conversation=${encodeURIComponent(id)}`,
  handoff: (id: string) => `debug/handoffs/${encodeURIComponent(id)}`,
};

/** The transcript as the customer saw it: a regenerated reply replaces the one before (as lib/chat/history.ts rebuilds it). */
export function transcriptOf(turns: readonly TurnTrace[], publicUrl: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (const turn of turns) {
    const debugUrl = appLink(publicUrl, debugPaths.turn(turn.id));
    if (turn.trigger === 'regenerate-message' && entries.at(-1)?.role === 'assistant') entries.pop();
    const last = entries.at(-1);
    const askedAgain = turn.trigger === 'regenerate-message' && last?.role === 'customer' && last.text === turn.question;
    if (!askedAgain) entries.push({ role: 'customer', text: turn.question, at: turn.createdAt, turnId: turn.id, debugUrl });
    if (turn.reply.trim()) {
      entries.push({
        role: 'assistant',
        text: turn.reply,
        at: turn.finishedAt ?? turn.createdAt,
        turnId: turn.id,
        debugUrl,
        ...(turn.status !== 'ok' ? { status: turn.status } : {}),
      });
    }
  }
  return entries;
}

export function buildPayload(input: PayloadInput): HandoffPayload {
  return {
    type: HANDOFF_EVENT,
    timestamp: input.createdAt,
    data: {
      id: input.id,
      conversationId: input.conversationId,
      createdAt: input.createdAt,
      reason: input.reason,
      customer: { email: input.email, note: input.note ?? null },
      page: input.page ? { url: input.page.url, title: input.page.title ?? null } : null,
      transcript: transcriptOf(input.turns, input.publicUrl),
      links: {
        conversation: appLink(input.publicUrl, debugPaths.conversation(input.conversationId)),
        handoff: appLink(input.publicUrl, debugPaths.handoff(input.id)),
      },
    },
  };
}

const REASONS: Record<HandoffReason, string> = {
  asked: 'the customer asked for a person',
  'thin-answers': 'the knowledge base matched the questions thinly',
  'down-vote': 'the customer down-voted a reply',
};

export function reasonText(reason: HandoffReason): string {
  return REASONS[reason];
}

/** The email's text: who, why, the note, the transcript, the links. */
export function payloadText(payload: HandoffPayload): string {
  const d = payload.data;
  const lines = [
    `A customer asked for a person in the support chat (${reasonText(d.reason)}).`,
    '',
    `Customer: ${d.customer.email} (reply to this email to answer them)`,
    `Conversation: ${d.conversationId}, handed off at ${d.createdAt}`,
    ...(d.page ? [`Page: ${d.page.title ? `${d.page.title} — ` : ''}${d.page.url}`] : []),
    '',
    'Note from the customer:',
    d.customer.note ? indent(d.customer.note) : '  (none)',
    '',
    'Transcript:',
  ];
  if (d.transcript.length === 0) lines.push('  (no messages: handed off before the first question)');
  for (const entry of d.transcript) {
    const who = entry.role === 'customer' ? 'Customer' : `Assistant${entry.status ? ` (${entry.status})` : ''}`;
    lines.push('', `${who}, ${entry.at}:`, indent(entry.text), `  → ${entry.debugUrl}`);
  }
  lines.push('', `On /debug: the conversation ${d.links.conversation}`, `and the hand-off ${d.links.handoff}`);
  return lines.join('\n');
}

const indent = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => `  ${line}`)
    .join('\n');
