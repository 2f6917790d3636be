import { expect, test } from '@playwright/test';
import { ADMIN_TOKEN, APP_URL } from './env';
import { ask, lastReply, openChat, question, stub, watchCsp } from './helpers';

/**
 * Security headers on a page, an API response, the /debug 401 page and a static file; a
 * Content-Security-Policy the app runs under without a single violation (the widget and
 * /debug exercised in the browser); nothing private served as a static file.
 */

function directives(csp: string | null): Map<string, string> {
  expect(csp, 'a Content-Security-Policy header').toBeTruthy();
  return new Map(csp!.split(';').map((d) => d.trim().split(/\s+(.*)/s).slice(0, 2) as [string, string]));
}

function expectCommonHeaders(headers: Headers, what: string) {
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  expect(headers.get('x-frame-options'), what).toBe('DENY');
  expect(headers.get('permissions-policy'), what).toContain('camera=()');
  expect(headers.get('x-powered-by'), what).toBeNull();
}

function expectPageCsp(headers: Headers, what: string): string {
  const csp = directives(headers.get('content-security-policy'));
  expect(csp.get('frame-ancestors'), what).toBe("'none'");
  expect(csp.get('object-src'), what).toBe("'none'");
  expect(csp.get('base-uri'), what).toBe("'none'");
  const script = csp.get('script-src')!;
  expect(script, what).toMatch(/^'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'$/);
  expect(script, `${what}: no unsafe-inline / unsafe-eval in production`).not.toMatch(/unsafe/);
  return /'nonce-([^']+)'/.exec(script)![1]!;
}

test('a page: CSP with a fresh nonce that its scripts carry, frame-ancestors none, nosniff, referrer policy', async () => {
  const first = await fetch(`${APP_URL}/`);
  expect(first.status).toBe(200);
  expectCommonHeaders(first.headers, '/');
  const nonce = expectPageCsp(first.headers, '/');
  const html = await first.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  const second = expectPageCsp((await fetch(`${APP_URL}/`)).headers, '/ again');
  expect(second).not.toBe(nonce);
  // A page that does not exist gets the same protection.
  const missing = await fetch(`${APP_URL}/no-such-page`);
  expect(missing.status).toBe(404);
  expectCommonHeaders(missing.headers, '404');
  expectPageCsp(missing.headers, '404');
});

test('API responses: nosniff, a CSP that allows nothing and no framing', async () => {
  const responses = {
    'chat 400': await fetch(`${APP_URL}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    'chat 415': await fetch(`${APP_URL}/api/chat`, { method: 'POST', body: 'x' }),
    conversation: await fetch(`${APP_URL}/api/conversations/conv-12345678`),
    health: await fetch(`${APP_URL}/api/health`),
    'debug API 401': await fetch(`${APP_URL}/api/debug/turns`),
  };
  for (const [what, response] of Object.entries(responses)) {
    expectCommonHeaders(response.headers, what);
    expect(response.headers.get('content-type'), what).toMatch(/^application\/json/);
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('default-src'), what).toBe("'none'");
    expect(csp.get('frame-ancestors'), what).toBe("'none'");
  }
  expect(responses['debug API 401'].status).toBe(401);
});

test('the /debug 401 sign-in page: the same headers, its inline style allowed by nonce only', async () => {
  const response = await fetch(`${APP_URL}/debug`);
  expect(response.status).toBe(401);
  expectCommonHeaders(response.headers, '/debug 401');
  const nonce = expectPageCsp(response.headers, '/debug 401');
  expect(directives(response.headers.get('content-security-policy')).get('form-action')).toBe("'self'");
  expect(await response.text()).toContain(`<style nonce="${nonce}">`);
});

test('static files get nosniff; nothing private is served (no KB files, database, env or sources)', async () => {
  const html = await (await fetch(`${APP_URL}/`)).text();
  const asset = /\/_next\/static\/[^"]+\.js/.exec(html)![0];
  const js = await fetch(`${APP_URL}${asset}`);
  expect(js.status).toBe(200);
  expect(js.headers.get('x-content-type-options')).toBe('nosniff');
  for (const path of [
    '/content/billing/refund-policy.md',
    '/content/synonyms.json',
    '/billing/refund-policy.md',
    '/synonyms.json',
    '/data/traces.db',
    '/.env',
    '/.env.local',
    '/package.json',
    '/next.config.mjs',
    '/README.md',
    '/lib/env.ts',
    '/_next/../content/rules/assistant-rules.md',
  ]) {
    const response = await fetch(`${APP_URL}${path}`);
    expect(response.status, path).toBe(404);
    const body = await response.text();
    expect(body, path).not.toContain('Never promise');
    expect(body, path).not.toContain('SQLite format');
  }
});

test('the widget runs under the CSP without a violation', async ({ page }) => {
  await stub.reset();
  const violations = await watchCsp(page);
  await page.goto('/');
  await openChat(page);
  await ask(page, 'can I get a refund?');
  await lastReply(page, 1);
  expect(violations).toEqual([]);
});

test('/debug runs under the CSP without a violation (list, turn detail, try, health)', async ({ page }) => {
  await stub.reset();
  const asked = await fetch(`${APP_URL}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(question('conv-csp-0001', 'can I get a refund?')),
  });
  await asked.text(); // a turn to look at
  const violations = await watchCsp(page);
  await page.goto('/debug');
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('turn-row').first()).toBeVisible();
  await page.getByTestId('turn-row').first().getByRole('link', { name: 'can I get a refund?' }).click();
  await expect(page.getByTestId('turn-detail')).toBeVisible();
  await page.getByTestId('context-search').fill('refund');
  await page.goto('/debug/try');
  await page.getByTestId('try-question').fill('how do I start a live stream?');
  await page.getByTestId('try-submit').click();
  await expect(page.locator('[data-testid="ranked-row"]').first()).toBeVisible();
  await page.goto('/debug/health');
  await expect(page.getByTestId('coverage')).toBeVisible();
  expect(violations).toEqual([]);
});
