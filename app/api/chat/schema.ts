import { CONVERSATION_ID } from '@/lib/chat/message';
import { z } from 'zod';
import { languageOf } from '@/lib/retrieval/index';
import { readJsonBody, type BodyFailure } from '@/lib/http';

/**
 * The chat request: the AI SDK's standard chat body, as `DefaultChatTransport` sends it.
 *
 *     { "id": "<conversation id>", "trigger": "submit-message" | "regenerate-message",
 *       "messageId": "…"?, "messages": [UIMessage, …] }
 *
 * or its lean form, which sends only the newest message (what our widget sends,
 * components/chat/transport.ts, as vercel/chatbot does):
 *
 *     { "id": "…", "trigger": "submit-message", "message": UIMessage }
 *
 * The embed adds the page of the company's site it runs on, `"page": { "url", "title"? }`:
 * untrusted (any script on that page can say anything), so it is checked for shape and size,
 * stored with the turn and shown in /debug, and never sent to the model.
 *
 * Only one thing is taken from the client: the text of its newest customer message. The
 * model's history is the server's own record of the conversation (handler.ts), so earlier
 * messages a client sends — assistant turns above all — are checked for shape and ignored.
 * There is no way to send a system message, a prompt or a setting. Sizes are bounded
 * (CHAT_MAX_BODY_BYTES, CHAT_MAX_MESSAGES, CHAT_MAX_MESSAGE_CHARS), customer text must be
 * well-formed Unicode without control characters (tab and line breaks aside), only in
 * text parts, and the last message must be the customer's.
 */

export { CONVERSATION_ID };
export const conversationIdSchema = z
  .string({ error: 'id must be a string' })
  .regex(CONVERSATION_ID, 'the conversation id must be 8 to 64 letters, digits, "-" or "_"');

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

