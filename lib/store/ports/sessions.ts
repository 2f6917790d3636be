import type { Role } from './role';

/**
 * Sign-in sessions of /debug (docs/security.md "Who can do what"): kept server-side, each
 * cookie holding a secret whose SHA-256 is stored, never the secret.
 */

/** How a session was signed in: the ADMIN_TOKEN form, or the company's OpenID Connect provider. */
export type SessionVia = 'token' | 'oidc';

/** A sign-in session, kept server-side: its cookie holds a secret whose SHA-256 is stored, never the secret. */
export interface AdminSession {
  /** Public id (shown on /debug, used to end it); not the cookie's secret. */
  id: string;
  /** Who: `admin-token`, or the person's email. */
  actor: string;
  role: Role;
  via: SessionVia;
  createdAt: string;
  expiresAt: string;
  endedAt?: string;
}

export interface AdminSessionStore {
  createSession(session: AdminSession & { secretHash: string }): Promise<void>;
  /** The session whose secret hashes to `secretHash`, if it is neither ended nor expired at `now` (ISO 8601). */
  findSession(secretHash: string, now: string): Promise<AdminSession | undefined>;
  /** Ends one session; false if it was unknown or already ended. */
  endSession(id: string, at: string): Promise<boolean>;
  /** Ends every live session of `actor`; returns how many. */
  endSessionsOf(actor: string, at: string): Promise<number>;
  /** Gives `actor`'s live sessions another role; returns how many. */
  setSessionsRole(actor: string, role: Role): Promise<number>;
  /** The live sessions at `now`, newest first. */
  listSessions(now: string): Promise<AdminSession[]>;
}
