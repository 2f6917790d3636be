import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { env } from '../env';

/**
 * Admin access to /debug and /api/debug/*.
 *
 * The credential is one shared secret, ADMIN_TOKEN. A support lead signs in once with a
 * form; the server answers with an httpOnly, SameSite=Strict cookie holding an expiry and
 * an HMAC of it keyed by the token (no server-side session store; changing the token signs
 * everybody out). Scripts may send the token instead as `Authorization: Bearer <token>`
 * or as the password of HTTP Basic auth. Every comparison is constant-time.
 *
 * With no ADMIN_TOKEN set, /debug is locked in production and says how to enable it;
 * under `next dev` it is open, so a developer can look without set-up.
 */

export const ADMIN_COOKIE = 'lumacast_admin';
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;

export type AdminAccess =
  | { ok: true; via: 'cookie' | 'header' | 'development' }
  | { ok: false; reason: 'not-configured' | 'missing' | 'invalid' };

export interface AdminSettings {
  token: string | undefined;
  production: boolean;
}

/** ADMIN_TOKEN (validated with the rest of the environment in lib/env.ts) and the mode. */
export function adminSettings(): AdminSettings {
  return { token: env().ADMIN_TOKEN, production: process.env.NODE_ENV === 'production' };
}

/** Constant-time string equality (hashing first makes the lengths equal). */
export function secretsEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

function sign(token: string, expiresAt: number): string {
  return createHmac('sha256', token).update(`lumacast-admin:${expiresAt}`).digest('base64url');
}

/** The cookie value for a new session: `<expiry ms>.<hmac>`. */
export function createSessionValue(token: string, now = Date.now(), ttlMs = SESSION_TTL_MS): string {
  const expiresAt = now + ttlMs;
  return `${expiresAt}.${sign(token, expiresAt)}`;
}

export function verifySessionValue(token: string, value: string, now = Date.now()): boolean {
  const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return false;
  const expiresAt = Number(match[1]);
  return expiresAt > now && secretsEqual(match[2]!, sign(token, expiresAt));
}

/** The secret carried by an Authorization header (Bearer token, or Basic auth's password). */
function tokenFromAuthorization(header: string | null): string | undefined {
  if (!header) return undefined;
  const match = /^(\S+)\s+(.+)$/.exec(header.trim());
  if (!match) return undefined;
  const [, scheme, value] = match as unknown as [string, string, string];
  if (scheme.toLowerCase() === 'bearer') return value;
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : undefined;
  }
  return undefined;
}

/** Decides whether a request may see admin pages and APIs. */
export function checkAdminAccess(
  request: { authorization: string | null; sessionCookie: string | undefined },
  settings: AdminSettings,
  now = Date.now(),
): AdminAccess {
  if (!settings.token) {
    return settings.production ? { ok: false, reason: 'not-configured' } : { ok: true, via: 'development' };
  }
  const presented = tokenFromAuthorization(request.authorization);
  if (presented !== undefined) {
    return secretsEqual(presented, settings.token) ? { ok: true, via: 'header' } : { ok: false, reason: 'invalid' };
  }
  if (request.sessionCookie === undefined) return { ok: false, reason: 'missing' };
  return verifySessionValue(settings.token, request.sessionCookie, now)
    ? { ok: true, via: 'cookie' }
    : { ok: false, reason: 'invalid' };
}
