import { z } from 'zod';

/**
 * The chat request, as the widget sends it (components/chat/transport.ts):
 *
 *     { "conversationId": "…", "trigger": "submit-message",
 *       "messages": [{ "role": "user", "text": "can I get a refund?" }, …] }
 *
 * Only customer and assistant text: there is no way to send a system message, a prompt
 * or any setting. Sizes are bounded (CHAT_MAX_BODY_BYTES, CHAT_MAX_MESSAGES,
 * CHAT_MAX_MESSAGE_CHARS), text must be well-formed Unicode without control characters
 * (tab and line breaks aside), and the last message must be the customer's.
 */

export const CONVERSATION_ID = /^[A-Za-z0-9_-]{8,64}$/;
export const conversationIdSchema = z
  .string({ error: 'conversationId must be a string' })
  .regex(CONVERSATION_ID, 'conversationId must be 8 to 64 letters, digits, "-" or "_"');

export interface ChatLimits {
  maxMessages: number;
  maxMessageChars: number;
}

export interface BodyLimits extends ChatLimits {
  /** Largest body in bytes (413 above it). */
  maxBodyBytes: number;
}

/** C0 control characters and DEL, except tab, line feed and carriage return. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Why a message text is not plain text, or undefined when it is. */
export function textProblem(text: string): string | undefined {
  if (!text.isWellFormed()) return 'contains an unpaired UTF-16 surrogate: not valid Unicode text';
  const control = CONTROL.exec(text);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return `contains the control character U+${code}, which a chat message cannot have`;
  }
  return undefined;
}

/** Marks where an earlier assistant reply was cut to the message length limit. */
export const CUT_MARK = ' […]';

/** The first `max` UTF-16 units of `text` (one fewer rather than half a surrogate pair), then CUT_MARK. */
function cut(text: string, max: number): string {
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end) + CUT_MARK;
}

export function chatRequestSchema({ maxMessages, maxMessageChars }: ChatLimits) {
  const message = z
    .strictObject(
      {
        role: z.enum(['user', 'assistant'], { error: 'role must be "user" or "assistant"' }),
        text: z.string({ error: 'text must be a string' }).superRefine((text, ctx) => {
          const problem = textProblem(text);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
      },
      { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}: a message has only role and text` : 'each message must be an object { role, text }') },
    )
    .superRefine((m, ctx) => {
      if (m.role === 'user' && m.text.length > maxMessageChars) {
        ctx.addIssue({ code: 'custom', path: ['text'], message: `a message can be at most ${maxMessageChars} characters` });
      }
    })
    // An earlier reply longer than the limit (a model can write one) is cut, not refused:
    // refusing it would end the conversation for the customer. The body size stays bounded
    // by CHAT_MAX_BODY_BYTES.
    .transform((m) => (m.role === 'assistant' && m.text.length > maxMessageChars ? { ...m, text: cut(m.text, maxMessageChars) } : m));
  return z
    .strictObject(
      {
        conversationId: conversationIdSchema,
        trigger: z
          .enum(['submit-message', 'regenerate-message'], { error: 'trigger must be "submit-message" or "regenerate-message"' })
          .default('submit-message'),
        messages: z
          .array(message, { error: 'messages must be an array' })
          .min(1, 'messages must not be empty')
          .max(maxMessages, `a conversation can have at most ${maxMessages} messages: start a new conversation`),
      },
      { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}` : 'the body must be a JSON object') },
    )
    .superRefine((body, ctx) => {
      const last = body.messages.at(-1);
      if (last && last.role !== 'user') {
        ctx.addIssue({ code: 'custom', path: ['messages', body.messages.length - 1, 'role'], message: 'the last message must be the customer\'s (role "user")' });
      } else if (last && !last.text.trim()) {
        ctx.addIssue({ code: 'custom', path: ['messages', body.messages.length - 1, 'text'], message: 'the last message is empty' });
      }
    });
}

export type ChatRequest = z.infer<ReturnType<typeof chatRequestSchema>>;

/** `messages[2].text: …` from a zod issue path. */
function where(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

/** One readable sentence for a zod error: each problem prefixed with where it is. */
export function readableZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${where(issue.path)}: ${issue.message}` : issue.message))
    .join('; ');
}

export type ParsedChatRequest =
  | { ok: true; data: ChatRequest }
  | { ok: false; status: 400 | 413 | 415; error: string };

type Failure = Extract<ParsedChatRequest, { ok: false }>;

const fail = (status: Failure['status'], error: string): Failure => ({ ok: false, status, error });

/**
 * The body's bytes, counted as they arrive: past `maxBytes` reading stops and the answer is
 * 413, so an oversized (or endless) body is never held in memory. A declared
 * Content-Length over the limit is refused before reading anything. The rest of an
 * oversized body is left unread (not cancelled: cancelling would reset the connection
 * before the 413 reaches the client).
 */
export async function readBody(request: Request, maxBytes: number): Promise<{ ok: true; bytes: Uint8Array } | Failure> {
  const tooLarge = () => fail(413, `the body is too large: at most ${maxBytes} bytes`);
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) return tooLarge();
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) return tooLarge();
      chunks.push(value);
    }
  } catch {
    return fail(400, 'the body could not be read');
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/** `application/json`, optionally with `charset=utf-8`; anything else is a 415. */
function contentTypeProblem(type: string | null): string | undefined {
  const [essence, ...params] = (type ?? '').split(';').map((p) => p.trim().toLowerCase());
  if (essence !== 'application/json') return 'the body must be JSON (content-type: application/json)';
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return `the body must be UTF-8 JSON (got charset=${charset})`;
  return undefined;
}

/** Reads and validates a chat request; never throws. */
export async function parseChatRequest(request: Request, limits: BodyLimits): Promise<ParsedChatRequest> {
  const typeProblem = contentTypeProblem(request.headers.get('content-type'));
  if (typeProblem) return fail(415, typeProblem);
  const body = await readBody(request, limits.maxBodyBytes);
  if (!body.ok) return body;
  if (body.bytes.byteLength === 0) return fail(400, 'the body is empty: send a JSON object');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body.bytes);
  } catch {
    return fail(400, 'the body is not valid UTF-8');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail(400, 'the body is not valid JSON');
  }
  const result = chatRequestSchema(limits).safeParse(json);
  if (!result.success) return fail(400, readableZodError(result.error));
  return { ok: true, data: result.data };
}
