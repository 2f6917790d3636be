import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXTRA_PORT } from './env';
import { watchCsp } from './helpers';
import { startKbCopyApp } from './kb-copy';
import { startApp, statusOf } from './spawn';

/**
 * The help pages under HTTP (servers of their own, one at a time on one port): the ETag names
 * the KB in service, so a revalidation gets 304 until an edit is reloaded, and then the new
 * content with a new ETag; with no KB loaded a help page is a 503 page and the log says so
 * once; a client over its help page limit gets a 429 page with Retry-After while the rest
 * of the site serves it. Correctness only: the costs are in `npm run bench:help`.
 */

test.describe.configure({ mode: 'serial' });

const PORT = EXTRA_PORT + 10;
const PAGE = '/help/billing/refund-policy';

test('a help page answers 304 to its ETag until the KB is reloaded after an edit, then the new content with a new ETag', async ({ page }) => {
  const server = await startKbCopyApp(PORT, 'e2e-help-etag-');
  try {
    const url = `${server.app.url}${PAGE}`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const html = await first.text();
    expect(html).toContain('Who can request a refund');
    expect(html).not.toContain('Refunds by carrier pigeon');

    const again = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('content-security-policy')).toBeNull(); // the browser keeps the CSP that matches its copy
    expect(await again.text()).toBe('');
    expect(await statusOf(url, { headers: { 'if-none-match': '"something-else"' } })).toBe(200);

    appendFileSync(path.join(server.kb, 'billing', 'refund-policy.md'), '\n## Refunds by carrier pigeon\nA pigeon brings the refund within **three days**.\n');
    await server.app.waitForOutput(/\[knowledge\] reloaded after an edit/);
    const edited = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(edited.status).toBe(200);
    const newEtag = edited.headers.get('etag')!;
    expect(newEtag).toMatch(/^W\/".+"$/);
    expect(newEtag).not.toBe(etag);
    expect(await edited.text()).toMatch(/A pigeon brings the refund within <strong class="[^"]*">three days<\/strong>\./);
    expect(await statusOf(url, { headers: { 'if-none-match': newEtag } })).toBe(304);
    expect(await statusOf(`${server.app.url}/help/billing/no-such-page`)).toBe(404);

    // In the browser: the article as the KB has it, links that work, nothing the page CSP blocks.
    const violations = await watchCsp(page);
    await page.goto(url);
    const article = page.getByTestId('help-page');
    await expect(article.getByRole('heading', { level: 1 })).toHaveText('Refund policy');
    await expect(article.getByRole('heading', { level: 2, name: 'Refunds by carrier pigeon' })).toBeVisible();
    await expect(article.locator('strong', { hasText: 'three days' })).toBeVisible();
    await page.getByRole('link', { name: /help center/i }).click();
    await expect(page).toHaveURL(`${server.app.url}/`);
    expect(violations).toEqual([]);
    // Closed before the server stops: the home page's widget may still be loading its conversation,
    // and a request in flight holds the server's graceful stop for seconds.
    await page.close();
  } finally {
    await server.stop();
  }
});

test('with no KB loaded a help page is a 503 page, logged once, without a stack trace', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'e2e-help-nokb-'));
  const app = await startApp(PORT, { KB_PATH: path.join(root, 'missing'), OPENAI_API_KEY: '', TRACE_DB_PATH: path.join(root, 'traces.db'), KB_RELOAD_INTERVAL_MS: '0' });
  try {
    await app.waitForOutput(/THE KNOWLEDGE BASE COULD NOT BE LOADED/);
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${app.url}${PAGE}`);
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.text()).toMatch(/data-testid="help-refusal" data-status="503"><h1>The help center is not available right now<\/h1>/);
    }
    expect(await statusOf(`${app.url}/`)).toBe(200); // the site itself still serves
    const lines = app.output().split('\n');
    expect(lines.filter((l) => l.includes('[help] help pages answer 503 until the knowledge base loads'))).toHaveLength(1);
    expect(lines.filter((l) => /^\s+at /.test(l))).toEqual([]);
  } finally {
    await app.stop();
  }
});

test('a client over its help page limit gets a 429 page with Retry-After; the rest of the site still serves it', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'e2e-help-limit-'));
  const app = await startApp(PORT, {
    OPENAI_API_KEY: '',
    TRACE_DB_PATH: path.join(root, 'traces.db'),
    HELP_RATE_LIMIT_PER_MINUTE: '2',
    HELP_RATE_LIMIT_BURST: '2',
    HELP_RATE_LIMIT_WAIT_MS: '200',
  });
  try {
    expect(await statusOf(`${app.url}${PAGE}`)).toBe(200);
    expect(await statusOf(`${app.url}/help/billing/billing-faq`)).toBe(200);
    const refused = await fetch(`${app.url}${PAGE}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain('data-testid="help-refusal" data-status="429"><h1>Too many pages at once</h1>');
    expect(await statusOf(`${app.url}/`)).toBe(200);
  } finally {
    await app.stop();
  }
});
