import { execFile } from 'node:child_process';
import type { Server as HttpServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import Provider from 'oidc-provider';
import { EXTRA_PORT } from './env';
import { question, readChatStream } from './helpers';
import { startApp, type Server } from './spawn';

/**
 * A support team on /debug (issue 27), on the production build, against a real OpenID
 * Connect provider the test starts on loopback (oidc-provider 8.8, its development login and
 * consent pages): a viewer signs in in the browser and reads a turn, and gets 403 on an admin
 * action; an admin creates an API key in the browser, which works as a Bearer token and stops
 * working once revoked; a user outside the allowed domain is refused; a tampered `state` is
 * refused; each step is in the audit trail. Then `npm run data:delete` for one visitor: no
 * /debug page or API returns anything of theirs, and the other visitor's turn is untouched.
 */

const PROVIDER_PORT = EXTRA_PORT + 60;
const APP_PORT = EXTRA_PORT + 61;
const ISSUER = `http://127.0.0.1:${PROVIDER_PORT}`;
const APP = `http://127.0.0.1:${APP_PORT}`;
const CLIENT = { id: 'support-debug', secret: 'e2e-oidc-client-secret-0123456789' };
const ADMIN_TOKEN = 'e2e-team-admin-token-0123456789';
const ROOT = path.resolve(import.meta.dirname, '..');

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let provider: HttpServer;
let app: Server;
let dbFile: string;
/** Visitor A's turn (the one read, exported and deleted) and visitor B's. */
const customers = { a: { turnId: '', visitor: '', conversation: 'conv-team-aaaa0001' }, b: { turnId: '', conversation: 'conv-team-bbbb0001' } };
const QUESTION_A = 'zebra quagga okapi';
const QUESTION_B = 'how do I start a live stream?';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const oidc = new Provider(ISSUER, {
    clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [`${APP}/api/debug/oidc/callback`] }],
    pkce: { methods: ['S256'], required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    // Anyone may log in at this provider (its development form takes any login): the app decides who may enter.
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => accountClaims(id) }),
    cookies: { keys: ['e2e-provider-cookie-key'] },
    features: { devInteractions: { enabled: true } },
  });
  provider = oidc.listen(PROVIDER_PORT, '127.0.0.1') as HttpServer;
  dbFile = path.join(mkdtempSync(path.join(tmpdir(), `e2e-team-${APP_PORT}-`)), 'traces.db');
  app = await startApp(APP_PORT, {
    OPENAI_API_KEY: '',
    TRACE_DB_PATH: dbFile,
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
    ADMIN_TOKEN,
    OIDC_ISSUER: ISSUER,
    OIDC_CLIENT_ID: CLIENT.id,
    OIDC_CLIENT_SECRET: CLIENT.secret,
    OIDC_ALLOWED_DOMAINS: 'acme.test',
    OIDC_ADMIN_GROUPS: 'support-admins',
  });
  // Two customers, each with a turn; A votes on theirs.
  for (const [who, text] of [['a', QUESTION_A], ['b', QUESTION_B]] as const) {
    const response = await fetch(`${APP}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question(customers[who].conversation, text)) });
    const { turnId } = await readChatStream(response);
    customers[who].turnId = turnId!;
    if (who === 'a') {
      const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
      customers.a.visitor = cookie.slice('support_visitor='.length).split('.')[0]!;
      const vote = await fetch(`${APP}/api/feedback`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ turnId, vote: 'down', reason: 'zebra reason' }) });
      expect(vote.status).toBe(200);
    }
  }
});

test.afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => provider?.close(resolve));
});

/**
 * The provider's accounts: the login is the email, verified — but `unverified:<email>` has
 * `email_verified: false` and `unclaimed:<email>` no `email_verified` claim at all.
 */
function accountClaims(login: string): { sub: string; [claim: string]: unknown } {
  const [, kind, email] = /^(?:(unverified|unclaimed):)?(.*)$/.exec(login)!;
  const verified = kind === 'unclaimed' ? {} : { email_verified: kind !== 'unverified' };
  return { sub: login, email, ...verified, name: email, groups: email!.startsWith('ann@') ? ['support-admins'] : ['support'] };
}

/** The provider's round trip in the browser: the inspector's button, the provider's login form and consent. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.goto(`${APP}/debug`);
  await page.getByTestId('oidc-sign-in').click();
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext({ baseURL: APP })).newPage();
}

const sessionCookie = async (page: Page) => (await page.context().cookies()).find((c) => c.name === 'support_admin');

test('a viewer signs in with the company account in the browser and reads a turn; an admin action answers 403', async ({ browser }) => {
  const page = await newPage(browser);
  await signInAtProvider(page, 'vera@acme.test');
  await expect(page).toHaveURL(`${APP}/debug`);
  await expect(page.getByTestId('signed-in-as')).toHaveText('vera@acme.test · viewer');
  expect(await sessionCookie(page)).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  await page.locator(`[data-testid="turn-row"][data-turn-id="${customers.a.turnId}"]`).getByRole('link', { name: QUESTION_A }).click();
  await expect(page.getByTestId('query-question')).toHaveText(QUESTION_A);
  // No admin pages in the navigation, and none answer: the API refuses 403, the page too.
  await expect(page.getByRole('link', { name: 'Team', exact: true })).toHaveCount(0);
  const create = await page.request.post(`${APP}/api/debug/keys`, { data: { name: 'sneaky', role: 'admin' }, headers: { origin: APP } });
  expect(create.status()).toBe(403);
  expect((await create.json()).error).toBe('this needs the admin role; vera@acme.test is a viewer');
  expect((await page.goto(`${APP}/debug/team`))!.status()).toBe(403);
  await page.context().close();
});

test('an admin creates an API key in the browser; it works as a Bearer token until it is revoked', async ({ browser }) => {
  const page = await newPage(browser);
  await signInAtProvider(page, 'ann@acme.test');
  await expect(page.getByTestId('signed-in-as')).toHaveText('ann@acme.test · admin');
  await page.getByRole('link', { name: 'Team', exact: true }).click();
  await page.getByTestId('key-name').fill('e2e export');
  await page.getByTestId('key-role').selectOption('viewer');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-api-key').textContent())!;
  expect(key).toMatch(/^tsk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
  const row = page.locator('[data-testid="api-key-row"][data-key-name="e2e export"]');
  await expect(row).toHaveAttribute('data-revoked', 'no');
  await expect(row).not.toContainText(key.slice(12)); // the list shows only its first characters

  const me = await fetch(`${APP}/api/debug/me`, { headers: bearer(key) });
  expect(await me.json()).toEqual({ actor: 'key:e2e export', role: 'viewer', via: 'key' });
  const turn = await fetch(`${APP}/api/debug/turns/${customers.a.turnId}`, { headers: bearer(key) });
  expect(turn.status).toBe(200);
  expect((await turn.json()).trace.question).toBe(QUESTION_A);

  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByTestId('revoke-key').click();
  await expect(row).toHaveAttribute('data-revoked', 'yes');
  const after = await fetch(`${APP}/api/debug/turns/${customers.a.turnId}`, { headers: bearer(key) });
  expect(after.status).toBe(401);
  await page.context().close();
});

test('a user outside the allowed domain is refused, with no session', async ({ browser }) => {
  const page = await newPage(browser);
  const back = page.waitForResponse((r) => r.url().startsWith(`${APP}/debug/sign-in`));
  await signInAtProvider(page, 'mallory@evil.test');
  expect((await back).status()).toBe(403);
  await expect(page.getByRole('alert')).toHaveText('That account may not use the inspector. Ask an admin to add you to the members list.');
  expect(await sessionCookie(page)).toBeUndefined();
  await page.context().close();
});

test('a tampered state is refused, with no session', async ({ browser }) => {
  const page = await newPage(browser);
  // The state the app sends the provider is altered on the way (Playwright cannot intercept the
  // provider's redirects back, only this first request): it comes back altered, and the
  // browser's pending cookie still holds the one the app made.
  await page.route(`${APP}/api/debug/oidc/start**`, async (route) => {
    const response = await route.fetch({ maxRedirects: 0 });
    const location = new URL(response.headers().location!);
    location.searchParams.set('state', `${location.searchParams.get('state')}x`);
    await route.fulfill({ response, headers: { ...response.headers(), location: location.href } });
  });
  await signInAtProvider(page, 'vera@acme.test');
  await expect(page).toHaveURL(/\/debug\/sign-in\?next=%2Fdebug&error=oidc-failed$/);
  await expect(page.getByRole('alert')).toHaveText('The sign-in with your company account did not complete. Try again.');
  expect(await sessionCookie(page)).toBeUndefined();
  await page.context().close();
});

test('each step is in the audit trail: who, what, when, from where', async ({ browser }) => {
  const response = await fetch(`${APP}/api/debug/audit?pageSize=200`, { headers: bearer(ADMIN_TOKEN) });
  const { entries } = (await response.json()) as { entries: { action: string; actor: string; role?: string; via: string; target?: string; outcome: string; detail?: Record<string, unknown>; source: string; at: string }[] };
  const steps = [...entries].reverse().map((e) => [e.action, e.actor, e.outcome, e.target ?? '', e.detail?.reason ?? e.detail?.because ?? '']);
  const keyPrefix = entries.find((e) => e.action === 'key.create')!.detail!.key as string;
  expect(steps).toEqual([
    ['sign-in', 'vera@acme.test', 'ok', expect.any(String), 'allowed domain'],
    ['turn.list', 'vera@acme.test', 'ok', '', ''],
    ['turn.view', 'vera@acme.test', 'ok', customers.a.turnId, ''],
    ['access.refused', 'vera@acme.test', 'refused', 'POST /api/debug/keys', ''],
    ['access.refused', 'vera@acme.test', 'refused', '/debug/team', ''],
    ['sign-in', 'ann@acme.test', 'ok', expect.any(String), 'admin group'],
    ['turn.list', 'ann@acme.test', 'ok', '', ''],
    ['key.create', 'ann@acme.test', 'ok', 'e2e export', ''],
    ['turn.view', 'key:e2e export', 'ok', customers.a.turnId, ''],
    ['key.revoke', 'ann@acme.test', 'ok', 'e2e export', ''],
    ['sign-in.failed', `key:${keyPrefix}…`, 'refused', '', 'unknown or revoked API key'],
    ['sign-in.failed', 'mallory@evil.test', 'refused', '', 'outside the allowed domains and groups'],
    ['sign-in.failed', 'unknown', 'refused', '', expect.stringMatching(/state/)],
  ]);
  for (const e of entries) {
    expect(e.source).toBe('ip:127.0.0.1');
    expect(Date.now() - Date.parse(e.at)).toBeLessThan(120_000);
  }
  expect(entries.find((e) => e.action === 'sign-in' && e.actor === 'vera@acme.test')).toMatchObject({ role: 'viewer', via: 'oidc' });

  // The same trail on /debug, for an admin (here: the token's sign-in form).
  const page = await newPage(browser);
  await page.goto(`${APP}/debug/sign-in`);
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'Audit', exact: true }).click();
  await expect(page.locator('[data-testid="audit-row"][data-action="key.revoke"]')).toContainText('ann@acme.test');
  await expect(page.locator('[data-testid="audit-row"][data-outcome="refused"]')).toHaveCount(5);
  await page.context().close();
});

test('data:delete for a visitor: no /debug page or API returns anything of theirs; the other visitor is untouched', async () => {
  const a = customers.a;
  const get = async (url: string) => {
    const response = await fetch(`${APP}${url}`, { headers: bearer(ADMIN_TOKEN) });
    return { status: response.status, text: await response.text() };
  };
  const READS = ['/debug', `/debug?conversation=${a.conversation}`, '/debug/health', '/api/debug/turns', `/api/debug/turns?conversation=${a.conversation}`, '/api/debug/health'];
  // Before: A's turn, question and vote are there (the health page lists "zebra" as a word the KB lacks).
  expect((await get('/debug/health')).text).toContain('zebra');
  expect((await get(`/api/debug/customer-data/export?kind=visitor&value=${a.visitor}`)).text).toContain(QUESTION_A);

  const output = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['--import', 'tsx', 'scripts/data-delete.mts', `--visitor=${a.visitor}`], { cwd: ROOT, env: { ...process.env, TRACE_DB_PATH: dbFile } }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
  expect(output).toBe('deleted 1 turns, 1 conversations, 1 feedback, 0 hand-offs (1 visitor); recorded in the audit trail\n');

  for (const url of READS) {
    const { status, text } = await get(url);
    expect(status, url).toBe(200);
    // (A page filtered by the conversation names it in its own filter form: what was asked, not what is kept.)
    const gone = [a.turnId, a.visitor, QUESTION_A, 'zebra', ...(url.includes(a.conversation) ? [] : [a.conversation])];
    for (const piece of gone) expect(text, `${url} still holds ${piece}`).not.toContain(piece);
  }
  expect((await get(`/debug/turns/${a.turnId}`)).status).toBe(404);
  expect((await get(`/api/debug/turns/${a.turnId}`)).status).toBe(404);
  expect(JSON.parse((await get(`/api/debug/customer-data/export?kind=visitor&value=${a.visitor}`)).text).turns).toEqual([]);
  // The other visitor's turn is untouched.
  expect((await get('/api/debug/turns')).text).toContain(customers.b.turnId);
  expect(JSON.parse((await get(`/api/debug/turns/${customers.b.turnId}`)).text).trace.question).toBe(QUESTION_B);
  // The deletion is on the record, without the data: who ran it, the counts, the subject as a keyed hash.
  const audit = (await get('/api/debug/audit?action=data.delete')).text;
  const [deletion] = JSON.parse(audit).entries as { actor: string; via: string; target: string; detail: Record<string, number> }[];
  expect(deletion).toMatchObject({ actor: expect.stringMatching(/^cli:/), via: 'cli', target: expect.stringMatching(/^visitor:[0-9a-f]{16}$/), detail: { turns: 1, conversations: 1, feedback: 1 } });
  expect(audit).not.toContain(a.visitor);
});

test("an unverified address is not a member: an account claiming a listed admin's email, unverified or without the claim, is refused", async ({ browser }) => {
  const listed = await fetch(`${APP}/api/debug/members`, {
    method: 'POST',
    headers: { ...bearer(ADMIN_TOKEN), 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'boss@acme.test', role: 'admin' }),
  });
  expect(listed.status).toBe(200);
  for (const login of ['unverified:boss@acme.test', 'unclaimed:boss@acme.test']) {
    const page = await newPage(browser);
    const back = page.waitForResponse((r) => r.url().startsWith(`${APP}/debug/sign-in`));
    await signInAtProvider(page, login);
    expect((await back).status(), login).toBe(403);
    expect(await sessionCookie(page), login).toBeUndefined();
    await page.context().close();
  }
  const audit = await fetch(`${APP}/api/debug/audit?actor=boss%40acme.test`, { headers: bearer(ADMIN_TOKEN) });
  const { entries } = (await audit.json()) as { entries: { action: string; outcome: string; detail?: { reason?: string } }[] };
  expect(entries.map((e) => [e.action, e.outcome, e.detail?.reason])).toEqual([
    ['sign-in.failed', 'refused', 'the email address is not verified'],
    ['sign-in.failed', 'refused', 'the email address is not verified'],
  ]);
});
