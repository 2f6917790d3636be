import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../store/sqlite';
import { apiKeyOf } from './api-keys';
import type { Principal } from './principal';
import { addApiKey, removeMember, revokeKey, setMember } from './team';

/**
 * API keys follow the person who made them (issue 46, finding 9): an admin set to `none` or
 * `viewer`, or taken off the members list, loses the keys they made — and the keys made with
 * those — as their sessions end; revoking a key revokes the keys made with it.
 */

const person = (actor: string, role: 'viewer' | 'admin' = 'admin'): Principal => ({ actor, role, via: 'oidc', source: 'ip:203.0.113.7' });
const TOKEN: Principal = { actor: 'admin-token', role: 'admin', via: 'token', source: 'ip:203.0.113.7' };

/** ann's key, a key made with it, and one made with ADMIN_TOKEN. */
async function team() {
  const store = new SqliteStore(':memory:');
  await setMember(store, TOKEN, { email: 'ann@acme.test', role: 'admin' });
  const anns = await addApiKey(store, person('ann@acme.test'), { name: 'ann export', role: 'admin' });
  const viaKey: Principal = { actor: 'key:ann export', role: 'admin', via: 'key', keyId: anns.record.id, source: 'ip:203.0.113.7' };
  const chained = await addApiKey(store, viaKey, { name: 'made with ann export', role: 'admin' });
  const tokens = await addApiKey(store, TOKEN, { name: 'nightly', role: 'viewer' });
  return { store, keys: { anns: anns.key, chained: chained.key, tokens: tokens.key } };
}

const live = async (store: SqliteStore, keys: Record<string, string>) =>
  Object.fromEntries(await Promise.all(Object.entries(keys).map(async ([name, key]) => [name, (await apiKeyOf(store, key)) !== undefined])));

describe("a member's API keys follow their role", () => {
  for (const [change, apply] of [
    ['set to none', (store: SqliteStore) => setMember(store, TOKEN, { email: 'ann@acme.test', role: 'none' })],
    ['set to viewer', (store: SqliteStore) => setMember(store, TOKEN, { email: 'ann@acme.test', role: 'viewer' })],
    ['removed from the members list', (store: SqliteStore) => removeMember(store, TOKEN, 'ann@acme.test')],
  ] as const) {
    it(`an admin ${change} loses the keys they made, and the keys made with those; other keys stay`, async () => {
      const { store, keys } = await team();
      expect(await live(store, keys)).toEqual({ anns: true, chained: true, tokens: true });
      await apply(store);
      expect(await live(store, keys)).toEqual({ anns: false, chained: false, tokens: true });
      const [entry] = (await store.listAudit({ actor: 'admin-token' }, 1, 1)).entries;
      expect(entry!.detail).toMatchObject({ keys: 2 });
    });
  }

  it('an admin set to admin again keeps their keys', async () => {
    const { store, keys } = await team();
    await setMember(store, TOKEN, { email: 'ann@acme.test', role: 'admin' });
    expect(await live(store, keys)).toEqual({ anns: true, chained: true, tokens: true });
  });

  it('revoking a key revokes the keys made with it', async () => {
    const { store, keys } = await team();
    const anns = (await store.listApiKeys()).find((k) => k.name === 'ann export')!;
    await revokeKey(store, TOKEN, anns.id);
    expect(await live(store, keys)).toEqual({ anns: false, chained: false, tokens: true });
    const [entry] = (await store.listAudit({ action: 'key.revoke' }, 1, 1)).entries;
    expect(entry).toMatchObject({ target: 'ann export', detail: { key: anns.prefix, alsoRevoked: 1 } });
  });
});
