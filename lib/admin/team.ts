import { z } from 'zod';
import type { ApiKey, Member } from '../traces/access-types';
import type { ServerStore } from '../traces/store';
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
  const made = await createApiKey(store, { name: input.name, role: input.role, by: by.actor });
  await audit(store, by, { action: 'key.create', target: input.name, detail: { role: input.role, key: made.record.prefix } });
  return made;
}

export async function revokeKey(store: ServerStore, by: Principal, id: string): Promise<ApiKey> {
  const revoked = await store.revokeApiKey(id, new Date().toISOString(), by.actor);
  if (!revoked) throw new TeamError(404, `no live API key with id "${id.slice(0, 40)}"`);
  await audit(store, by, { action: 'key.revoke', target: revoked.name, detail: { key: revoked.prefix } });
  return revoked;
}

/** Sets a member's role; their live sessions take it at once (`none` ends them). */
export async function setMember(store: ServerStore, by: Principal, input: z.infer<typeof memberSchema>): Promise<{ member: Member; sessions: number }> {
  const member: Member = { email: input.email, role: input.role, updatedAt: new Date().toISOString(), updatedBy: by.actor };
  const before = await store.setMember(member);
  const sessions = input.role === 'none' ? await store.endSessionsOf(input.email, member.updatedAt) : await store.setSessionsRole(input.email, input.role);
  await audit(store, by, { action: 'member.set', target: input.email, detail: { role: input.role, before: before?.role ?? 'not a member', sessions } });
  return { member, sessions };
}

/** Removes a member entry (they are then let in, or not, by the provider's claims alone); their sessions end. */
export async function removeMember(store: ServerStore, by: Principal, email: string): Promise<Member> {
  const removed = await store.removeMember(email);
  if (!removed) throw new TeamError(404, `no member "${email.slice(0, 320)}"`);
  const sessions = await store.endSessionsOf(removed.email, new Date().toISOString());
  await audit(store, by, { action: 'member.remove', target: removed.email, detail: { before: removed.role, sessions } });
  return removed;
}

export async function endSession(store: ServerStore, by: Principal, id: string): Promise<void> {
  const live = (await store.listSessions(new Date().toISOString())).find((s) => s.id === id);
  if (!live || !(await store.endSession(id, new Date().toISOString()))) throw new TeamError(404, `no live session "${id.slice(0, 40)}"`);
  await audit(store, by, { action: 'session.end', target: live.actor, detail: { session: id } });
}
