import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { demoKnowledge } from '../api/chat/testing';
import { startSession } from '@/lib/admin/sessions';
import { textRef } from '@/lib/debug/asked';
import { parseEnv } from '@/lib/env';
import type { ServerApp } from '@/lib/server/app';
import { fillTestRegistry } from '@/lib/testing/registry';
import { testTurnStart } from '@/lib/testing/turns';
import type { AuditEntry } from '@/lib/store/ports/audit';
import { SqliteStore } from '@/lib/store/sqlite';

/**
 * Every read of customer data by a member leaves exactly one audit entry (issue 46, finding 4),
 * naming the member and what they asked: the turns list and its search, a conversation, a turn,
 * the hand-offs list and a hand-off, the health page, an export — each page and API called
 * in-process on a store holding a customer's turn and hand-off.
 */

const KEY = new Uint8Array(32).fill(7);
const store = new SqliteStore(':memory:');
const request = vi.hoisted(() => ({ headers: new Headers(), cookies: new Map<string, string>() }));

vi.mock('server-only', () => ({}));
vi.mock('next/headers', () => ({
  headers: async () => request.headers,
  cookies: async () => ({ get: (name: string) => (request.cookies.has(name) ? { name, value: request.cookies.get(name) } : undefined) }),
}));

const knowledge = demoKnowledge();
fillTestRegistry(parseEnv({ ADMIN_TOKEN: 'read-audit-test-token-0123456789' }), {
  store: () => store,
  storeLabel: 'SQLite :memory:',
  sessionKey: () => KEY,
  knowledge: { get: () => knowledge, health: () => ({ status: 'ready' }) } as unknown as ServerApp['knowledge'],
  reloadImpact: { onReload: () => {}, last: async () => undefined, prune: async () => {} },
  kbTests: { run: () => {}, of: async () => ({ loadedAt: knowledge.loadedAt.toISOString() }) },
  retention: () => undefined,
  handoffs: { channels: ['webhook'], worker: undefined, limits: () => { throw new Error('not used'); } },
});

const CUSTOMER_EMAIL = 'jan.kowalski@example.com';
const turn = testTurnStart('can I get a refund?', { conversationId: 'conv-read-audit', visitorId: 'visitor-jan' });
const HANDOFF_ID = 'ho-read-audit';

beforeAll(async () => {
  await store.startTurn(turn);
  await store.createHandoff({
    id: HANDOFF_ID,
    conversationId: turn.conversationId,
    visitorId: 'visitor-jan',
    createdAt: new Date().toISOString(),
    reason: 'asked',
    email: CUSTOMER_EMAIL,
    note: 'Please call me back.',
    payload: JSON.stringify({ type: 'handoff.created', data: { id: HANDOFF_ID, transcript: [] } }),
    channels: ['webhook'],
    retryUntil: new Date(Date.now() + 3600_000).toISOString(),
  });
});

beforeEach(async () => {
  request.headers = new Headers({ 'x-support-chat-peer': '203.0.113.9' });
  request.cookies.clear();
  request.cookies.set('support_admin', (await startSession(store, KEY, { actor: 'vera@acme.test', role: 'viewer', via: 'oidc' })).cookie);
});

/** The audit entries `read` added (sign-ins aside). */
async function entriesOf(read: () => Promise<unknown>): Promise<AuditEntry[]> {
  const before = (await store.listAudit({}, 1, 1)).entries[0]?.seq ?? 0;
  await read();
  return (await store.listAudit({}, 1, 100)).entries.filter((e) => e.seq > before && e.action !== 'sign-in').reverse();
}

const api = (path: string) => new Request(`http://127.0.0.1${path}`);
const query = (q: Record<string, string>) => Promise.resolve(q);
const id = (value: string) => Promise.resolve({ id: value });
const viewer = { actor: 'vera@acme.test', role: 'viewer', via: 'oidc', source: 'ip:203.0.113.9', outcome: 'ok' };

