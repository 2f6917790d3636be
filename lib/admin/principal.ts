import type { Role } from '../store/ports/role';

/**
 * Who is using /debug, as the guard (lib/debug/access.ts) resolved them: what they may do
 * (their role), how they came in, and from where — everything the audit trail records.
 */
export interface Principal {
  /** `admin-token`, `key:<name>`, a person's email, or `development`. */
  actor: string;
  role: Role;
  via: 'token' | 'key' | 'oidc' | 'development';
  /** The session (token or OIDC sign-in) the request came with, if any. */
  sessionId?: string;
  /** The API key the request came with, if any. */
  keyId?: string;
  /** The client address (lib/rate-limit/client.ts). */
  source: string;
}

const RANK: Record<Role, number> = { viewer: 1, admin: 2 };

/** True when `role` includes everything `needed` may do (admin ⊃ viewer). */
export const roleAllows = (role: Role, needed: Role): boolean => RANK[role] >= RANK[needed];

/** What each role may do, for /debug and docs/security.md. */
export const ROLE_ABILITIES: Record<Role, string> = {
  viewer: 'reads turns and conversations, knowledge base health and tests, and tries questions',
  admin: 'also manages API keys, members and sessions, reads the audit trail, retries hand-offs, and exports and deletes customer data',
};
