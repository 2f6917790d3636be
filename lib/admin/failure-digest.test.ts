import { describe, expect, it, vi } from 'vitest';
import { FailureDigest, OTHER_CLIENTS, type FailureCount } from './failure-digest';

const T0 = Date.parse('2026-06-01T10:00:00.000Z');
const MINUTE = 60_000;

function digest(maxClients = 100) {
  const rows: FailureCount[] = [];
  return { rows, digest: new FailureDigest({ write: async (row) => void rows.push(row), maxClients }) };
}

describe('FailureDigest: failed sign-ins, one row per client per minute', () => {
  it("writes a client's first failure at once, then the rest of its minute as one row with the counts", async () => {
    const { rows, digest: d } = digest();
    await d.failed('ip:203.0.113.7', 'no sign-in was started', T0);
    for (let i = 1; i < 100; i++) await d.failed('ip:203.0.113.7', `reason ${i}`, T0 + i);
    for (let i = 0; i < 50; i++) await d.throttled('ip:203.0.113.7', T0 + 200 + i);
    expect(rows).toEqual([{ client: 'ip:203.0.113.7', failed: 1, throttled: 0, reason: 'no sign-in was started', since: new Date(T0).toISOString() }]);
    await d.flush(T0 + MINUTE - 1); // not yet
    expect(rows).toHaveLength(1);
    await d.flush(T0 + MINUTE);
    expect(rows[1]).toEqual({ client: 'ip:203.0.113.7', failed: 99, throttled: 50, reason: 'reason 1', since: new Date(T0 + 1).toISOString() });
    await d.flush(T0 + 3 * MINUTE); // nothing new: no row
    expect(rows).toHaveLength(2);
    await d.failed('ip:203.0.113.7', 'later', T0 + 3 * MINUTE);
    expect(rows[2]).toMatchObject({ failed: 1, reason: 'later' });
  });

  it("writes the rest of each client's minute by itself, when that client's minute is over", async () => {
    vi.useFakeTimers({ now: T0 });
    try {
      const { rows, digest: d } = digest();
      await d.failed('ip:192.0.2.1', 'forged');
      await vi.advanceTimersByTimeAsync(30_000);
      await d.failed('ip:192.0.2.2', 'forged');
      await d.failed('ip:192.0.2.1', 'forged again');
      await d.throttled('ip:192.0.2.2');
      await vi.advanceTimersByTimeAsync(30_000); // the first client's minute is over
      expect(rows.map((r) => [r.client, r.failed, r.throttled])).toEqual([['ip:192.0.2.1', 1, 0], ['ip:192.0.2.2', 1, 0], ['ip:192.0.2.1', 1, 0]]);
      await vi.advanceTimersByTimeAsync(30_000); // and the second's
      expect(rows.slice(3).map((r) => [r.client, r.failed, r.throttled])).toEqual([['ip:192.0.2.2', 0, 1]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('throttled requests alone make a row without a reason', async () => {
    const { rows, digest: d } = digest();
    await d.throttled('ip:198.51.100.1', T0);
    expect(rows).toEqual([{ client: 'ip:198.51.100.1', failed: 0, throttled: 1, since: new Date(T0).toISOString() }]);
  });

  it('past maxClients, failures from further clients share one row; quiet clients are forgotten and make room', async () => {
    const { rows, digest: d } = digest(3);
    for (let i = 0; i < 10; i++) await d.failed(`ip:198.51.100.${i}`, 'forged', T0 + i);
    expect(rows.map((r) => [r.client, r.failed])).toEqual([
      ['ip:198.51.100.0', 1],
      ['ip:198.51.100.1', 1],
      ['ip:198.51.100.2', 1],
      [OTHER_CLIENTS, 1],
    ]);
    await d.flush(T0 + MINUTE + 10);
    expect(rows.slice(4).map((r) => [r.client, r.failed])).toEqual([[OTHER_CLIENTS, 6]]);
    // A minute on, the three are quiet: a new client has a row of its own again.
    await d.failed('ip:192.0.2.1', 'forged', T0 + 2 * MINUTE + 20);
    expect(rows.at(-1)).toMatchObject({ client: 'ip:192.0.2.1', failed: 1 });
  });

  it('a row that cannot be written is logged, never thrown', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const d = new FailureDigest({ write: () => Promise.reject(new Error('database is down')) });
    await expect(d.failed('ip:203.0.113.7', 'forged', T0)).resolves.toBeUndefined();
  });
});
