import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Env } from '../env';
import { jsonError } from '../http';
import { FailureThrottle } from './throttle';

/**
 * Admin access to /debug and /api/debug/*.
 *
 * The credential is one shared secret, ADMIN_TOKEN (at least 16 characters: lib/env.ts
 * refuses a shorter one at start). A support lead signs in once with a form; the server
 * answers with an httpOnly, SameSite=Strict cookie holding an expiry, the session
 * generation and an HMAC of both keyed by the token. The generation is kept server-side
 * (lib/admin/sessions.ts, in the database): signing out bumps it, so every cookie issued
 * before is refused by the pages' and APIs' own guard (lib/debug/access.ts); changing the
 * token signs everybody out too. Scripts may send the token instead as
 * `Authorization: Bearer <token>` or as the password of HTTP Basic auth. Every comparison
 * is constant-time, and failed tokens are throttled per address and globally (throttle.ts).
 *
 * With no ADMIN_TOKEN set, /debug is locked in production and says how to enable it;
 * under `next dev` it is open, so a developer can look without set-up.
 */

export const ADMIN_COOKIE = 'support_admin';
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;

export type AdminAccess =
  | { ok: true; via: 'cookie' | 'header' | 'development' }
  | { ok: false; reason: 'not-configured' | 'missing' | 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

export interface AdminSettings {
  token: string | undefined;
  production: boolean;
}

/** ADMIN_TOKEN (validated with the rest of the environment in lib/env.ts) and the mode. */
export function adminSettings(env: Pick<Env, 'ADMIN_TOKEN'>): AdminSettings {
  return { token: env.ADMIN_TOKEN, production: process.env.NODE_ENV === 'production' };
}

/** Constant-time string equality (hashing first makes the lengths equal). */
export function secretsEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

/** A throttle on failed admin tokens with the server's limits (the server keeps one: lib/server/registry.ts). */
export function createAdminThrottle(env: Pick<Env, 'ADMIN_FAILURES_PER_MINUTE' | 'ADMIN_FAILURES_GLOBAL_PER_MINUTE'>): FailureThrottle {
  return new FailureThrottle({ perClientPerMinute: env.ADMIN_FAILURES_PER_MINUTE, globalPerMinute: env.ADMIN_FAILURES_GLOBAL_PER_MINUTE });
}

function sign(token: string, expiresAt: number, generation: number): string {
  return createHmac('sha256', token).update(`support-admin:${expiresAt}:${generation}`).digest('base64url');
}

/** The cookie value for a new session: `<expiry ms>.<generation>.<hmac>`. */
export function createSessionValue(token: string, generation: number, now = Date.now(), ttlMs = SESSION_TTL_MS): string {
  const expiresAt = now + ttlMs;
  return `${expiresAt}.${generation}.${sign(token, expiresAt, generation)}`;
}

/**
 * True for a cookie signed with `token`, not expired, and — when `generation` is given —
 * of the current session generation (a cookie from before a sign-out is refused).
 */
export function verifySessionValue(token: string, value: string, now = Date.now(), generation?: number): boolean {
  const match = /^(\d{1,16})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return false;
  const expiresAt = Number(match[1]);
  const issued = Number(match[2]);
  if (generation !== undefined && issued !== generation) return false;
  return expiresAt > now && secretsEqual(match[3]!, sign(token, expiresAt, issued));
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

export interface AdminRequest {
  authorization: string | null;
  sessionCookie: string | undefined;
  /** The client's address key (lib/rate-limit/client.ts), for the throttle. */
  client?: string;
}

export interface AccessOptions {
  now?: number;
  /** The current session generation; without it a cookie's generation is not checked (the proxy's first gate). */
  generation?: number;
  /** Failed tokens are counted here, and refused unchecked while it says wait. */
  throttle?: FailureThrottle;
}

/**
 * A token presented by a client (sign-in form or Authorization header), checked behind the
 * throttle: refused unchecked while the client (or the server) is throttled; a wrong one
 * counts as a failure.
 */
export function checkToken(presented: string, token: string, client: string, throttle: FailureThrottle | undefined, now = Date.now()): 'ok' | 'invalid' | { retryAfterSeconds: number } {
  const wait = throttle?.retryAfter(client, now) ?? 0;
  if (wait > 0) return { retryAfterSeconds: wait };
  if (secretsEqual(presented, token)) return 'ok';
  throttle?.fail(client, now);
  return 'invalid';
}

/** Decides whether a request may see admin pages and APIs. */
export function checkAdminAccess(request: AdminRequest, settings: AdminSettings, options: AccessOptions = {}): AdminAccess {
  const now = options.now ?? Date.now();
  if (!settings.token) {
    return settings.production ? { ok: false, reason: 'not-configured' } : { ok: true, via: 'development' };
  }
  const presented = tokenFromAuthorization(request.authorization);
  if (presented !== undefined) {
    const result = checkToken(presented, settings.token, request.client ?? 'unknown', options.throttle, now);
    if (result === 'ok') return { ok: true, via: 'header' };
    return result === 'invalid' ? { ok: false, reason: 'invalid' } : { ok: false, reason: 'throttled', retryAfterSeconds: result.retryAfterSeconds };
  }
  if (request.sessionCookie === undefined) return { ok: false, reason: 'missing' };
  return verifySessionValue(settings.token, request.sessionCookie, now, options.generation)
    ? { ok: true, via: 'cookie' }
    : { ok: false, reason: 'invalid' };
}

/** What a refused admin request is told (the API's JSON error, the sign-in page's message). */
export function refusalMessage(access: Extract<AdminAccess, { ok: false }>): string {
  switch (access.reason) {
    case 'throttled':
      return `Too many wrong admin tokens. Try again in ${access.retryAfterSeconds} second${access.retryAfterSeconds === 1 ? '' : 's'}.`;
    case 'not-configured':
      return 'The inspector is locked: set ADMIN_TOKEN on the server to enable it.';
    case 'invalid':
      return 'Invalid admin credential.';
    case 'missing':
      return 'Admin credential required: sign in at /debug, or send Authorization: Bearer <ADMIN_TOKEN>.';
  }
}

/** The 401 (or 429 with Retry-After) JSON answer for a refused admin API request. */
export function adminRefusal(access: Extract<AdminAccess, { ok: false }>): Response {
  const headers = access.reason === 'throttled' ? { 'retry-after': String(access.retryAfterSeconds) } : undefined;
  return jsonError(access.reason === 'throttled' ? 429 : 401, refusalMessage(access), headers);
}