const unknownKeys = (what: string) => (issue: { code?: string; keys?: string[] }) =>
  issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys!.map((k) => `"${k}"`).join(', ')}${what}` : undefined;

/** Keys a customer's text part may have (the AI SDK adds `state` while a message streams). */
const TEXT_PART_KEYS = new Set(['type', 'text', 'state', 'providerMetadata']);

/** A UI message: its shape for any role; for a customer message, its text checked and joined. */
function uiMessageSchema({ maxMessageChars }: ChatLimits) {
  return z
    .strictObject(
      {
        id: z.string({ error: 'id must be a string' }).max(128, 'a message id can be at most 128 characters'),
        role: z.enum(['user', 'assistant'], { error: 'role must be "user" or "assistant"' }),
        parts: z
          .array(z.looseObject({ type: z.string({ error: 'each part needs a "type"' }) }), { error: 'parts must be an array' })
          .max(200, 'a message can have at most 200 parts'),
        metadata: z.unknown().optional(),
      },
      { error: (issue) => unknownKeys(': a message has only id, role, parts and metadata')(issue) ?? 'each message must be an object { id, role, parts }' },
    )
    .transform((m, ctx) => {
      if (m.role !== 'user') return { id: m.id, role: m.role, text: '' };
      let text = '';
      m.parts.forEach((part, i) => {
        const path = ['parts', i];
        if (part.type !== 'text') {
          ctx.addIssue({ code: 'custom', path: [...path, 'type'], message: `a customer message can only have text parts (got "${part.type}")` });
        } else if (typeof part.text !== 'string') {
          ctx.addIssue({ code: 'custom', path: [...path, 'text'], message: 'text must be a string' });
        } else {
          const extra = Object.keys(part).filter((k) => !TEXT_PART_KEYS.has(k));
          if (extra.length) ctx.addIssue({ code: 'custom', path, message: `unknown field ${extra.map((k) => `"${k}"`).join(', ')} in a text part` });
          const problem = textProblem(part.text);
          if (problem) ctx.addIssue({ code: 'custom', path: [...path, 'text'], message: problem });
          text += part.text;
        }
      });
      if (text.length > maxMessageChars) ctx.addIssue({ code: 'custom', path: ['parts'], message: `a message can be at most ${maxMessageChars} characters` });
      return { id: m.id, role: m.role, text };
    });
}

/** The embedding page's context (schema above): an http(s) URL and a title, bounded. */
export const MAX_PAGE_URL_CHARS = 2048;
export const MAX_PAGE_TITLE_CHARS = 300;

const pageSchema = z.strictObject(
  {
    url: z
      .string({ error: 'url must be a string' })
      .max(MAX_PAGE_URL_CHARS, `url can be at most ${MAX_PAGE_URL_CHARS} characters`)
      .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), 'url must be an absolute http(s) URL'),
    title: z
      .string({ error: 'title must be a string' })
      .max(MAX_PAGE_TITLE_CHARS, `title can be at most ${MAX_PAGE_TITLE_CHARS} characters`)
      .superRefine((title, ctx) => {
        const problem = textProblem(title);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
  },
  { error: (issue) => unknownKeys(': the page has only url and title')(issue) ?? 'page must be an object { url, title? }' },
);

export function chatRequestSchema(limits: ChatLimits) {
  const { maxMessages } = limits;
  const message = uiMessageSchema(limits);
  return z
    .strictObject(
      {
        id: conversationIdSchema,
        trigger: z
          .enum(['submit-message', 'regenerate-message'], { error: 'trigger must be "submit-message" or "regenerate-message"' })
          .default('submit-message'),
        messageId: z.string({ error: 'messageId must be a string' }).max(128, 'messageId can be at most 128 characters').optional(),
        messages: z
          .array(message, { error: 'messages must be an array' })
          .min(1, 'messages must not be empty')
          .max(maxMessages, `a conversation can have at most ${maxMessages} messages: start a new conversation`)
          .optional(),
        message: message.optional(),
        /** The language the widget shows (its `lang`): a hint for short questions (lib/retrieval/query/detect-language.ts). */
        lang: z.string({ error: 'lang must be a string' }).max(35, 'lang can be at most 35 characters').optional(),
        page: pageSchema.optional(),
      },
      { error: (issue) => unknownKeys('')(issue) ?? 'the body must be a JSON object' },
    )
    .transform((body, ctx) => {
      if ((body.messages === undefined) === (body.message === undefined)) {
        ctx.addIssue({ code: 'custom', path: [], message: 'send the conversation as "messages" (an array) or only the newest message as "message", not both or neither' });
        return z.NEVER;
      }
      const path: (string | number)[] = body.messages ? ['messages', body.messages.length - 1] : ['message'];
      const last = body.message ?? body.messages!.at(-1)!;
      if (last.role !== 'user') {
        ctx.addIssue({ code: 'custom', path: [...path, 'role'], message: 'the last message must be the customer\'s (role "user")' });
        return z.NEVER;
      }
      if (!last.text.trim()) {
        ctx.addIssue({ code: 'custom', path: [...path, 'parts'], message: 'the last message is empty' });
        return z.NEVER;
      }
      const title = body.page?.title?.trim();
      const page = body.page && { url: body.page.url, ...(title ? { title } : {}) };
      return { conversationId: body.id, trigger: body.trigger, messageId: body.messageId, question: last.text, lang: languageOf(body.lang), ...(page ? { page } : {}) };
    });
}

export type ChatRequest = z.infer<ReturnType<typeof chatRequestSchema>>;

/** `messages[2].parts[0].text: …` from a zod issue path. */
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

export type ParsedChatRequest = { ok: true; data: ChatRequest } | BodyFailure;

/**
 * The request schema for these limits, made once: building a zod schema (and its compiled
 * fast path) took more of a turn's CPU than the retrieval. The limits are settings, so one
 * entry: a change of settings makes the next one.
 */
let lastSchema: { maxMessages: number; maxMessageChars: number; schema: ReturnType<typeof chatRequestSchema> } | undefined;
function schemaFor(limits: ChatLimits): ReturnType<typeof chatRequestSchema> {
  if (lastSchema?.maxMessages !== limits.maxMessages || lastSchema.maxMessageChars !== limits.maxMessageChars) {
    lastSchema = { maxMessages: limits.maxMessages, maxMessageChars: limits.maxMessageChars, schema: chatRequestSchema(limits) };
  }
  return lastSchema.schema;
}

/** Reads and validates a chat request; never throws. */
export async function parseChatRequest(request: Request, limits: BodyLimits): Promise<ParsedChatRequest> {
  const body = await readJsonBody(request, limits.maxBodyBytes);
  if (!body.ok) return body;
  const result = schemaFor(limits).safeParse(body.value);
  if (!result.success) return { ok: false, status: 400, error: readableZodError(result.error) };
  return { ok: true, data: result.data };
}
