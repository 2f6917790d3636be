import { expect, test, type Page } from '@playwright/test';
import { ADMIN_TOKEN, APP_DB } from './env';
import { ask, lastReply, openChat, replies, stub, traces } from './helpers';

/**
 * The support lead's loop (issue 15), against the app with the stub model: the sources under
 * a reply, a customer's thumbs-down, and the support lead finding it in /debug.
 */

const db = traces(APP_DB);

async function signIn(page: Page, next: string) {
  const response = await page.goto(next);
  if (response?.status() === 401) {
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
}

test('a refund question shows the refund policy pages as sources, with working links and no pinned rule', async ({ page }) => {
  await stub.reset();
  await page.goto('/');
  await openChat(page);
  await ask(page, 'can I get a refund?');
  const { turnId } = await lastReply(page, 1);
  const sources = replies(page).first().getByTestId('chat-source');
  await expect(sources.first()).toBeVisible();

  const ids = await sources.evaluateAll((items) => items.map((li) => li.getAttribute('data-source-id')));
  expect(ids).toContain('billing/refund-policy.md');
  expect(ids.filter((id) => id!.startsWith('rules/'))).toEqual([]); // the pinned rules are sent, never shown as sources
  expect(new Set(ids).size).toBe(ids.length); // one entry per page

  // Exactly the pages whose sections scored, as the trace has them.
  const trace = await db.finished(turnId);
  const scoredPages = new Set((JSON.parse(trace.explanation) as { sections: { reason: string; source: string }[] }).sections.filter((s) => s.reason === 'scored').map((s) => s.source));
  expect(new Set(ids)).toEqual(scoredPages);

  const link = page.locator('[data-testid="chat-source"][data-source-id="billing/refund-policy.md"] a');
  await expect(link).toHaveText('Refund policy');
  await expect(link).toHaveAttribute('href', '/help/billing/refund-policy');
  await expect(link).toHaveAttribute('target', '_blank');
  for (const href of await sources.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) {
    const response = await page.request.get(href);
    expect(response.status(), href).toBe(200);
  }
  const [help] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await expect(help.getByTestId('help-page').getByRole('heading', { level: 1 })).toHaveText('Refund policy');
  await expect(help.getByTestId('help-page')).toContainText('Who can request a refund');
  await help.close();

  // The collapsible list: a button that says whether it is open.
  const toggle = replies(page).first().getByTestId('chat-sources-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(sources.first()).toBeHidden();

  // After a reload the history brings the sources back.
  await page.reload();
  await expect(page.getByTestId('chat-panel')).toBeVisible();
  await expect(replies(page).first().locator('[data-testid="chat-source"][data-source-id="billing/refund-policy.md"] a')).toHaveAttribute('href', '/help/billing/refund-policy');
});

test('on a phone the sources start collapsed', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await stub.reset();
  await page.goto('/');
  await openChat(page);
  await ask(page, 'can I get a refund?');
  await lastReply(page, 1);
  const toggle = replies(page).first().getByTestId('chat-sources-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(replies(page).first().getByTestId('chat-source').first()).toBeVisible();
});

test('a thumbs-down with a reason appears in /debug under the feedback filter', async ({ page }) => {
  await stub.reset();
  await page.goto('/');
  await openChat(page);
  await ask(page, 'how much does the Pro plan cost?');
  const { turnId } = await lastReply(page, 1);
  await db.finished(turnId);

  await page.getByTestId('chat-vote-up').click();
  await expect(page.getByTestId('chat-feedback-status')).toHaveText('Thanks for the feedback.');
  await page.getByTestId('chat-vote-down').click(); // changeable: the second vote replaces the first
  await expect(page.getByTestId('chat-vote-down')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('chat-vote-up')).toHaveAttribute('aria-pressed', 'false');
  await page.getByTestId('chat-feedback-reason').fill('I wanted the annual price');
  await page.getByTestId('chat-feedback-send').click();
  await expect(page.getByTestId('chat-feedback-status')).toHaveText('Thanks for the feedback.');

  // The vote survives a reload (the history gives it back).
  await page.reload();
  await expect(page.getByTestId('chat-vote-down')).toHaveAttribute('aria-pressed', 'true');

  await signIn(page, '/debug?feedback=down');
  await page.goto('/debug?feedback=down');
  const row = page.locator(`[data-testid="turn-row"][data-turn-id="${turnId}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('turn-feedback-cell')).toContainText('down');
  await page.goto('/debug?feedback=up');
  await expect(row).toHaveCount(0);

  await page.goto(`/debug/turns/${turnId}`);
  await expect(page.getByTestId('turn-feedback')).toContainText('I wanted the annual price');
  await expect(page.getByTestId('turn-sources')).toContainText('Plans and limits');

  await page.goto('/debug/health');
  await expect(page.getByTestId('health-feedback')).toContainText('down-voted');
  await expect(page.getByTestId('down-voted-section').first()).toBeVisible();
});

test("the feedback API refuses another visitor's reply and malformed bodies, saying what is wrong", async ({ page, playwright }) => {
  await stub.reset();
  await page.goto('/');
  await openChat(page);
  await ask(page, 'can I get a refund?');
  const { turnId } = await lastReply(page, 1);
  await db.finished(turnId);

  const stranger = await playwright.request.newContext({ baseURL: page.url() });
  await stranger.post('/api/chat', { data: { id: 'conv-stranger-01', message: { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }, trigger: 'submit-message' } });
  const theirs = await stranger.post('/api/feedback', { data: { turnId, vote: 'down' } });
  expect(theirs.status()).toBe(404);
  expect(await theirs.json()).toEqual({ error: 'no reply with this id in your conversations' });
  const malformed = await page.request.post('/api/feedback', { data: { turnId, vote: 'sideways' } });
  expect(malformed.status()).toBe(400);
  expect(await malformed.json()).toEqual({ error: 'vote: vote must be "up" or "down"' });
  await stranger.dispose();
});
