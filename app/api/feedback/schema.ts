import { z } from 'zod';

/** POST /api/feedback: `{ turnId, vote: "up" | "down", reason? }` — a vote on one reply of the visitor's conversation. */

export const REASON_MAX_CHARS = 300;

// Control characters (other than tab and newline) and lone surrogates: never stored.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const feedbackSchema = z.strictObject(
  {
    turnId: z.string({ error: 'turnId must be the id of a reply (a string)' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'turnId must be 1 to 64 letters, digits, "-" or "_"'),
    vote: z.enum(['up', 'down'], { error: 'vote must be "up" or "down"' }),
    reason: z
      .string({ error: 'reason must be a string' })
      .trim()
      .max(REASON_MAX_CHARS, `reason can be at most ${REASON_MAX_CHARS} characters`)
      .refine((text) => !CONTROL.test(text), 'reason contains a control character')
      .optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}: send turnId, vote and reason` : 'the body must be a JSON object { turnId, vote, reason? }') },
);

export type FeedbackRequest = z.infer<typeof feedbackSchema>;
