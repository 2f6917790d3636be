import { randomBytes } from 'node:crypto';
import type { ApiKey, ApiKeyStore } from '../store/ports/api-keys';
import type { Role } from '../store/ports/role';
import { API_KEY, secretHash } from './auth';

/**
 * Named API keys (the ApiKeyStore port): created and revoked on /debug by an admin, each with
 * a role, shown once — the store keeps the SHA-256 of the key, its first characters to tell
 * keys apart, who made it (and with which key, if a key made it) and when it was last used.
 * Sent as `Authorization: Bearer <key>`. A key follows its maker: team.ts revokes it when they
 * lose the admin role, or when the key it was made with is revoked.
 */

/** A key's name: what the admin calls it ("nightly export"), 1–60 printable characters. */
export function apiKeyNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > 60) return 'give the key a name of 1 to 60 characters';
  if (!/^[\p{L}\p{N} ._:/@-]+$/u.test(name)) return 'letters, digits, spaces and . _ : / @ - only';
  return undefined;
}

/** Makes a key; returns it whole once (never stored) with what is stored. */
export async function createApiKey(store: ApiKeyStore, input: { name: string; role: Role; by: string; byKey?: string; now?: number }): Promise<{ key: string; record: ApiKey }> {
  const id = randomBytes(6).toString('hex');
  const key = `tsk_${id}_${randomBytes(32).toString('base64url')}`;
  const record: ApiKey = {
    id,
    name: input.name,
    role: input.role,
    prefix: key.slice(0, 12),
    createdAt: new Date(input.now ?? Date.now()).toISOString(),
    createdBy: input.by,
    ...(input.byKey ? { createdByKey: input.byKey } : {}),
  };
  await store.createApiKey({ ...record, secretHash: secretHash(key) });
  return { key, record };
}

/** The live key a Bearer token is, if any (recording its use). Throws when the store cannot be read. */
export async function apiKeyOf(store: ApiKeyStore, token: string, now = Date.now()): Promise<ApiKey | undefined> {
  if (!API_KEY.test(token)) return undefined;
  const key = await store.findApiKey(secretHash(token));
  if (key) store.touchApiKey(key.id, new Date(now).toISOString()).catch(() => {});
  return key;
}
