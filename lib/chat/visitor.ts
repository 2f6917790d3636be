import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { secretsEqual } from '../admin/auth';

/**
 * The anonymous visitor credential: who owns a conversation.
 *
 * The chat route gives every browser, on its first chat request, a random visitor id in an
 * httpOnly, SameSite=Lax cookie (in the embed frame: SameSite=None; Secure; Partitioned) signed with the server's visitor secret
 * (`support_visitor=<id>.<hmac>`). Each turn is recorded with that visitor id, and a
 * conversation is read or continued only with its id *and* the cookie it was started with:
 * for any other pair it is empty (the same answer as for an id nobody used, so nothing says
 * whether a conversation exists). No account, no personal data: clearing cookies or using
 * another browser starts afresh.
 *
 * The signing secret is derived from VISITOR_SECRET when set (needed when several instances
 * serve the same site), else a random 256-bit secret created once and kept in
 * `<data dir>/visitor-secret` (the folder of TRACE_DB_PATH, file mode 0600).
 */

export const VISITOR_COOKIE = 'support_visitor';
/** One year: the conversation id in localStorage lives as long. */
export const VISITOR_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

const VISITOR_ID = /^[A-Za-z0-9_-]{22}$/;

function mac(secret: Uint8Array, id: string): string {
  return createHmac('sha256', secret).update(`support-visitor:${id}`).digest('base64url');
}

/** A fresh visitor id: 128 random bits, base64url. */
export function newVisitorId(): string {
  return randomBytes(16).toString('base64url');
}

/** The cookie value for a visitor id. */
export function signVisitor(secret: Uint8Array, id: string): string {
  return `${id}.${mac(secret, id)}`;
}

/** The visitor id of a cookie value, or undefined if it is malformed or not signed by `secret`. */
export function verifyVisitor(secret: Uint8Array, value: string | undefined): string | undefined {
  const match = value === undefined ? null : /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match || !VISITOR_ID.test(match[1]!)) return undefined;
  return secretsEqual(match[2]!, mac(secret, match[1]!)) ? match[1] : undefined;
}

/** One cookie's value from a Cookie header. */
export function cookieValue(header: string | null, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The Set-Cookie header that gives a browser its visitor credential. In the embed frame (a
 * third-party context on the company's site) it is `SameSite=None; Secure; Partitioned` (CHIPS):
 * kept per top-level site, so it works where browsers block third-party cookies, and never
 * follows the visitor from one site to another. Browsers accept Secure from http://localhost
 * and 127.0.0.1; on other plain-http hosts they drop it, and the embed's own credential
 * (owner.ts VISITOR_HEADER) carries the conversation instead.
 */
export function visitorSetCookie(secret: Uint8Array, id: string, secure: boolean, embed = false): string {
  const attributes = embed ? 'SameSite=None; Secure; Partitioned' : `SameSite=Lax${secure ? '; Secure' : ''}`;
  return `${VISITOR_COOKIE}=${signVisitor(secret, id)}; Path=/; Max-Age=${VISITOR_MAX_AGE_SECONDS}; HttpOnly; ${attributes}`;
}

/**
 * The visitor signing secret: HMAC(VISITOR_SECRET) when set, else the random one kept in
 * `dataDir/visitor-secret` (created on first use; a second process racing to create it
 * reads the winner's).
 */
export function loadVisitorSecret(options: { envSecret: string | undefined; dataDir: string }): Buffer {
  if (options.envSecret) return createHmac('sha256', options.envSecret).update('support-visitor-secret-v1').digest();
  const file = path.join(options.dataDir, 'visitor-secret');
  if (!existsSync(file)) {
    mkdirSync(options.dataDir, { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const hex = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${file} is not a visitor secret (64 hex digits): delete it to create a new one`);
  return Buffer.from(hex, 'hex');
}
