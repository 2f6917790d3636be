import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Env } from '../env';
import { jsonError } from '../http';
import { ADMIN_FAILURES_GLOBAL_PER_MINUTE, ADMIN_FAILURES_PER_MINUTE, FailureThrottle } from './throttle';

/**
 * The credentials of /debug and /api/debug/*, as far as they can be told without the store
 * (proxy.ts, the first gate, imports this and nothing heavier):
 *
 * - ADMIN_TOKEN (16+ characters) as `Authorization: Bearer <token>` or the password of Basic
 *   auth: checked here, constant-time, behind the throttle (throttle.ts). The admin role.
 * - a named API key, `Bearer tsk_<id>_<secret>`: its shape here; the guard
 *   (lib/debug/access.ts) finds it in the store (api-keys.ts), with its role.
 * - a session cookie, `support_admin=<expiry ms>.<secret>.<hmac>`: its shape and expiry here;
 *   the guard checks the HMAC (keyed by the server secret: sessions.ts) and then the session's
 *   record in the store — which sign-out, an admin, or a member's removal ends.
 *
 * Sessions come from the sign-in form (ADMIN_TOKEN) or from the company's OpenID Connect
 * provider (oidc.ts). With neither ADMIN_TOKEN nor OIDC_ISSUER set, /debug is locked in
 * production and says how to enable it (an API key still works); under `next dev` it is open.
 */

export const ADMIN_COOKIE = 'support_admin';
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;

