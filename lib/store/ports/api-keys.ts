import type { Role } from './role';

/** A named API key (Authorization: Bearer …): the secret is shown once, its SHA-256 kept. */
export interface ApiKey {
  id: string;
  name: string;
  role: Role;
  /** The key's first characters, to tell keys apart (`tsk_3fa9…`). */
  prefix: string;
  createdAt: string;
  /** Who made it: a person's email, `admin-token`, `key:<name>`. */
  createdBy: string;
  /** The key it was made with, if a key made it: revoking that key revokes this one too. */
  createdByKey?: string;
  lastUsedAt?: string;
  revokedAt?: string;
  revokedBy?: string;
}

/** Whose keys to revoke: a person's (their email), or the keys made with these keys (by id). */
export type ApiKeyMaker = { person: string } | { keys: readonly string[] };

export interface ApiKeyStore {
  /** Throws if a live key has the same name. */
  createApiKey(key: ApiKey & { secretHash: string }): Promise<void>;
  /** The live (not revoked) key whose secret hashes to `secretHash`. */
  findApiKey(secretHash: string): Promise<ApiKey | undefined>;
  /** Records a use of the key (at most the time given). */
  touchApiKey(id: string, at: string): Promise<void>;
  /** Revokes a live key; undefined if it is unknown or revoked already. */
  revokeApiKey(id: string, at: string, by: string): Promise<ApiKey | undefined>;
  /** Every key, live and revoked, newest first. */
  listApiKeys(): Promise<ApiKey[]>;
  /** Revokes the live keys a person made (`createdBy`), or that were made with these keys (`createdByKey`); returns them. */
  revokeApiKeysMadeBy(maker: ApiKeyMaker, at: string, by: string): Promise<ApiKey[]>;
}
