import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { oidcFailureDigest, type FailureDigest } from '@/lib/admin/failure-digest';
import { createOidcSignIn, OIDC_PENDING_COOKIE, oidcSettings } from '@/lib/admin/oidc';
import { parseEnv } from '@/lib/env';
import { PEER_HEADER } from '@/lib/rate-limit/client';
import { fillTestRegistry } from '@/lib/testing/registry';
import { SqliteStore } from '@/lib/store/sqlite';

/**
 * The OpenID Connect callback against what an attacker sends it (issue 46, finding 3): a
 * flood of callbacks with no sign-in started is throttled like a wrong admin token (429 with
 * Retry-After, the credential unchecked) and audited in bounded form (one row per client per
 * minute, with counts); a provider error text with a newline reaches the log and the audit
 * trail as one escaped, bounded line. The route is called in-process, next/headers replaced by
 * the request's cookies; the provider is a discovery document on loopback (openid-client reads
 * it before it checks the provider's answer).
 */

const KEY = new Uint8Array(32).fill(7);
const cookies = vi.hoisted(() => new Map<string, string>());
vi.mock('server-only', () => ({}));
vi.mock('next/headers', () => ({
  cookies: async () => ({ get: (name: string) => (cookies.has(name) ? { name, value: cookies.get(name) } : undefined) }),
}));

let provider: http.Server;
let issuer = '';
beforeAll(async () => {
  provider = http.createServer((request, response) => {
    if (request.url !== '/.well-known/openid-configuration') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`, response_types_supported: ['code'] }));
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => provider.close(() => resolve())));

let store: SqliteStore;
let digest: FailureDigest;
let errors: string[];

/** A server with the provider configured, TRUST_PROXY as given, a fresh store, throttle and digest. */
function server(trustProxy = 0) {
  const env = parseEnv({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'support', OIDC_CLIENT_SECRET: 'client-secret', OIDC_ALLOWED_DOMAINS: 'acme.test', TRUST_PROXY: String(trustProxy) });
  store = new SqliteStore(':memory:');
  digest = oidcFailureDigest(() => store);
  const oidc = createOidcSignIn(oidcSettings(env)!, () => KEY);
  fillTestRegistry(env, { store: () => store, sessionKey: () => KEY, oidc, oidcFailures: digest }).resetThrottle();
  return oidc;
}

const callback = async (query: string, headers: Record<string, string>) => {
  const { GET } = await import('./route');
  return GET(new Request(`http://127.0.0.1/api/debug/oidc/callback?${query}`, { headers }));
};

const failedRows = async () => (await store.listAudit({ action: 'sign-in.failed' }, 1, 200)).entries.reverse();

beforeEach(() => {
  cookies.clear();
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args.map(String).join(' ')));
});

describe('the OpenID Connect callback under a flood', () => {
  it('one address, 200 forged callbacks: 429 with Retry-After after the throttle burst, and 2 audit rows with the counts', async () => {
    server();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 200; i++) {
      const response = await callback(`code=forged-${i}&state=forged`, { [PEER_HEADER]: '203.0.113.7' });
      statuses.push(response.status);
      if (response.status === 429) retryAfter ??= response.headers.get('retry-after');
    }
    // ADMIN_FAILURES_PER_MINUTE (5): five are checked and fail back to the sign-in page, the rest are refused unchecked.
    expect(statuses.slice(0, 5)).toEqual([303, 303, 303, 303, 303]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // The first failure is on the record at once; the rest of the minute is one row with its counts.
    expect((await failedRows()).map((e) => e.detail)).toEqual([{ reason: expect.stringMatching(/no sign-in was started/), failed: 1, throttled: 0, since: expect.any(String) }]);
    await digest.flush(Date.now() + 61_000);
    const rows = await failedRows();
    expect(rows.map((e) => [e.actor, e.source, e.detail?.failed, e.detail?.throttled])).toEqual([
      ['unknown', 'ip:203.0.113.7', 1, 0],
      ['unknown', 'ip:203.0.113.7', 4, 195],
    ]);
    expect(errors).toHaveLength(2); // a log line per row, not per request
  });

  it('20 addresses behind a trusted proxy, 20 callbacks each: the global limit holds, one row per address per minute', async () => {
    server(1);
    const statuses: number[] = [];
    for (let i = 0; i < 400; i++) {
      const response = await callback(`code=forged-${i}&state=forged`, { [PEER_HEADER]: '10.0.0.2', 'x-forwarded-for': `198.51.100.${i % 20}` });
      statuses.push(response.status);
    }
    // ADMIN_FAILURES_GLOBAL_PER_MINUTE (30) failures checked in all; every other request refused unchecked.
    expect(statuses.filter((s) => s === 303)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(370);
    expect(await failedRows()).toHaveLength(20);
    await digest.flush(Date.now() + 61_000);
    const rows = await failedRows();
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((e) => e.source)).size).toBe(20);
    expect(rows.reduce((n, e) => n + Number(e.detail!.failed) + Number(e.detail!.throttled), 0)).toBe(400);
  });
});

describe("the provider's error text in the audit trail and the log", () => {
  it('a crafted error_description with a newline is one escaped, bounded line', async () => {
    const oidc = server();
    const started = await oidc.start('http://127.0.0.1', '/debug');
    cookies.set(OIDC_PENDING_COOKIE, started.pending);
    const state = new URL(started.url).searchParams.get('state')!;
    const forged = `denied\n[debug] OpenID Connect sign-in ok for boss@acme.test\r\n${'x'.repeat(5000)}`;
    const response = await callback(new URLSearchParams({ error: 'access_denied', error_description: forged, state }).toString(), { [PEER_HEADER]: '203.0.113.7' });
    expect(response.status).toBe(303);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^\[debug\] OpenID Connect sign-in refused from ip:203\.0\.113\.7: the provider answered access_denied: denied\\n\[debug\] OpenID Connect sign-in ok for boss@acme\.test\\r\\nxxx/);
    expect(errors[0]).not.toMatch(/[\r\n]/);
    expect(errors[0]!.length).toBeLessThan(400);
    const [row] = await failedRows();
    const reason = String(row!.detail!.reason);
    expect(reason).toMatch(/^the provider answered access_denied: denied\\n\[debug\]/);
    expect(reason).not.toMatch(/[\r\n]/);
    expect(reason.length).toBeLessThanOrEqual(321);
  });
});