export type AdminAccess =
  /** ADMIN_TOKEN as Bearer or Basic (checked), or `next dev` with no credential configured. */
  | { ok: true; via: 'header' }
  | { ok: true; via: 'development' }
  /** Something shaped like an API key: the store decides. */
  | { ok: true; via: 'key'; key: string }
  /** A well-formed, unexpired session cookie: its signature and its record decide. */
  | { ok: true; via: 'cookie'; session: string }
  | { ok: false; reason: 'not-configured' | 'missing' | 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

export interface AdminSettings {
  token: string | undefined;
  /** Sign-in with the company's OpenID Connect provider is configured (OIDC_ISSUER). */
  oidc: boolean;
  production: boolean;
}

/** ADMIN_TOKEN and OIDC_ISSUER (validated with the rest of the environment in lib/env.ts) and the mode. */
export function adminSettings(env: Pick<Env, 'ADMIN_TOKEN' | 'OIDC_ISSUER'>): AdminSettings {
  return { token: env.ADMIN_TOKEN, oidc: Boolean(env.OIDC_ISSUER), production: process.env.NODE_ENV === 'production' };
}

/** Constant-time string equality (hashing first makes the lengths equal). */
export function secretsEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

/** SHA-256 hex: what the store keeps of a session's or an API key's secret (both are 256-bit random, so a fast hash is enough). */
export const secretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** A throttle on failed admin credentials with the server's limits (the server keeps one: lib/server/registry.ts). */
export function createAdminThrottle(): FailureThrottle {
  return new FailureThrottle({ perClientPerMinute: ADMIN_FAILURES_PER_MINUTE, globalPerMinute: ADMIN_FAILURES_GLOBAL_PER_MINUTE });
}

const SESSION_COOKIE = /^(\d{1,16})\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/;

function sign(key: Uint8Array, expiresAt: number, secret: string): string {
  return createHmac('sha256', key).update(`support-admin:${expiresAt}:${secret}`).digest('base64url');
}

/** A session cookie's value: `<expiry ms>.<secret>.<hmac>`, signed with the server's session key. */
export function sessionCookieValue(key: Uint8Array, secret: string, expiresAt: number): string {
  return `${expiresAt}.${secret}.${sign(key, expiresAt, secret)}`;
}

/**
 * The session secret a cookie carries, if it is well formed and unexpired — and, given the
 * key, signed with it (a forged cookie is refused without asking the store).
 */
export function sessionSecretOf(value: string, now = Date.now(), key?: Uint8Array): string | undefined {
  const match = SESSION_COOKIE.exec(value);
  if (!match) return undefined;
  const expiresAt = Number(match[1]);
  if (!(expiresAt > now)) return undefined;
  if (key && !secretsEqual(match[3]!, sign(key, expiresAt, match[2]!))) return undefined;
  return match[2]!;
}

/** The Set-Cookie of a session (the same rules for every way in): httpOnly, SameSite=Strict, Secure over HTTPS, 8 hours. */
export function sessionSetCookie(value: string, secure: boolean): string {
  return `${ADMIN_COOKIE}=${value}; Path=/; Max-Age=${SESSION_TTL_MS / 1000}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export const CLEAR_SESSION_COOKIE = `${ADMIN_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`;

/** An API key: `tsk_<12 hex id>_<43 base64url>`. */
export const API_KEY = /^tsk_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;

/** The secret carried by an Authorization header (Bearer token, or Basic auth's password). */
export function tokenFromAuthorization(header: string | null): string | undefined {
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
  /** Failed tokens are counted here, and refused unchecked while it says wait. */
  throttle?: FailureThrottle;
}

/**
 * A secret presented by a client (sign-in form, Authorization header), checked behind the
 * throttle: refused unchecked while the client (or the server) is throttled; a wrong one
 * counts as a failure.
 */
export function checkToken(presented: string, token: string | undefined, client: string, throttle: FailureThrottle | undefined, now = Date.now()): 'ok' | 'invalid' | { retryAfterSeconds: number } {
  const wait = throttle?.retryAfter(client, now) ?? 0;
  if (wait > 0) return { retryAfterSeconds: wait };
  if (token !== undefined && secretsEqual(presented, token)) return 'ok';
  throttle?.fail(client, now);
  return 'invalid';
}

/** The credential a request presents, as far as it can be told without the store (see the module comment). */
export function checkAdminAccess(request: AdminRequest, settings: AdminSettings, options: AccessOptions = {}): AdminAccess {
  const now = options.now ?? Date.now();
  const presented = tokenFromAuthorization(request.authorization);
  if (!settings.token && !settings.oidc && !settings.production) return { ok: true, via: 'development' };
  if (presented !== undefined) {
    const client = request.client ?? 'unknown';
    const wait = options.throttle?.retryAfter(client, now) ?? 0;
    if (wait > 0) return { ok: false, reason: 'throttled', retryAfterSeconds: wait };
    if (API_KEY.test(presented)) return { ok: true, via: 'key', key: presented };
    const result = checkToken(presented, settings.token, client, options.throttle, now);
    if (result === 'ok') return { ok: true, via: 'header' };
    return result === 'invalid' ? { ok: false, reason: 'invalid' } : { ok: false, reason: 'throttled', retryAfterSeconds: result.retryAfterSeconds };
  }
  if (!settings.token && !settings.oidc) return { ok: false, reason: 'not-configured' };
  if (request.sessionCookie === undefined) return { ok: false, reason: 'missing' };
  const secret = sessionSecretOf(request.sessionCookie, now);
  return secret ? { ok: true, via: 'cookie', session: request.sessionCookie } : { ok: false, reason: 'invalid' };
}

/** What a refused admin request is told (the API's JSON error, the sign-in page's message). */
export function refusalMessage(access: Extract<AdminAccess, { ok: false }>): string {
  switch (access.reason) {
    case 'throttled':
      return `Too many wrong admin tokens. Try again in ${access.retryAfterSeconds} second${access.retryAfterSeconds === 1 ? '' : 's'}.`;
    case 'not-configured':
      return 'The inspector is locked: set ADMIN_TOKEN (or OIDC_ISSUER) on the server to enable it.';
    case 'invalid':
      return 'Invalid admin credential.';
    case 'missing':
      return 'Admin credential required: sign in at /debug, or send Authorization: Bearer <ADMIN_TOKEN or API key>.';
  }
}

/** The 401 (or 429 with Retry-After) JSON answer for a refused admin API request. */
export function adminRefusal(access: Extract<AdminAccess, { ok: false }>): Response {
  const headers = access.reason === 'throttled' ? { 'retry-after': String(access.retryAfterSeconds) } : undefined;
  return jsonError(access.reason === 'throttled' ? 429 : 401, refusalMessage(access), headers);
}
