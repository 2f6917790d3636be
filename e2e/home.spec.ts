import { expect, test } from '@playwright/test';

test('the demo site home page renders', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Lumacast help center');
});
