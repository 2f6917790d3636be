import type { Member } from '../store/ports/members';
import type { Role } from '../store/ports/role';

/**
 * Who may enter /debug through the company's OpenID Connect provider, and with which role,
 * from the ID token's claims, the settings and the members list an admin keeps:
 *
 * 1. no email in the claims: refused;
 * 2. an email the provider has not verified (`email_verified` is not `true`; a missing claim
 *    counts only with OIDC_ASSUME_EMAIL_VERIFIED): refused — every rule below trusts the
 *    address, and anyone can register an account at many providers with someone else's;
 * 3. a member entry decides when there is one: its role, or `none` (refused);
 * 4. otherwise an email in OIDC_ALLOWED_DOMAINS or a group in OIDC_ALLOWED_GROUPS (the
 *    OIDC_GROUPS_CLAIM claim) lets them in — as admin with a group in OIDC_ADMIN_GROUPS, else
 *    as viewer;
 * 5. anyone else is refused.
 */

export interface EntryPolicy {
  allowedDomains: readonly string[];
  allowedGroups: readonly string[];
  adminGroups: readonly string[];
  groupsClaim: string;
  /** OIDC_ASSUME_EMAIL_VERIFIED: a provider that never sends `email_verified` (its addresses are all its own); an explicit `false` still refuses. */
  assumeEmailVerified: boolean;
}

export type Entry = { ok: true; email: string; role: Role; because: string } | { ok: false; email?: string; reason: string };

function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  return typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : [];
}

/** True when the provider vouches for the address: the boolean `true`, or no claim at all under OIDC_ASSUME_EMAIL_VERIFIED. */
function emailVerified(claims: Record<string, unknown>, policy: EntryPolicy): boolean {
  return claims.email_verified === true || (policy.assumeEmailVerified && claims.email_verified === undefined);
}

export function decideEntry(claims: Record<string, unknown>, policy: EntryPolicy, member: Member | undefined): Entry {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email.includes('@')) return { ok: false, reason: 'the identity provider sent no email address' };
  if (!emailVerified(claims, policy)) return { ok: false, email, reason: 'the email address is not verified' };
  if (member) {
    return member.role === 'none' ? { ok: false, email, reason: 'removed from the members list' } : { ok: true, email, role: member.role, because: 'members list' };
  }
  const groups = groupsOf(claims, policy.groupsClaim);
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const byDomain = policy.allowedDomains.includes(domain);
  const byGroup = groups.some((g) => policy.allowedGroups.includes(g));
  if (!byDomain && !byGroup) return { ok: false, email, reason: 'outside the allowed domains and groups' };
  const admin = groups.some((g) => policy.adminGroups.includes(g));
  return { ok: true, email, role: admin ? 'admin' : 'viewer', because: admin ? 'admin group' : byDomain ? 'allowed domain' : 'allowed group' };
}
