import { createHmac, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { Env } from '../env';
import type { EntryPolicy } from './membership';

/**
 * Sign-in to /debug with the company's OpenID Connect provider, through openid-client
 * (certified, maintained; Node 20 is its baseline): the authorization code flow with PKCE
 * (S256), a random `state` and `nonce`, all three kept in a short-lived signed cookie of this
 * browser (`support_oidc`, httpOnly, SameSite=Lax so that it comes back with the provider's
 * redirect, 10 minutes) and checked by openid-client on the way back — a tampered or replayed
 * `state`, a wrong `nonce` in the ID token, a code for another verifier are refused. Who may
 * enter and with which role: membership.ts. The routes: app/api/debug/oidc/{start,callback}.
 *
 * Loaded only by those routes and the composition root (lib/server/app.ts), never by the
 * proxy: openid-client and jose stay out of its bundle.
 */

export const OIDC_PENDING_COOKIE = 'support_oidc';
const PENDING_TTL_MS = 10 * 60 * 1000;
export const CALLBACK_PATH = '/api/debug/oidc/callback';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The registered redirect URI; unset: this site's CALLBACK_PATH, from the request. */
  redirectUri?: string;
  scopes: string;
  policy: EntryPolicy;
}

/** The provider's settings, or undefined when OIDC_ISSUER is not set (lib/env.ts requires the client's id and secret with it). */
export function oidcSettings(env: Env): OidcSettings | undefined {
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) return undefined;
  return {
    issuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    redirectUri: env.OIDC_REDIRECT_URI,
    scopes: env.OIDC_SCOPES,
    policy: {
      allowedDomains: env.OIDC_ALLOWED_DOMAINS ?? [],
      allowedGroups: env.OIDC_ALLOWED_GROUPS ?? [],
      adminGroups: env.OIDC_ADMIN_GROUPS ?? [],
      groupsClaim: env.OIDC_GROUPS_CLAIM,
      assumeEmailVerified: env.OIDC_ASSUME_EMAIL_VERIFIED,
    },
  };
}

/** A sign-in that did not complete, with a reason for the audit trail and the log (never shown to the visitor in detail). */
export class OidcSignInError extends Error {
  override readonly name = 'OidcSignInError';
}

interface Pending {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
  redirectUri: string;
  expiresAt: number;
}

export interface OidcSignIn {
  readonly settings: OidcSettings;
  /** Where to send the browser, and the pending cookie's value to set with it. */
  start(origin: string, next: string): Promise<{ url: string; pending: string }>;
  /** The ID token's claims (and the userinfo's, for a missing email) after the provider's redirect back; throws OidcSignInError. */
  finish(callbackUrl: URL, pending: string | undefined): Promise<{ claims: Record<string, unknown>; next: string }>;
}

export function createOidcSignIn(settings: OidcSettings, key: () => Uint8Array, now: () => number = Date.now): OidcSignIn {
  let config: Promise<client.Configuration> | undefined;
  // Discovery once; a failure (the provider down at start) is tried again on the next sign-in.
  const configuration = () =>
    (config ??= client
      .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
        timeout: 10,
        ...(settings.issuer.startsWith('http://') ? { execute: [client.allowInsecureRequests] } : {}),
      })
      .catch((error: unknown) => {
        config = undefined;
        throw new OidcSignInError(`the provider's discovery document could not be read: ${reason(error)}`);
      }));

  const seal = (p: Pending) => {
    const body = Buffer.from(JSON.stringify(p)).toString('base64url');
    return `${body}.${createHmac('sha256', key()).update(`oidc:${body}`).digest('base64url')}`;
  };
  const open = (value: string | undefined): Pending => {
    const [body, mac] = (value ?? '').split('.');
    const expected = body ? createHmac('sha256', key()).update(`oidc:${body}`).digest() : undefined;
    const given = Buffer.from(mac ?? '', 'base64url');
    if (!body || !expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new OidcSignInError('no sign-in was started in this browser (the pending cookie is missing or altered)');
    }
    const pending = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Pending;
    if (!(pending.expiresAt > now())) throw new OidcSignInError('the sign-in took longer than 10 minutes: start it again');
    return pending;
  };

  return {
    settings,
    async start(origin, next) {
      const pending: Pending = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
        next,
        redirectUri: settings.redirectUri ?? `${origin}${CALLBACK_PATH}`,
        expiresAt: now() + PENDING_TTL_MS,
      };
      const url = client.buildAuthorizationUrl(await configuration(), {
        redirect_uri: pending.redirectUri,
        scope: settings.scopes,
        code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url: url.href, pending: seal(pending) };
    },
    async finish(callbackUrl, value) {
      const pending = open(value);
      const config = await configuration();
      // The redirect URI the code was issued for, with the provider's answer (code, state, iss).
      const current = new URL(pending.redirectUri);
      current.search = callbackUrl.search;
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw new OidcSignInError(reason(error));
      }
      let claims: Record<string, unknown> = { ...tokens.claims() };
      if (typeof claims.email !== 'string' && config.serverMetadata().userinfo_endpoint) {
        try {
          claims = { ...(await client.fetchUserInfo(config, tokens.access_token, String(claims.sub))), ...claims };
        } catch (error) {
          throw new OidcSignInError(`the provider's userinfo could not be read: ${reason(error)}`);
        }
      }
      return { claims, next: pending.next };
    },
  };
}

/** What went wrong, for the audit trail and the log: the provider's error, or openid-client's message and its causes' (`invalid response encountered ← unexpected "state" response parameter value`). */
function reason(error: unknown): string {
  if (error instanceof client.AuthorizationResponseError) return `the provider answered ${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
  const messages: string[] = [];
  for (let e: unknown = error; e instanceof Error && messages.length < 4; e = e.cause) messages.push(e.message);
  return (messages.length ? messages.join(' ← ') : String(error)).slice(0, 300);
}

/** The pending cookie's Set-Cookie (SameSite=Lax: it must come back with the provider's cross-site redirect). */
export function pendingSetCookie(value: string, secure: boolean): string {
  return `${OIDC_PENDING_COOKIE}=${value}; Path=/api/debug/oidc; Max-Age=${PENDING_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export const CLEAR_PENDING_COOKIE = `${OIDC_PENDING_COOKIE}=; Path=/api/debug/oidc; Max-Age=0; HttpOnly; SameSite=Lax`;
