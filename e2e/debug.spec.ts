import { expect, test } from '@playwright/test';
import { ADMIN_TOKEN, APP_DB, APP_URL } from './env';
import { ask, lastReply, openChat, stub, traces } from './helpers';

/**
 * /debug, the retrieval inspector, against the app with the stub model (ADMIN_TOKEN set).
 * The customer asks in the widget; the support lead signs in and finds what the model saw.
 */

const db = traces(APP_DB);

test('without credentials /debug and its APIs answer 401 and show no trace or KB content', async ({ request }) => {
  for (const path of ['/debug', '/debug/try?q=refund', '/debug/health', '/debug/turns/some-turn']) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(401);
    const body = await response.text();
    expect(body).toContain('Sign in to the inspector');
    expect(body).not.toContain('Never promise');
    expect(body).not.toContain('refund-policy');
  }
  for (const path of ['/api/debug/turns', '/api/debug/health', '/api/debug/turns/some-turn']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(401);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/admin credential/i) });
  }
  expect((await request.post('/api/debug/try', { data: { question: 'refund' } })).status()).toBe(401);
  const wrong = await request.get('/api/debug/turns', { headers: { authorization: 'Bearer not-the-token' } });
  expect(wrong.status()).toBe(401);
  const wrongLogin = await request.post('/api/debug/login', { form: { token: 'not-the-token' }, maxRedirects: 0 });
  expect(wrongLogin.status()).toBe(303);
  expect(wrongLogin.headers().location).toBe('/debug/sign-in?next=%2Fdebug&error=wrong');
  expect(wrongLogin.headers()['set-cookie']).toBeUndefined();
  // The customer's API has no way to read traces.
  expect((await request.get('/api/chat')).status()).toBe(405);
});

test('a refund question asked in the widget shows up in /debug with the rule pinned, the policy sent and "refund" in the text sent', async ({ page }) => {
  await stub.reset();
  await page.goto('/');
  await openChat(page);
  await ask(page, 'can I get a refund?');
  const { turnId } = await lastReply(page, 1);
  await db.finished(turnId);

  // Sign in through the 401 page's form.
  const signIn = await page.goto('/debug');
  expect(signIn?.status()).toBe(401);
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();

  // The turns list, newest first.
  const row = page.locator(`[data-testid="turn-row"][data-turn-id="${turnId}"]`);
  await expect(row).toContainText('can I get a refund?');
  await expect(page.getByTestId('turn-row').first()).toHaveAttribute('data-turn-id', turnId);
  await row.getByRole('link', { name: 'can I get a refund?' }).click();

  // Its detail.
  await expect(page.getByTestId('turn-detail')).toHaveAttribute('data-turn-id', turnId);
  await expect(page.getByTestId('query-question')).toHaveText('can I get a refund?');
  await expect(page.getByTestId('pinned-text')).toContainText('Never promise a refund');
  await expect(page.locator('[data-testid="pinned-row"][data-section-id="rules/assistant-rules.md#refunds"]')).toBeVisible();
  const policy = page.locator('[data-testid="ranked-row"][data-section-id="billing/refund-policy.md#refund-policy"]');
  await expect(policy).toHaveAttribute('data-reason', 'scored');
  await expect(policy).toHaveAttribute('data-sent', 'true');

  // The exact text sent, searched for the rule's word.
  await page.getByTestId('context-search').fill('refund');
  await expect(page.getByTestId('context-match-count')).toHaveText(/^[1-9]\d* match/);
  await expect(page.getByTestId('context-match').first()).toBeVisible();

  // Filters: by section sent, by status.
  await page.goto(`/debug?section=${encodeURIComponent('billing/refund-policy.md#refund-policy')}&state=sent`);
  await expect(page.locator(`[data-testid="turn-row"][data-turn-id="${turnId}"]`)).toBeVisible();
  await page.goto('/debug?status=error&q=refund');
  await expect(page.locator(`[data-testid="turn-row"][data-turn-id="${turnId}"]`)).toHaveCount(0);

  // The same data through the API, with the session cookie.
  const api = await page.request.get(`/api/debug/turns/${turnId}`);
  expect(api.status()).toBe(200);
  const detail = await api.json();
  expect(detail.trace.systemPrompt).toContain('Never promise a refund');
  expect(detail.split.pinned).toBeGreaterThan(0);
});

test('"Try a question" with a greeting shows the floor, and the health panel shows coverage under 30%', async ({ page }) => {
  await page.request.post('/api/debug/login', { form: { token: ADMIN_TOKEN } });
  await page.goto('/debug/try');
  await page.getByTestId('try-question').fill('hi, can you help me?');
  await page.getByTestId('try-submit').click();
  await expect(page.getByTestId('floor-notice')).toBeVisible();
  await expect(page.locator('[data-testid="ranked-row"][data-reason="floor"]').first()).toBeVisible();
  await expect(page.getByTestId('query-terms')).toContainText('none');

  await page.goto('/debug/health');
  const coverage = await page.getByTestId('coverage').textContent();
  expect(Number.parseFloat(coverage!)).toBeLessThan(30);
  await expect(page.getByTestId('coverage-sentence')).toContainText('The model can ever see');
  await expect(page.getByTestId('never-sent-summary')).toContainText('were never in a single request');
  await expect(page.getByTestId('kb-check-summary')).toContainText('passes');
});

