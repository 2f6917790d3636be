import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { sessionCookieValue } from '@/lib/admin/auth';
import { sessionKey } from '@/lib/admin/sessions';
import { loadVisitorSecret } from '@/lib/chat/visitor';
import { ADMIN_TOKEN, APP_URL, EXTRA_PORT } from './env';
import { watchCsp } from './helpers';
import { startApp, type Server } from './spawn';

/**
 * The inspector when what it reads is missing (issue 21), on the production build: the
 * database unreachable (DATABASE_URL at a closed loopback port), no knowledge base (KB_PATH at
 * a missing folder), a URL with a malformed percent-escape, a sign-in `?error=` that names an
 * Object.prototype property. Each answers clearly — a styled page or JSON 503 with the reason
 * for an admin, 400 with the security headers for a bad URL — never a bare 500, never a stack
 * trace in the log, never the database's password.
 */

test.describe.configure({ mode: 'serial' });

const CLOSED_PORT = EXTRA_PORT + 4; // nothing listens here
const PASSWORD = 'pw-that-must-never-show-9f3c';
const DATABASE_URL = `postgres://app:${PASSWORD}@127.0.0.1:${CLOSED_PORT}/postgres`;
const DB_REASON = `PostgreSQL 127.0.0.1:${CLOSED_PORT}/postgres: connect ECONNREFUSED 127.0.0.1:${CLOSED_PORT}`;
const bearer = { authorization: `Bearer ${ADMIN_TOKEN}` };
const VISITOR_SECRET = 'e2e-visitor-secret-0123456789abcdef0123';
/** A session cookie signed as the server signs them (its record cannot be looked up while the database is down). */
const session = () => ({
  cookie: `support_admin=${sessionCookieValue(sessionKey(loadVisitorSecret({ envSecret: VISITOR_SECRET, dataDir: '' })), 'S'.repeat(43), Date.now() + 3_600_000)}`,
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A GET with node:http: the path goes out byte for byte (fetch would normalise `%` escapes). */
function rawGet(base: string, rawPath: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, path: rawPath, method: 'GET', headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

const faultOf = (html: string) => /data-testid="inspector-fault" data-fault="(\w+)"/.exec(html)?.[1];
const reasonOf = (html: string) => /data-testid="inspector-fault-reason">([^<]*)</.exec(html)?.[1];
const alertOf = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1];
/** Stack traces (Next.js's `⨯ Error: …` and `    at …` lines) the server printed. */
const stackTraces = (output: string) => output.split('\n').filter((line) => /^\s*⨯|^\s+at /.test(line));

async function tryApi(base: string, headers: Record<string, string>) {
  return fetch(`${base}/api/debug/try`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ question: 'can I get a refund?' }) });
}