const READS: [string, () => Promise<unknown>, Partial<AuditEntry>][] = [
  ['/debug', async () => (await import('./page')).default({ searchParams: query({}) }), { action: 'turn.list', detail: { page: 1, pageSize: 25, turns: 1 } }],
  [
    '/debug searched and filtered',
    async () => (await import('./page')).default({ searchParams: query({ q: CUSTOMER_EMAIL, status: 'pending', feedback: 'down', floor: 'no' }) }),
    { action: 'turn.list', detail: { q: textRef(CUSTOMER_EMAIL, KEY), qChars: CUSTOMER_EMAIL.length, status: 'pending', feedback: 'down', floor: false, page: 1, pageSize: 25, turns: 0 } },
  ],
  [
    '/debug?conversation=',
    async () => (await import('./page')).default({ searchParams: query({ conversation: turn.conversationId }) }),
    { action: 'conversation.view', target: turn.conversationId, detail: { page: 1, pageSize: 25, turns: 1 } },
  ],
  [
    'GET /api/debug/turns searched',
    async () => (await import('../api/debug/turns/route')).GET(api(`/api/debug/turns?q=${encodeURIComponent(CUSTOMER_EMAIL)}&pageSize=10&section=billing%2Frefund-policy.md`)),
    { action: 'turn.list', detail: { q: textRef(CUSTOMER_EMAIL, KEY), qChars: CUSTOMER_EMAIL.length, section: 'billing/refund-policy.md', state: 'sent', page: 1, pageSize: 10, turns: 0 } },
  ],
  [
    '/debug/turns/[id]',
    async () => (await import('./turns/[id]/page')).default({ params: id(turn.id), searchParams: query({}) }),
    { action: 'turn.view', target: turn.id, detail: { conversation: turn.conversationId } },
  ],
  [
    'GET /api/debug/turns/[id]',
    async () => (await import('../api/debug/turns/[id]/route')).GET(api(`/api/debug/turns/${turn.id}`), { params: id(turn.id) }),
    { action: 'turn.view', target: turn.id, detail: { conversation: turn.conversationId } },
  ],
  ['/debug/handoffs', async () => (await import('./handoffs/page')).default({ searchParams: query({ status: 'pending' }) }), { action: 'handoff.list', detail: { status: 'pending', page: 1, pageSize: 25, handoffs: 1 } }],
  ['GET /api/debug/handoffs', async () => (await import('../api/debug/handoffs/route')).GET(api('/api/debug/handoffs?page=2')), { action: 'handoff.list', detail: { page: 2, pageSize: 25, handoffs: 1 } }],
  [
    '/debug/handoffs/[id]',
    async () => (await import('./handoffs/[id]/page')).default({ params: id(HANDOFF_ID) }),
    { action: 'handoff.view', target: HANDOFF_ID, detail: { conversation: turn.conversationId } },
  ],
  [
    'GET /api/debug/handoffs/[id]',
    async () => (await import('../api/debug/handoffs/[id]/route')).GET(api(`/api/debug/handoffs/${HANDOFF_ID}`), { params: id(HANDOFF_ID) }),
    { action: 'handoff.view', target: HANDOFF_ID, detail: { conversation: turn.conversationId } },
  ],
  ['/debug/health', async () => (await import('./health/page')).default(), { action: 'health.view', detail: { turns: 1 } }],
  ['GET /api/debug/health', async () => (await import('../api/debug/health/route')).GET(), { action: 'health.view', detail: { turns: 1 } }],
];

describe('every read of customer data by a member is in the audit trail', () => {
  for (const [what, read, expected] of READS) {
    it(`${what}: exactly one entry, naming the member and what was asked`, async () => {
      const entries = await entriesOf(async () => {
        const result = await read();
        if (result instanceof Response) expect(result.status, await result.clone().text()).toBe(200);
      });
      expect(entries).toHaveLength(1);
      expect(entries[0]).toEqual({ ...viewer, ...expected, seq: expect.any(Number), at: expect.any(String) });
    });
  }

  it('the search text is kept as its reference and length, never as written', async () => {
    const entries = await entriesOf(async () => (await import('./page')).default({ searchParams: query({ q: `refund for ${CUSTOMER_EMAIL}` }) }));
    expect(JSON.stringify(entries)).not.toMatch(/kowalski|refund/i);
    expect(entries[0]!.detail).toMatchObject({ q: textRef(`REFUND for ${CUSTOMER_EMAIL} `, KEY), qChars: 35 });
  });

  it('values from the request are bounded and have their control characters escaped', async () => {
    const forged = `conv\n2026-01-01 sign-in admin\u202e${'x'.repeat(300)}`;
    const entries = await entriesOf(async () => (await import('../api/debug/turns/route')).GET(api(`/api/debug/turns?conversation=${encodeURIComponent(forged)}&section=a%0Db`)));
    expect(entries).toHaveLength(1);
    const { target, detail } = entries[0]!;
    const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
    for (const value of [target!, detail!.section as string]) expect(value).not.toMatch(CONTROL);
    expect(target).toMatch(/^conv\\.+2026-01-01 sign-in admin\\.+x+…$/); // escaped, whatever the notation
    expect(target!.length).toBeLessThan(forged.length); // cut
    expect(detail!.section).toMatch(/^a\\.+b$/);
  });

  it('an export is one entry too (the subject as a keyed reference, the count)', async () => {
    request.cookies.set('support_admin', (await startSession(store, KEY, { actor: 'ann@acme.test', role: 'admin', via: 'oidc' })).cookie);
    const entries = await entriesOf(async () =>
      (await import('../api/debug/customer-data/export/route')).GET(new Request('http://127.0.0.1/api/debug/customer-data/export?kind=visitor&value=visitor-jan', { headers: { host: '127.0.0.1' } })),
    );
    expect(entries).toEqual([expect.objectContaining({ actor: 'ann@acme.test', action: 'data.export', target: expect.stringMatching(/^visitor:[0-9a-f]{16}$/), detail: { turns: 1 } })]);
  });

  it('a hand-off or turn that is not there is not shown and not audited', async () => {
    const entries = await entriesOf(async () => {
      expect((await (await import('../api/debug/handoffs/[id]/route')).GET(api('/api/debug/handoffs/nope'), { params: id('nope') })).status).toBe(404);
      expect((await (await import('../api/debug/turns/[id]/route')).GET(api('/api/debug/turns/nope'), { params: id('nope') })).status).toBe(404);
    });
    expect(entries).toEqual([]);
  });
});
