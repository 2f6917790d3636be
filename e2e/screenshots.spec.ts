import { expect, test } from '@playwright/test';
import { ADMIN_TOKEN, EXTRA_PORT, OFFLINE_URL } from './env';
import { ask, openChat, question, replies, stub } from './helpers';
import { startKbCopyApp } from './kb-copy';

/**
 * Screenshots of the chat for people, not assertions: skipped unless SCREENSHOTS names a
 * folder, e.g. `SCREENSHOTS=/tmp/screens npx playwright test screenshots`.
 */
const dir = process.env.SCREENSHOTS;
test.skip(!dir, 'set SCREENSHOTS=<folder> to take screenshots');

const viewports = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 740 },
];

for (const { name, width, height } of viewports) {
  test(`screenshots at ${name} width`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto(`${OFFLINE_URL}/`);
    await page.screenshot({ path: `${dir}/${name}-1-home.png` });
    await openChat(page);
    await page.screenshot({ path: `${dir}/${name}-2-open.png` });
    await ask(page, 'can I get a refund?');
    await expect(page.getByTestId('chat-send')).toBeVisible({ timeout: 15_000 });
    await expect(replies(page)).toHaveCount(1);
    await page.screenshot({ path: `${dir}/${name}-3-answer.png` });
    // The sources under the reply: open on desktop, one line to open on a phone.
    const toggle = replies(page).first().getByTestId('chat-sources-toggle');
    const centre = () => replies(page).first().getByTestId('chat-feedback').evaluate((el) => el.scrollIntoView({ block: 'end' }));
    if ((await toggle.getAttribute('aria-expanded')) === 'false') {
      await centre();
      await page.screenshot({ path: `${dir}/${name}-3b-sources-collapsed.png` });
      await toggle.click();
    }
    await centre();
    await page.screenshot({ path: `${dir}/${name}-3c-sources.png` });
    await page.getByTestId('chat-new').click();
    await ask(page, 'hi, I need some help');
    await expect(replies(page)).toHaveCount(1);
    await expect(page.getByTestId('chat-send')).toBeVisible({ timeout: 15_000 });
    await page.screenshot({ path: `${dir}/${name}-4-dont-know.png` });
  });
}

test('screenshot of a failed reply (phone)', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await stub.reset();
  await stub.mode('500');
  await page.goto('/');
  await openChat(page);
  await ask(page, 'can I get a refund?');
  await expect(page.getByTestId('chat-error')).toBeVisible({ timeout: 10_000 });
  await page.screenshot({ path: `${dir}/phone-5-error.png` });
  await stub.reset();
});

test('screenshots of the health panel: feedback, down-voted sections, synonym candidates, since the last reload', async ({ page }) => {
  test.setTimeout(90_000);
  const server = await startKbCopyApp(EXTRA_PORT + 15, 'e2e-screens-health-');
  const { app } = server;
  try {
    // Conversations: rephrasings (a thin question, then one that matched), and votes on the replies.
    const conversations: [string, string[], ('up' | 'down' | undefined)[]][] = [
      ['conv-screens-01', ['everything is janky', 'why does my video keep buffering'], [undefined, 'down']],
      ['conv-screens-02', ['the gizmo is janky', 'my video is buffering a lot'], ['down', 'up']],
      ['conv-screens-03', ['gimme my dosh', 'can I get a refund?'], ['down', 'down']],
      ['conv-screens-04', ['how do I start a live stream?', 'what does the Pro plan cost?'], ['up', 'up']],
    ];
    for (const [id, questions, votes] of conversations) {
      for (const [i, text] of questions.entries()) {
        const response = await page.request.post(`${app.url}/api/chat`, { data: question(id, text) });
        await response.text();
        const turnId = response.headers()['x-turn-id']!;
        const vote = votes[i];
        if (vote) await page.request.post(`${app.url}/api/feedback`, { data: { turnId, vote, ...(vote === 'down' ? { reason: 'did not answer my question' } : {}) } });
      }
    }
    server.unpinRefundRule();
    await app.waitForOutput(/pinned rule\(s\) are no longer sent/, 20_000);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.setExtraHTTPHeaders({ authorization: `Bearer ${ADMIN_TOKEN}` });
    await page.goto(`${app.url}/debug/health`);
    await page.getByTestId('reload-impact').screenshot({ path: `${dir}/health-1-since-reload.png` });
    await page.getByTestId('health-feedback').locator('xpath=..').screenshot({ path: `${dir}/health-2-feedback.png` });
    await page.getByTestId('synonym-candidates').locator('summary').click();
    await page.getByTestId('synonym-candidates').screenshot({ path: `${dir}/health-3-synonym-candidates.png` });
    await page.goto(`${app.url}/debug?feedback=down`);
    await page.screenshot({ path: `${dir}/debug-4-feedback-filter.png` });
  } finally {
    await server.stop();
  }
});
