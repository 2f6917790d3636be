import { createHmac } from 'node:crypto';
import { secretsEqual } from '../admin/auth';

/**
 * Identity for signed-in customers of an embedding site (docs/embedding.md "Signed-in customers"):
 * the company's backend signs its user id with EMBED_IDENTITY_SECRET — HMAC-SHA256, hex, as the
 * common support widgets do — and its page passes `{ userId, signature }` to the embed. A valid
 * pair binds the customer's conversations to the user (conversationOwner) instead of the
 * anonymous visitor, so their history follows them to any device. Only the id is signed: a
 * name or e-mail the page passes is shown in the widget, never trusted or stored.
 */

/** The user id as the page may pass it: printable, at most 200 characters. */
export const MAX_USER_ID_CHARS = 200;

/** What the company's backend computes for a signed-in user: HMAC-SHA256(secret, userId), hex. */
export function signUserId(secret: string, userId: string): string {
  return createHmac('sha256', secret).update(userId, 'utf8').digest('hex');
}

export type IdentityCheck = { ok: true; userId: string } | { ok: false; error: string };

const FALLBACK = 'the chat continues anonymously';

/** Checks a claimed identity; the error says what is wrong (never the secret or the expected signature). */
export function verifyIdentity(secret: string | undefined, claim: { userId: string; signature: string }): IdentityCheck {
  const { userId, signature } = claim;
  if (!secret) return { ok: false, error: `identity verification is off on this server (EMBED_IDENTITY_SECRET is not set): ${FALLBACK}` };
  if (userId.length === 0 || userId.length > MAX_USER_ID_CHARS || /[\u0000-\u001f\u007f]/.test(userId) || !userId.isWellFormed()) {
    return { ok: false, error: `userId must be 1 to ${MAX_USER_ID_CHARS} printable characters: ${FALLBACK}` };
  }
  if (!/^[0-9a-f]{64}$/i.test(signature)) return { ok: false, error: `the signature must be 64 hex digits (HMAC-SHA256 of the user id): ${FALLBACK}` };
  if (!secretsEqual(signature.toLowerCase(), signUserId(secret, userId))) {
    return { ok: false, error: `the signature does not match this user id (sign it with EMBED_IDENTITY_SECRET, HMAC-SHA256, hex): ${FALLBACK}` };
  }
  return { ok: true, userId };
}

/** The owner key a verified user's turns are recorded under: defined by the store, which finds a user's data by it. */
export { userOwnerKey } from '../store/ports/turns';
