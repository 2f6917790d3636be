import { describe, expect, it } from 'vitest';
import { freshDatabase } from '../testing/pg-database';
import { createPostgresPool, migratePostgres } from '../store/postgres';
import { createHandoffLimits, type HandoffLimits } from './limits';

/** The scope that refused each request (or "ok"), for new visitors from `clients`, asked of `instances` in turn. */
async function flood(instances: HandoffLimits[], clients: string[]): Promise<string[]> {
  const outcomes: string[] = [];
  for (const [i, client] of clients.entries()) {
    const decision = await instances[i % instances.length]!.take({ visitor: `visitor-${i}-${Math.random()}`, client });
    outcomes.push(decision.allowed ? 'ok' : decision.scope);
  }
  return outcomes;
}

describe('createHandoffLimits', () => {
  it('refuses by visitor, then address, then site; 0 turns the visitor and address limits, or the site limit, off', async () => {
    const limits = createHandoffLimits({ perVisitor: 1, perSite: 6 });
    expect(await limits.take({ visitor: 'v', client: 'ip:203.0.113.1' })).toEqual({ allowed: true });
    expect(await limits.take({ visitor: 'v', client: 'ip:203.0.113.1' })).toMatchObject({ allowed: false, scope: 'visitor', retryAfterSeconds: expect.any(Number) });
    expect(await flood([limits], Array(5).fill('ip:203.0.113.1'))).toEqual(['ok', 'ok', 'ok', 'address', 'address']);
    expect(await flood([limits], ['ip:198.51.100.1', 'ip:198.51.100.2', 'ip:198.51.100.3'])).toEqual(['ok', 'ok', 'site']);
    expect(await flood([createHandoffLimits({ perVisitor: 0, perSite: 2 })], Array(3).fill('ip:203.0.113.1'))).toEqual(['ok', 'ok', 'site']);
    expect(await flood([createHandoffLimits({ perVisitor: 1, perSite: 0 })], Array(5).fill('ip:203.0.113.1'))).toEqual(['ok', 'ok', 'ok', 'ok', 'address']);
  });

  it('shares the address and site counts through PostgreSQL: two instances on one database count as one', async () => {
    const url = await freshDatabase();
    const pools = [createPostgresPool(url, { max: 2 }), createPostgresPool(url, { max: 2 })];
    await migratePostgres(pools[0]!);
    const instances = pools.map((pool) => createHandoffLimits({ perVisitor: 1, perSite: 6, postgres: { pool, ready: () => Promise.resolve() } }));
    // One address through both instances: four in all (not four each).
    expect(await flood(instances, Array(6).fill('ip:203.0.113.1'))).toEqual(['ok', 'ok', 'ok', 'ok', 'address', 'address']);
    // Other addresses through both instances: the site's six in all.
    expect(await flood(instances, ['ip:198.51.100.1', 'ip:198.51.100.2', 'ip:198.51.100.3', 'ip:198.51.100.4'])).toEqual(['ok', 'ok', 'site', 'site']);
    await Promise.all(pools.map((p) => p.end()));
  });
});
