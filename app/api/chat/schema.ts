import { z } from 'zod';

/**
 * The chat request, as the widget sends it (components/chat/transport.ts):
 *
 *     { "conversationId": "…", "trigger": "submit-message",
 *       "messages": [{ "role": "user", "text": "can I get a refund?" }, …] }
 *
 * Only customer and assistant text: there is no way to send a system message, a prompt
 * or any setting. Sizes are bounded (CHAT_MAX_MESSAGES, CHAT_MAX_MESSAGE_CHARS) and the
 * last message must be the customer's.
 */

export const CONVERSATION_ID = /^[A-Za-z0-9_-]{8,64}$/;
export const conversationIdSchema = z
  .string({ error: 'conversationId must be a string' })
  .regex(CONVERSATION_ID, 'conversationId must be 8 to 64 letters, digits, "-" or "_"');

export interface ChatLimits {
  maxMessages: number;
  maxMessageChars: number;
}

export function chatRequestSchema({ maxMessages, maxMessageChars }: ChatLimits) {
  const message = z.strictObject(
    {
      role: z.enum(['user', 'assistant'], { error: 'role must be "user" or "assistant"' }),
      text: z
        .string({ error: 'text must be a string' })
        .max(maxMessageChars, `a message can be at most ${maxMessageChars} characters`),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}: a message has only role and text` : 'each message must be an object { role, text }') },
  );
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

/** Upper bound on the body size: every message at its longest, plus room for JSON and escapes. */
function maxBodyBytes({ maxMessages, maxMessageChars }: ChatLimits): number {
  return maxMessages * (maxMessageChars * 6 + 64) + 1024;
}

/** Reads and validates a chat request; never throws. */
export async function parseChatRequest(request: Request, limits: ChatLimits): Promise<ParsedChatRequest> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    return { ok: false, status: 415, error: 'the body must be JSON (content-type: application/json)' };
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  const cap = maxBodyBytes(limits);
  if (declared > cap) return { ok: false, status: 413, error: `the body is too large (at most ${cap} bytes)` };
  let text: string;
  try {
    text = await request.text();
  } catch {
    return { ok: false, status: 400, error: 'the body could not be read' };
  }
  if (text.length > cap) return { ok: false, status: 413, error: `the body is too large (at most ${cap} bytes)` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, status: 400, error: 'the body is not valid JSON' };
  }
  const result = chatRequestSchema(limits).safeParse(json);
  if (!result.success) return { ok: false, status: 400, error: readableZodError(result.error) };
  return { ok: true, data: result.data };
}
