import { expect, test } from '@playwright/test';
import { OFFLINE_URL } from './env';
import { ask, openChat, replies, stub } from './helpers';

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
