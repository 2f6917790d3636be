import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { startSession } from '@/lib/admin/sessions';
import { FaultPanel } from '@/components/debug/inspector-page';
import { parseEnv } from '@/lib/env';
import type { ServerApp } from '@/lib/server/app';
import { fillTestRegistry } from '@/lib/testing/registry';
import { createApiKey } from '@/lib/admin/api-keys';
import { SqliteStore } from '@/lib/store/sqlite';
import type { ServerStore } from '@/lib/store/server-store';

/**
 * Every inspector page and API checks access itself (issue 11, finding 1), proven without
 * proxy.ts: the pages and handlers are called directly, with next/headers replaced by the
 * request's headers and cookies, and the inspector's data functions replaced by spies.
 * Without a valid credential each one refuses (notFound() / 401) before any data is read.
 */

const TOKEN = 'guard-test-token-0123456789';
const KEY = new Uint8Array(32).fill(3);
const store = new SqliteStore(':memory:');
process.env.__NEXT_EXPERIMENTAL_AUTH_INTERRUPTS = 'true'; // next.config.mjs experimental.authInterrupts: forbidden()
/** A session cookie for a session the store holds (as the sign-in routes make them). */
const signedIn = async (role: 'viewer' | 'admin', actor = `${role}@acme.test`) =>
  (await startSession(store, KEY, { actor, role, via: role === 'admin' ? 'token' : 'oidc' })).cookie;

const request = vi.hoisted(() => ({ headers: new Headers(), cookies: new Map<string, string>() }));
const reads = vi.hoisted(() => [] as string[]);
const database = vi.hoisted(() => ({ down: false }));
/** The store, or — with `database.down` — one whose every call fails as an unreachable server's would. */
const serverStore = () =>
  database.down ? new Proxy({}, { get: () => () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) }) : store;

vi.mock('server-only', () => ({}));
vi.mock('next/headers', () => ({
  headers: async () => request.headers,
  cookies: async () => ({ get: (name: string) => (request.cookies.has(name) ? { name, value: request.cookies.get(name) } : undefined) }),
}));
vi.mock('@/lib/debug/data', () => {
  const read = (name: string) => () => {
    reads.push(name);
    throw new Error(`data read: ${name}`);
  };
  return {
    getInspector: read('getInspector'),
    tryQuestion: read('tryQuestion'),
    turnDetail: read('turnDetail'),
    healthReport: read('healthReport'),
    knowledgeOrFault: read('knowledgeOrFault'),
  };
});
vi.mock('@/lib/debug/handoffs', () => {
  const read = (name: string) => () => {
    reads.push(name);
    throw new Error(`data read: ${name}`);
  };
  return { handoffList: read('handoffList'), handoffDetail: read('handoffDetail'), handoffHealth: read('handoffHealth'), retryHandoff: read('retryHandoff') };
});
const registry = fillTestRegistry(parseEnv({ ADMIN_TOKEN: TOKEN }), {
  store: () => serverStore() as ServerStore,
  sessionKey: () => KEY,
  knowledge: {
    get: () => {
      reads.push('getKnowledge');
      throw new Error('data read: getKnowledge');
    },
  } as unknown as ServerApp['knowledge'],
});

