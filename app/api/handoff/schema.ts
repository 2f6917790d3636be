import { z } from 'zod';
import { MAX_PAGE_TITLE_CHARS, MAX_PAGE_URL_CHARS } from '../chat/schema';
import { CONVERSATION_ID } from '@/lib/chat/message';
import { HANDOFF_REASONS } from '@/lib/store/ports/handoffs';

/**
 * POST /api/handoff: `{ conversationId, email, note?, reason, page? }` — the customer asks for a
 * person to take over this conversation (components/chat/handoff-form.tsx).
 */

/** The longest note, in characters (the form says so); the body cap leaves room for it in any script. */
export const NOTE_MAX_CHARS = 2000;
/** RFC 5321's limit on a path: no address is longer. */
export const EMAIL_MAX_CHARS = 254;
/** The body: the note at 4 UTF-8 bytes a character, the page and the rest of the JSON. */
export const HANDOFF_MAX_BODY_BYTES = 16 * 1024;

// Control characters (other than tab and newline) and lone surrogates: never stored, never mailed.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const handoffRequestSchema = z.strictObject(
  {
    conversationId: z.string({ error: 'conversationId must be the chat\'s conversation id (a string)' }).regex(CONVERSATION_ID, 'conversationId must be 8 to 64 letters, digits, "-" or "_"'),
    email: z
      .string({ error: 'email must be your email address (a string)' })
      .trim()
      .max(EMAIL_MAX_CHARS, `email can be at most ${EMAIL_MAX_CHARS} characters`)
      .pipe(z.email({ error: 'email must be an email address such as name@example.com' })),
    note: z
      .string({ error: 'note must be text' })
      .trim()
      .max(NOTE_MAX_CHARS, `note can be at most ${NOTE_MAX_CHARS} characters`)
      .refine((text) => !CONTROL.test(text), 'note contains a control character')
      .optional(),
    reason: z.enum(HANDOFF_REASONS as [string, ...string[]], { error: `reason must be one of ${HANDOFF_REASONS.map((r) => `"${r}"`).join(', ')}` }),
    // The same bounds as the page the chat records with each turn (the embed sends the same page to both).
    page: z
      .strictObject({
        url: z.url({ protocol: /^https?$/, error: 'page.url must be the http(s) address of the page' }).max(MAX_PAGE_URL_CHARS, `page.url can be at most ${MAX_PAGE_URL_CHARS} characters`),
        title: z.string().trim().max(MAX_PAGE_TITLE_CHARS, `page.title can be at most ${MAX_PAGE_TITLE_CHARS} characters`).refine((t) => !CONTROL.test(t), 'page.title contains a control character').optional(),
      })
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}: send conversationId, email, note, reason and page`
        : 'the body must be a JSON object { conversationId, email, note?, reason, page? }',
  },
);

export type HandoffRequest = z.infer<typeof handoffRequestSchema>;