test('an API client can use the token as a Bearer credential', async ({ request }) => {
  const response = await request.post('/api/debug/try', {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    data: { question: 'how cheap is it' },
  });
  expect(response.status()).toBe(200);
  const { explanation } = await response.json();
  expect(explanation.sentIds).toContain('plans/plans-and-limits.md#plans-and-pricing');
  const bad = await request.post('/api/debug/try', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, data: { question: '' } });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error).toMatch(/question/);
});

test('the sign-in page works after a mistake: a wrong token, then the right one, lands on /debug', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  await page.goto('/debug/try?q=refund');
  await page.getByLabel('Admin token').fill('not-the-admin-token');
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Back on the styled sign-in page, with the page CSP, saying what went wrong.
  await expect(page).toHaveURL(/\/debug\/sign-in\?next=%2Fdebug%2Ftry%3Fq%3Drefund&error=wrong$/);
  await expect(page.getByRole('alert')).toHaveText('Wrong admin token.');
  await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCSS('background-color', 'rgb(31, 88, 214)');
  const signIn = await page.request.get('/debug/sign-in?error=wrong');
  expect(signIn.headers()['content-security-policy']).toMatch(/form-action 'self'/);
  // The second attempt is posted (an API CSP of form-action 'none' would block it) and goes where it was asked.
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/debug\/try\?q=refund$/);
  await expect(page.getByTestId('try-result')).toBeVisible();
  await page.goto('/debug');
  await expect(page.getByTestId('turns-total')).toBeVisible();
  expect(violations).toEqual([]);
});

test('a bad next (CR/LF, another host) is replaced by /debug, never a 500', async ({ request }) => {
  for (const next of ['/debug\r\nSet-Cookie: evil=1', '/debug\n', '//evil.example/debug', 'https://evil.example/', '/debug/%0d%0a']) {
    const right = await request.post('/api/debug/login', { form: { token: ADMIN_TOKEN, next }, maxRedirects: 0 });
    expect(right.status(), JSON.stringify(next)).toBe(303);
    expect(right.headers().location, JSON.stringify(next)).toBe(next === '/debug/%0d%0a' ? '/debug/%0d%0a' : '/debug');
    expect(right.headers()['set-cookie']).not.toContain('evil');
  }
  // Signed in now: the sign-in page sends an admin straight on, to /debug whatever next says.
  const again = await request.get('/debug/sign-in?next=%0d%0a', { maxRedirects: 0 });
  expect(again.status()).toBe(303);
  expect(again.headers().location).toBe('/debug');
});

test('the sign-in page with a bad next shows the form, posting to /debug', async ({ playwright }) => {
  const visitor = await playwright.request.newContext({ baseURL: APP_URL });
  const page = await visitor.get('/debug/sign-in?next=%0d%0aSet-Cookie:%20x=1&error=wrong');
  expect(page.status()).toBe(401);
  const html = await page.text();
  expect(html).toContain('Wrong admin token.');
  expect(html).toContain('<input type="hidden" name="next" value="/debug">');
  await visitor.dispose();
});

test('sign-out ends the session on the server: the old cookie no longer opens anything', async ({ playwright }) => {
  const admin = await playwright.request.newContext({ baseURL: APP_URL });
  const login = await admin.post('/api/debug/login', { form: { token: ADMIN_TOKEN }, maxRedirects: 0 });
  expect(login.status()).toBe(303);
  const cookie = /support_admin=[^;]+/.exec(login.headers()['set-cookie']!)![0];
  expect((await admin.get('/api/debug/turns')).status()).toBe(200);
  const out = await admin.post('/api/debug/logout', { maxRedirects: 0 });
  expect(out.status()).toBe(303);
  // Someone who kept a copy of the cookie (a shared machine, a stolen cookie) gets nothing.
  const copy = await playwright.request.newContext({ baseURL: APP_URL, extraHTTPHeaders: { cookie } });
  const api = await copy.get('/api/debug/turns');
  expect(api.status()).toBe(401);
  const page = await copy.get('/debug/health');
  expect(page.status()).toBe(404);
  const html = await page.text();
  expect(html).toContain('could not be found');
  expect(html).not.toContain('data-testid="coverage"');
  expect(html).not.toContain('Never promise');
  await Promise.all([admin.dispose(), copy.dispose()]);
});

test('sign-in and sign-out only from this site (Origin check)', async ({ request }) => {
  const forged = await request.post('/api/debug/login', { form: { token: ADMIN_TOKEN }, headers: { origin: 'https://evil.example' }, maxRedirects: 0 });
  expect(forged.status()).toBe(403);
  expect(forged.headers()['set-cookie']).toBeUndefined();
  expect((await forged.json()).error).toMatch(/cannot change the admin session/);
  expect((await request.post('/api/debug/logout', { headers: { origin: 'https://evil.example' }, maxRedirects: 0 })).status()).toBe(403);
  const same = await request.post('/api/debug/login', { form: { token: ADMIN_TOKEN }, headers: { origin: APP_URL }, maxRedirects: 0 });
  expect(same.status()).toBe(303);
});