const searchParams = Promise.resolve({ q: 'refund' });
const params = Promise.resolve({ id: 'some-turn' });
const PAGES: [string, () => Promise<unknown>][] = [
  ['/debug', async () => (await import('./page')).default({ searchParams })],
  ['/debug/try', async () => (await import('./try/page')).default({ searchParams })],
  ['/debug/turns/[id]', async () => (await import('./turns/[id]/page')).default({ params, searchParams })],
  ['/debug/health', async () => (await import('./health/page')).default()],
  ['/debug/sections/[id]', async () => (await import('./sections/[id]/page')).default({ params })],
  ['/debug/handoffs', async () => (await import('./handoffs/page')).default({ searchParams })],
  ['/debug/handoffs/[id]', async () => (await import('./handoffs/[id]/page')).default({ params })],
];
const APIS: [string, () => Promise<Response>][] = [
  ['GET /api/debug/turns', async () => (await import('../api/debug/turns/route')).GET(new Request('http://127.0.0.1/api/debug/turns'))],
  ['GET /api/debug/turns/[id]', async () => (await import('../api/debug/turns/[id]/route')).GET(new Request('http://127.0.0.1/api/debug/turns/x'), { params })],
  ['GET /api/debug/health', async () => (await import('../api/debug/health/route')).GET()],
  ['GET /api/debug/handoffs', async () => (await import('../api/debug/handoffs/route')).GET(new Request('http://127.0.0.1/api/debug/handoffs'))],
  ['GET /api/debug/handoffs/[id]', async () => (await import('../api/debug/handoffs/[id]/route')).GET(new Request('http://127.0.0.1/api/debug/handoffs/x'), { params })],
  [
    'POST /api/debug/handoffs/[id]/retry',
    async () => (await import('../api/debug/handoffs/[id]/retry/route')).POST(new Request('http://127.0.0.1/api/debug/handoffs/x/retry', { method: 'POST' }), { params }),
  ],
  [
    'POST /api/debug/try',
    async () => (await import('../api/debug/try/route')).POST(new Request('http://127.0.0.1/api/debug/try', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"question":"refund"}' })),
  ],
];

/** Pages and routes that manage access or customer data: their guard must ask for the admin role. */
const ADMIN_ONLY = /^(debug\/(team|audit|customer-data)\/|api\/debug\/(keys|members|sessions|audit|customer-data)\/)/;

const isNotFound = (error: unknown) => (error as { digest?: string }).digest === 'NEXT_HTTP_ERROR_FALLBACK;404';

beforeEach(() => {
  request.headers = new Headers({ 'x-support-chat-peer': '203.0.113.7' });
  request.cookies.clear();
  reads.length = 0;
  database.down = false;
  registry.resetThrottle(); // a fresh throttle per test
});

describe('the inspector guards itself (no proxy)', () => {
  const refusedCases: [string, () => void | Promise<void>][] = [
    ['no credential', () => {}],
    ['a wrong Bearer token', () => request.headers.set('authorization', 'Bearer not-the-token-at-all')],
    ['a forged session cookie', () => request.cookies.set('support_admin', `${Date.now() + 1e6}.${'A'.repeat(43)}.${'A'.repeat(43)}`)],
    [
      'a session cookie from before a sign-out',
      async () => {
        const cookie = await signedIn('admin');
        const [session] = await store.listSessions(new Date().toISOString());
        await store.endSession(session!.id, new Date().toISOString());
        request.cookies.set('support_admin', cookie);
      },
    ],
    ['a revoked API key', async () => {
      const { key, record } = await createApiKey(store, { name: `revoked ${Math.random()}`, role: 'admin', by: 'test' });
      await store.revokeApiKey(record.id, new Date().toISOString(), 'test');
      request.headers.set('authorization', `Bearer ${key}`);
    }],
  ];
  for (const [what, arrange] of refusedCases) {
    for (const [page, render] of PAGES) {
      it(`${page} with ${what}: notFound() before any data is read`, async () => {
        await arrange();
        const error = await render().then(() => undefined, (e: unknown) => e);
        expect(isNotFound(error), String(error)).toBe(true);
        expect(reads).toEqual([]);
      });
    }
    for (const [api, call] of APIS) {
      it(`${api} with ${what}: 401 JSON before any data is read`, async () => {
        await arrange();
        const response = await call();
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({ error: expect.stringMatching(/admin credential/i) });
        expect(reads).toEqual([]);
      });
    }
  }

  it('with the right token, each page and API goes on to read its data (so the refusals above are the guard\'s)', async () => {
    request.headers.set('authorization', `Bearer ${TOKEN}`);
    for (const [page, render] of PAGES) {
      reads.length = 0;
      await expect(render(), page).rejects.toThrow(/data read/);
      expect(reads.length, page).toBeGreaterThan(0);
    }
    // A read that fails for no fault of the database or the KB is a bug: JSON 500 (logged), never an empty body.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const [api, call] of APIS) {
      reads.length = 0;
      const response = await call();
      expect(reads.length, api).toBeGreaterThan(0);
      expect(response.status, api).toBe(500);
      expect(await response.json(), api).toEqual({ error: expect.stringMatching(/server log/) });
    }
    expect(logged).toHaveBeenCalledTimes(APIS.length);
    logged.mockRestore();
  });

  describe('with the database unreachable', () => {
    const isFaultPanel = (element: unknown) => (element as { type?: unknown }).type === FaultPanel;
    const databaseFault = { kind: 'database', reason: 'SQLite data/traces.db: connect ECONNREFUSED 127.0.0.1:5432' };
    const FAULT_JSON = { error: `the database is unreachable: ${databaseFault.reason}` };

    it('a signed session cookie cannot be checked: each page shows the fault, each API answers 503 with it; nothing is read', async () => {
      request.cookies.set('support_admin', await signedIn('admin'));
      database.down = true;
      for (const [page, render] of PAGES) {
        const element = await render();
        expect(isFaultPanel(element), page).toBe(true);
        expect((element as { props: { fault: unknown } }).props.fault, page).toEqual(databaseFault);
      }
      for (const [api, call] of APIS) {
        const response = await call();
        expect(response.status, api).toBe(503);
        expect(await response.json(), api).toEqual(FAULT_JSON);
      }
      expect(reads).toEqual([]);
    });

    it('a forged cookie or none is still refused (notFound() / 401), without asking the database', async () => {
      database.down = true;
      for (const arrange of [() => {}, () => request.cookies.set('support_admin', `${Date.now() + 1e6}.${'A'.repeat(43)}.${'A'.repeat(43)}`)]) {
        arrange();
        for (const [page, render] of PAGES) expect(isNotFound(await render().then(() => undefined, (e: unknown) => e)), page).toBe(true);
        for (const [api, call] of APIS) expect((await call()).status, api).toBe(401);
      }
      expect(reads).toEqual([]);
    });

    it('with the right Bearer token (no session to check), a read that fails shows the fault (pages) or answers 503 (APIs)', async () => {
      request.headers.set('authorization', `Bearer ${TOKEN}`);
      database.down = true;
      for (const [page, render] of PAGES) {
        const element = await render();
        expect(isFaultPanel(element), page).toBe(true);
        expect((element as { props: { fault: unknown } }).props.fault, page).toEqual(databaseFault);
      }
      for (const [api, call] of APIS) {
        const response = await call();
        expect(response.status, api).toBe(503);
        expect(await response.json(), api).toEqual(FAULT_JSON);
      }
    });
  });

  describe('roles: a viewer reads, only an admin manages access and customer data', () => {
    const json = (method: string, path: string, body?: unknown) =>
      new Request(`http://127.0.0.1${path}`, { method, headers: { 'content-type': 'application/json', host: '127.0.0.1' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const id = Promise.resolve({ id: 'some-id' });
    const ADMIN_PAGES: [string, () => Promise<unknown>][] = [
      ['/debug/team', async () => (await import('./team/page')).default()],
      ['/debug/audit', async () => (await import('./audit/page')).default({ searchParams })],
      ['/debug/customer-data', async () => (await import('./customer-data/page')).default()],
    ];
    const ADMIN_APIS: [string, () => Promise<Response>][] = [
      ['GET /api/debug/keys', async () => (await import('../api/debug/keys/route')).GET(json('GET', '/api/debug/keys'))],
      ['POST /api/debug/keys', async () => (await import('../api/debug/keys/route')).POST(json('POST', '/api/debug/keys', { name: 'sneaky', role: 'admin' }))],
      ['DELETE /api/debug/keys/[id]', async () => (await import('../api/debug/keys/[id]/route')).DELETE(json('DELETE', '/api/debug/keys/some-id'), { params: id })],
      ['GET /api/debug/members', async () => (await import('../api/debug/members/route')).GET(json('GET', '/api/debug/members'))],
      ['POST /api/debug/members', async () => (await import('../api/debug/members/route')).POST(json('POST', '/api/debug/members', { email: 'me@acme.test', role: 'admin' }))],
      [
        'DELETE /api/debug/members/[email]',
        async () => (await import('../api/debug/members/[email]/route')).DELETE(json('DELETE', '/api/debug/members/x'), { params: Promise.resolve({ email: 'x@acme.test' }) }),
      ],
      ['GET /api/debug/sessions', async () => (await import('../api/debug/sessions/route')).GET(json('GET', '/api/debug/sessions'))],
      ['DELETE /api/debug/sessions/[id]', async () => (await import('../api/debug/sessions/[id]/route')).DELETE(json('DELETE', '/api/debug/sessions/x'), { params: id })],
      ['GET /api/debug/audit', async () => (await import('../api/debug/audit/route')).GET(json('GET', '/api/debug/audit'))],
      [
        'POST /api/debug/customer-data/delete',
        async () => (await import('../api/debug/customer-data/delete/route')).POST(json('POST', '/api/debug/customer-data/delete', { kind: 'visitor', value: 'visitor-a' })),
      ],
      [
        'GET /api/debug/customer-data/export',
        async () => (await import('../api/debug/customer-data/export/route')).GET(json('GET', '/api/debug/customer-data/export?kind=visitor&value=visitor-a')),
      ],
    ];
    const isForbidden = (error: unknown) => (error as { digest?: string }).digest === 'NEXT_HTTP_ERROR_FALLBACK;403';

    it('a viewer gets 403 on every admin page and API, nothing changes, and each refusal is in the audit trail', async () => {
      request.cookies.set('support_admin', await signedIn('viewer', 'vera@acme.test'));
      const keysBefore = (await store.listApiKeys()).length;
      for (const [page, render] of ADMIN_PAGES) expect(isForbidden(await render().then(() => undefined, (e: unknown) => e)), page).toBe(true);
      for (const [api, call] of ADMIN_APIS) {
        const response = await call();
        expect(response.status, api).toBe(403);
        expect((await response.json()).error, api).toMatch(/needs the admin role; vera@acme\.test is a viewer/);
      }
      expect((await store.listApiKeys()).length).toBe(keysBefore);
      expect(await store.getMember('me@acme.test')).toBeUndefined();
      const refusals = (await store.listAudit({ action: 'access.refused', actor: 'vera@acme.test' }, 1, 100)).entries;
      expect(refusals).toHaveLength(ADMIN_PAGES.length + ADMIN_APIS.length);
      expect(refusals.every((e) => e.outcome === 'refused' && e.role === 'viewer')).toBe(true);
      expect(refusals.map((e) => e.target)).toContain('POST /api/debug/keys');
      expect(reads).toEqual([]);
    });

    it('the same viewer reads every viewer page and API (the data functions are reached)', async () => {
      request.cookies.set('support_admin', await signedIn('viewer'));
      for (const [page, render] of PAGES) {
        reads.length = 0;
        await expect(render(), page).rejects.toThrow(/data read/);
        expect(reads.length, page).toBeGreaterThan(0);
      }
    });

    it('an admin session reaches the admin pages and APIs', async () => {
      request.cookies.set('support_admin', await signedIn('admin'));
      for (const [page, render] of ADMIN_PAGES) expect(await render(), page).toBeDefined();
      const created = await (await import('../api/debug/keys/route')).POST(json('POST', '/api/debug/keys', { name: 'guard test key', role: 'viewer' }));
      expect(created.status).toBe(201);
      expect((await created.json()).key).toMatch(/^tsk_[0-9a-f]{12}_/);
    });
  });

  it('every page, route handler and server action under /debug and /api/debug calls the guard first', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const open = new Set(['debug/sign-in/route.ts', 'api/debug/login/route.ts', 'api/debug/logout/route.ts', 'api/debug/oidc/start/route.ts', 'api/debug/oidc/callback/route.ts']);
    const files = ['debug', 'api/debug'].flatMap((dir) =>
      readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => /(^|\/)(page\.tsx|route\.ts)$/.test(f))
        .map((f) => path.posix.join(dir, f)),
    );
    expect(files.length).toBeGreaterThanOrEqual(18);
    for (const file of files.filter((f) => !open.has(f))) {
      const source = readFileSync(path.join(root, file), 'utf8');
      // A page is wrapped in inspectorPage() (it shows faults), and its function still calls the guard first.
      if (file.endsWith('page.tsx')) expect(source, file).toMatch(/export default inspectorPage\(async function /);
      const bodies = [...source.matchAll(/export (?:default )?(?:inspectorPage\()?async function \w*\([^)]*(?:\([^)]*\)[^)]*)*\)[^{]*\{\n\s*([^\n]*)/g)].map((m) => m[1]!);
      expect(bodies.length, file).toBeGreaterThan(0);
      for (const first of bodies) {
        expect(first, file).toMatch(/^(?:const (?:\w+|\{ refused(?:, principal)? \}) = )?await (?:requireAdmin|refuseNonAdmin|guardApi)\((?:'(?:viewer|admin)'(?:, [^)]*)?)?\);/);
        // What manages access, reads the audit trail or exports and deletes data asks for the admin role.
        if (ADMIN_ONLY.test(file)) expect(first, file).toMatch(/\('admin'/);
      }
      expect(source, `${file}: no server actions without the guard`).not.toMatch(/['"]use server['"]/);
    }
  });
});
