import { createHmac, randomBytes } from 'node:crypto';
import type { AdminSession, AdminSessionStore, SessionVia } from '../store/ports/sessions';
import type { Role } from '../store/ports/role';
import { secretHash, sessionCookieValue, sessionSecretOf, SESSION_TTL_MS } from './auth';

/**
 * Sign-in sessions as server-side records (the AdminSessionStore port): the cookie carries a
 * random 256-bit secret, signed with the session key; the store keeps the secret's SHA-256,
 * who signed in, the role and the expiry. Ending a session (sign-out, an admin on /debug,
 * a member's removal) refuses its cookie — and every copy of it — on every instance that
 * shares the store.
 */

/** The key session cookies are signed with: derived from the server secret (VISITOR_SECRET, shared by every instance). */
export function sessionKey(serverSecret: Uint8Array): Uint8Array {
  return createHmac('sha256', serverSecret).update('support-admin-session-v1').digest();
}

export async function startSession(
  store: AdminSessionStore,
  key: Uint8Array,
  who: { actor: string; role: Role; via: SessionVia },
  now = Date.now(),
): Promise<{ session: AdminSession; cookie: string }> {
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = now + SESSION_TTL_MS;
  const session: AdminSession = {
    id: randomBytes(8).toString('hex'),
    ...who,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(expiresAt).toISOString(),
  };
  await store.createSession({ ...session, secretHash: secretHash(secret) });
  return { session, cookie: sessionCookieValue(key, secret, expiresAt) };
}

/**
 * The live session a cookie belongs to. `forged` (checked without the store) when it is not
 * signed with `key` or has expired; undefined when the store knows no live session for it.
 * Throws when the store cannot be read.
 */
export async function sessionOfCookie(store: AdminSessionStore, key: Uint8Array, cookie: string, now = Date.now()): Promise<AdminSession | 'forged' | undefined> {
  const secret = sessionSecretOf(cookie, now, key);
  if (!secret) return 'forged';
  return store.findSession(secretHash(secret), new Date(now).toISOString());
}