test.describe('the database unreachable', () => {
  let app: Server;
  test.beforeAll(async () => {
    app = await startApp(EXTRA_PORT + 3, { DATABASE_URL, VISITOR_SECRET, ADMIN_TOKEN, OPENAI_API_KEY: '' });
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('an admin sees each /debug page say "the database is unreachable" with the reason, under the pages\' CSP', async () => {
    for (const [credential, headers] of [['Bearer', bearer], ['session cookie', session()]] as const) {
      for (const page of ['/debug', '/debug/health', '/debug/turns/some-turn-id']) {
        const answer = await rawGet(app.url, page, headers);
        const what = `${page} (${credential})`;
        expect(answer.status, what).toBe(200);
        expect(faultOf(answer.body), what).toBe('database');
        expect(reasonOf(answer.body), what).toBe(DB_REASON);
        expect(answer.body, what).toContain('Retrieval inspector'); // inside the inspector's own layout
        expect(answer.headers['content-security-policy'], what).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
        expect(answer.body, what).not.toContain(PASSWORD);
      }
    }
    // A cookie's session cannot be checked: not even the KB pages are shown (a signed-out copy must not read them).
    const tryPage = await rawGet(app.url, '/debug/try?q=refund', session());
    expect(faultOf(tryPage.body)).toBe('database');
    expect(tryPage.body).not.toContain('data-testid="try-result"');
    // A Bearer token needs no session: the KB pages still work.
    const tryBearer = await rawGet(app.url, '/debug/try?q=refund', bearer);
    expect(tryBearer.status).toBe(200);
    expect(tryBearer.body).toContain('data-testid="try-result"');
  });

  test('the APIs answer JSON 503 { error } with the reason', async () => {
    const expected = { error: `the database is unreachable: ${DB_REASON}` };
    for (const [credential, headers] of [['Bearer', bearer], ['session cookie', session()]] as const) {
      for (const api of ['/api/debug/health', '/api/debug/turns', '/api/debug/turns/some-turn-id']) {
        const response = await fetch(`${app.url}${api}`, { headers });
        expect(response.status, `${api} (${credential})`).toBe(503);
        expect(await response.json(), `${api} (${credential})`).toEqual(expected);
      }
    }
    const tried = await tryApi(app.url, session());
    expect(tried.status).toBe(503);
    expect(await tried.json()).toEqual(expected);
    expect((await tryApi(app.url, bearer)).status).toBe(200);
  });

  test('a visitor is told only that the inspector is unavailable: the sign-in form, the login POST, sign-out', async () => {
    // No credential: the proxy's sign-in form, as always (nothing needs the database).
    expect((await fetch(`${app.url}/debug`)).status).toBe(401);
    expect((await fetch(`${app.url}/api/debug/turns`)).status).toBe(401);
    const form = await fetch(`${app.url}/debug/sign-in`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('name="token"');

    // The right token: no session can be issued. The form comes back saying so, and nothing more.
    const origin = { origin: app.url };
    const login = await fetch(`${app.url}/api/debug/login`, { method: 'POST', headers: origin, body: new URLSearchParams({ token: ADMIN_TOKEN, next: '/debug/health' }), redirect: 'manual' });
    expect(login.status).toBe(303);
    expect(login.headers.get('set-cookie')).toBeNull();
    const location = login.headers.get('location')!;
    expect(location).toBe('/debug/sign-in?next=%2Fdebug%2Fhealth&error=unavailable');
    const unavailable = await fetch(`${app.url}${location}`);
    expect(unavailable.status).toBe(503);
    const html = await unavailable.text();
    expect(alertOf(html)).toBe('The inspector is unavailable right now: its database cannot be reached. Try again in a moment.');
    expect(html).not.toMatch(/PostgreSQL|ECONNREFUSED|127\.0\.0\.1|postgres:/);
    expect(unavailable.headers.get('content-security-policy')).toMatch(/'nonce-/);

    // A wrong token is still just wrong.
    const wrong = await fetch(`${app.url}/api/debug/login`, { method: 'POST', headers: origin, body: new URLSearchParams({ token: 'not-the-token-at-all' }), redirect: 'manual' });
    expect(wrong.headers.get('location')).toBe('/debug/sign-in?next=%2Fdebug&error=wrong');

    // JSON sign-in with the right token: the caller proved the token, so it gets the reason.
    const json = await fetch(`${app.url}/api/debug/login`, { method: 'POST', headers: { ...origin, 'content-type': 'application/json' }, body: JSON.stringify({ token: ADMIN_TOKEN }) });
    expect(json.status).toBe(503);
    expect(await json.json()).toEqual({ error: `the database is unreachable: ${DB_REASON}` });

    // Sign-out clears this browser's cookie and says the session could not be ended elsewhere.
    const logout = await fetch(`${app.url}/api/debug/logout`, { method: 'POST', headers: { ...origin, ...session() }, redirect: 'manual' });
    expect(logout.status).toBe(303);
    expect(logout.headers.get('set-cookie')).toMatch(/^support_admin=; Path=\/; Max-Age=0/);
    const after = await fetch(`${app.url}${logout.headers.get('location')}`);
    expect(alertOf(await after.text())).toMatch(/^Signed out in this browser\. The database cannot be reached, so other copies of the session could not be ended/);
  });

  test('in the browser: the fault panel in the inspector\'s look, no CSP violation; the log has no stack trace and no password', async ({ browser }) => {
    const context = await browser.newContext({ extraHTTPHeaders: bearer });
    const page = await context.newPage();
    const violations = await watchCsp(page);
    await page.goto(`${app.url}/debug/health`);
    await expect(page.getByTestId('inspector-fault')).toContainText('The database is unreachable');
    await expect(page.getByTestId('inspector-fault-reason')).toHaveText(DB_REASON);
    await expect(page.getByRole('navigation', { name: 'Inspector' })).toBeVisible();
    // The stylesheet applied (unstyled, a <section> has no border).
    expect(await page.getByTestId('inspector-fault').evaluate((e) => getComputedStyle(e).borderTopWidth)).toBe('1px');
    expect(violations).toEqual([]);
    await context.close();
    expect(stackTraces(app.output())).toEqual([]);
    expect(app.output()).not.toContain(PASSWORD);
  });
});

test.describe('no knowledge base', () => {
  let app: Server;
  let root: string;
  let missing: string;
  test.beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'e2e-inspector-faults-'));
    missing = path.join(root, 'no-such-kb');
    app = await startApp(EXTRA_PORT + 5, { KB_PATH: missing, TRACE_DB_PATH: path.join(root, 'traces.db'), ADMIN_TOKEN, OPENAI_API_KEY: '' });
    await app.waitForOutput(/THE KNOWLEDGE BASE COULD NOT BE LOADED/);
  });
  test.afterAll(async () => {
    await app?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test('pages that need the KB say "no knowledge base is loaded" with the loader\'s error; the turn list still works', async () => {
    const reason = `${missing}: no such file or folder`;
    for (const page of ['/debug/health', '/debug/try?q=refund', '/debug/sections/billing%2Fbilling-faq.md']) {
      const answer = await rawGet(app.url, page, bearer);
      expect(answer.status, page).toBe(200);
      expect(faultOf(answer.body), page).toBe('knowledge');
      expect(reasonOf(answer.body), page).toBe(reason);
    }
    const turns = await rawGet(app.url, '/debug', bearer);
    expect(turns.status).toBe(200);
    expect(turns.body).toContain('data-testid="turns-table"');
    expect(turns.body).toMatch(/data-testid="inspector-fault-notice" data-fault="knowledge">/);
    expect(turns.body).toContain(reason);
    expect((await fetch(`${app.url}/api/debug/turns`, { headers: bearer })).status).toBe(200);
  });

  test('/api/debug/health and /api/debug/try answer JSON 503 with the reason', async () => {
    const expected = { error: `no knowledge base is loaded: ${missing}: no such file or folder` };
    const health = await fetch(`${app.url}/api/debug/health`, { headers: bearer });
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual(expected);
    const tried = await tryApi(app.url, bearer);
    expect(tried.status).toBe(503);
    expect(await tried.json()).toEqual(expected);
  });

  test('/debug/sign-in?error=__proto__ (constructor, valueOf, toString…) is the plain form, not a 500 with stack traces', async () => {
    for (const key of ['__proto__', 'constructor', 'valueOf', 'toString', 'hasOwnProperty']) {
      const response = await fetch(`${app.url}/debug/sign-in?error=${key}`);
      expect(response.status, key).toBe(200);
      const html = await response.text();
      expect(html, key).toContain('name="token"');
      expect(alertOf(html), key).toBeUndefined();
    }
    expect(stackTraces(app.output())).toEqual([]);
  });
});

test('a malformed percent-escape is a 400 with the security headers, never a bare 500', async () => {
  const cases: [string, 'page' | 'api'][] = [
    ['/help/%ff', 'page'],
    ['/help/a%2', 'page'],
    ['/debug/sections/%ff', 'page'],
    ['/debug/turns/%e2%82', 'page'],
    ['/api/conversations/%', 'api'],
    ['/api/conversations/%zz', 'api'],
    ['/api/debug/turns/%ff', 'api'],
  ];
  for (const [rawPath, kind] of cases) {
    for (const headers of [{}, bearer]) {
      const answer = await rawGet(APP_URL, rawPath, headers);
      expect(answer.status, rawPath).toBe(400);
      expect(answer.headers['x-content-type-options'], rawPath).toBe('nosniff');
      expect(answer.headers['x-frame-options'], rawPath).toBe('DENY');
      expect(answer.headers['referrer-policy'], rawPath).toBe('strict-origin-when-cross-origin');
      expect(answer.headers['cache-control'], rawPath).toBe('no-store');
      if (kind === 'api') {
        expect(answer.headers['content-security-policy'], rawPath).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
        expect(JSON.parse(answer.body), rawPath).toEqual({ error: expect.stringMatching(/malformed percent-escape/) });
      } else {
        expect(answer.headers['content-security-policy'], rawPath).toMatch(/frame-ancestors 'none'/);
        expect(answer.body, rawPath).toMatch(/^Bad request: the address has a malformed percent-escape/);
      }
    }
  }
  // Well-formed escapes still reach their routes.
  expect((await rawGet(APP_URL, '/api/conversations/conv-%41bc-12345')).status).toBe(200);
});
