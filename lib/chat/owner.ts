import { EMBED_HEADER, USER_HEADER, USER_SIGNATURE_HEADER, VISITOR_HEADER } from './embed-headers';
import { userOwnerKey, verifyIdentity } from './identity';
import { cookieValue, VISITOR_COOKIE, verifyVisitor } from './visitor';

/**
 * Whose conversations a request may read and continue: the key its turns are recorded under
 * (`TurnStart.visitorId`) and its history is read by.
 *
 * - A verified signed-in user (the embed's `x-support-user` and `x-support-user-signature`
 *   headers, identity.ts): `user:<id>`, the same on every device.
 * - Else the anonymous visitor of the signed cookie (visitor.ts), or of the same signed
 *   credential sent by the embed as `x-support-visitor` — its frame keeps it when the browser
 *   keeps no cookie for a third-party frame.
 * - Else nobody yet (a chat turn makes a new visitor).
 *
 * A request that claims a user and fails verification is refused (401, saying why), never
 * quietly served as someone else: the embed checks the identity first (GET /api/embed/session)
 * and falls back to anonymous itself.
 */

export { EMBED_HEADER, USER_HEADER, USER_SIGNATURE_HEADER, VISITOR_HEADER };

export type Owner =
  | { kind: 'user'; key: string; userId: string }
  | { kind: 'visitor'; key: string; via: 'cookie' | 'header' }
  | { kind: 'none' };

export type OwnerResult = { ok: true; owner: Owner; embed: boolean } | { ok: false; status: 401; error: string };

export interface OwnerSecrets {
  /** Signs visitor credentials (visitor.ts). */
  visitor: Uint8Array;
  /** EMBED_IDENTITY_SECRET; undefined: a claimed user is refused. */
  identity: string | undefined;
}

/** What a request says about whose it is, read from its headers (the embed flag, a claimed user, the visitor's credential). */
export interface OwnerCredentials {
  /** Sent from the embed's frame (`x-support-embed: 1`). */
  embed: boolean;
  /** The claimed user's percent-encoded id and its signature, as sent (null: not sent). */
  user: string | null;
  userSignature: string | null;
  /** The signed visitor credential of the cookie, and of the embed's header. */
  visitorCookie: string | undefined;
  visitorHeader: string | undefined;
}

export function ownerCredentials(headers: Headers): OwnerCredentials {
  return {
    embed: headers.get(EMBED_HEADER) === '1',
    user: headers.get(USER_HEADER),
    userSignature: headers.get(USER_SIGNATURE_HEADER),
    visitorCookie: cookieValue(headers.get('cookie'), VISITOR_COOKIE),
    visitorHeader: headers.get(VISITOR_HEADER) ?? undefined,
  };
}

function claimedUser({ user: encoded, userSignature: signature }: OwnerCredentials): { userId: string; signature: string } | { error: string } | undefined {
  if (encoded === null && signature === null) return undefined;
  if (encoded === null || signature === null) return { error: `send both ${USER_HEADER} and ${USER_SIGNATURE_HEADER}, or neither` };
  try {
    return { userId: decodeURIComponent(encoded), signature };
  } catch {
    return { error: `${USER_HEADER} must be the user id percent-encoded (encodeURIComponent)` };
  }
}

/** Whose conversations the request's credentials may read and continue. */
export function ownerOf(credentials: OwnerCredentials, secrets: OwnerSecrets): OwnerResult {
  const { embed } = credentials;
  const claim = claimedUser(credentials);
  if (claim && 'error' in claim) return { ok: false, status: 401, error: claim.error };
  if (claim) {
    const check = verifyIdentity(secrets.identity, claim);
    if (!check.ok) return { ok: false, status: 401, error: check.error };
    return { ok: true, owner: { kind: 'user', key: userOwnerKey(check.userId), userId: check.userId }, embed };
  }
  const fromCookie = verifyVisitor(secrets.visitor, credentials.visitorCookie);
  if (fromCookie) return { ok: true, owner: { kind: 'visitor', key: fromCookie, via: 'cookie' }, embed };
  const fromHeader = verifyVisitor(secrets.visitor, credentials.visitorHeader);
  if (fromHeader) return { ok: true, owner: { kind: 'visitor', key: fromHeader, via: 'header' }, embed };
  return { ok: true, owner: { kind: 'none' }, embed };
}

/** ownerOf the request's own credentials. */
export function conversationOwner(request: Request, secrets: OwnerSecrets): OwnerResult {
  return ownerOf(ownerCredentials(request.headers), secrets);
}

/** The owner's key, or undefined for nobody. */
export function ownerKey(owner: Owner): string | undefined {
  return owner.kind === 'none' ? undefined : owner.key;
}
