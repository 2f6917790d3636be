import { z } from 'zod';
import type { ApiKey } from '../store/ports/api-keys';
import type { Member } from '../store/ports/members';
import type { ServerStore } from '../store/server-store';
import { apiKeyNameProblem, createApiKey } from './api-keys';
import { audit } from './audit';
import type { Principal } from './principal';

/**
 * What an admin changes on /debug/team — API keys, the members list, sessions — each change
 * checked, applied and written to the audit trail. Called by the /api/debug routes after
 * their guard (role admin); plain functions of the store, so tests call them directly.
 */

export const newKeySchema = z.object({
  name: z
    .string()
    .trim()
    .superRefine((name, context) => {
      const problem = apiKeyNameProblem(name);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  role: z.enum(['viewer', 'admin'], { error: 'role must be viewer or admin' }),
});

export const memberSchema = z.object({
  email: z.email({ error: 'not an email address' }).max(320).transform((e) => e.toLowerCase()),
  role: z.enum(['viewer', 'admin', 'none'], { error: 'role must be viewer, admin or none' }),
});

export class TeamError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export async function addApiKey(store: ServerStore, by: Principal, input: z.infer<typeof newKeySchema>): Promise<{ key: string; record: ApiKey }> {
  if ((await store.listApiKeys()).some((k) => k.name === input.name && !k.revokedAt)) throw new TeamError(409, `a live key is already called "${input.name}"`);
  const made = await createApiKey(store, { name: input.name, role: input.role, by: by.actor, ...(by.keyId ? { byKey: by.keyId } : {}) });
  await audit(store, by, { action: 'key.create', target: input.name, detail: { role: input.role, key: made.record.prefix } });
  return made;
}

/** Revokes the keys made with these keys, then those made with them, and so on; returns how many. */
async function revokeKeysMadeWith(store: ServerStore, keys: readonly ApiKey[], at: string, by: Principal): Promise<number> {
  let revoked = 0;
  let made = keys;
  while (made.length > 0) {
    made = await store.revokeApiKeysMadeBy({ keys: made.map((k) => k.id) }, at, by.actor);
    revoked += made.length;
  }
  return revoked;
}

/** Revokes a key, and the keys made with it. */
export async function revokeKey(store: ServerStore, by: Principal, id: string): Promise<ApiKey> {
  const at = new Date().toISOString();
  const revoked = await store.revokeApiKey(id, at, by.actor);
  if (!revoked) throw new TeamError(404, `no live API key with id "${id.slice(0, 40)}"`);
  const alsoRevoked = await revokeKeysMadeWith(store, [revoked], at, by);
  await audit(store, by, { action: 'key.revoke', target: revoked.name, detail: { key: revoked.prefix, ...(alsoRevoked ? { alsoRevoked } : {}) } });
  return revoked;
}

/** Revokes every live key a person made, and the keys made with those; returns how many. */
async function revokeKeysOf(store: ServerStore, email: string, at: string, by: Principal): Promise<number> {
  const theirs = await store.revokeApiKeysMadeBy({ person: email }, at, by.actor);
  return theirs.length + (await revokeKeysMadeWith(store, theirs, at, by));
}

/**
 * Sets a member's role; their live sessions take it at once (`none` ends them). Any role but
 * admin also revokes the API keys they made (and those made with them): a key made by an
 * admin would otherwise outlive its maker's admin role.
 */
export async function setMember(store: ServerStore, by: Principal, input: z.infer<typeof memberSchema>): Promise<{ member: Member; sessions: number; keys: number }> {
  const member: Member = { email: input.email, role: input.role, updatedAt: new Date().toISOString(), updatedBy: by.actor };
  const before = await store.setMember(member);
  const sessions = input.role === 'none' ? await store.endSessionsOf(input.email, member.updatedAt) : await store.setSessionsRole(input.email, input.role);
  const keys = input.role === 'admin' ? 0 : await revokeKeysOf(store, input.email, member.updatedAt, by);
  await audit(store, by, { action: 'member.set', target: input.email, detail: { role: input.role, before: before?.role ?? 'not a member', sessions, keys } });
  return { member, sessions, keys };
}

/**
 * Removes a member entry (they are then let in, or not, by the provider's claims alone); their
 * sessions end and the API keys they made are revoked, as for `none`.
 */
export async function removeMember(store: ServerStore, by: Principal, email: string): Promise<Member> {
  const removed = await store.removeMember(email);
  if (!removed) throw new TeamError(404, `no member "${email.slice(0, 320)}"`);
  const at = new Date().toISOString();
  const sessions = await store.endSessionsOf(removed.email, at);
  const keys = await revokeKeysOf(store, removed.email, at, by);
  await audit(store, by, { action: 'member.remove', target: removed.email, detail: { before: removed.role, sessions, keys } });
  return removed;
}

export async function endSession(store: ServerStore, by: Principal, id: string): Promise<void> {
  const live = (await store.listSessions(new Date().toISOString())).find((s) => s.id === id);
  if (!live || !(await store.endSession(id, new Date().toISOString()))) throw new TeamError(404, `no live session "${id.slice(0, 40)}"`);
  await audit(store, by, { action: 'session.end', target: live.actor, detail: { session: id } });
}
