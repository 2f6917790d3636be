import { expect, test } from '@playwright/test';
import { OFFLINE_URL } from './env';
import { ask, openChat, replies, watchCsp } from './helpers';

/**
 * A reply's Markdown in the browser (components/chat/message-text.tsx, streamdown), streamed
 * in pieces the way a model sends it: list, link, code block and table render with the widget's
 * look, unsafe links are not links, raw HTML is text, and nothing trips the page's CSP.
 * The chat route is answered by the test (a UI message stream), so the text is exactly this.
 * With SCREENSHOTS=<folder> it also saves a picture of the reply.
 */

const REPLY = [
  'Here is how to **request a refund**:',
  '',
  '1. Open **Settings → Billing**',
  '2. Choose *Request a refund* and pick the invoice:',
  '   - monthly plans: the last payment',
  '   - annual plans: pro-rated',
  '3. Read the [refund policy](https://lumacast.com/help/refunds) or write to [billing](mailto:billing@lumacast.com).',
  '',
  'Or with the API (`refunds.create`):',
  '',
  '```bash',
  'curl -X POST https://api.lumacast.com/v1/refunds \\',
  '  -H "Authorization: Bearer $LUMACAST_KEY" -d invoice=inv_123',
  '```',
  '',
  '| Plan | Refund window |',
  '| --- | --- |',
  '| Monthly | 14 days |',
  '| Annual | pro-rated |',
  '',
  'Not links: [one](javascript:alert(1)), [two](JaVaScRiPt:alert(2)), [three](data:text/html,hi), [four](//evil.example). Not HTML: <b>bold?</b> <img src=x onerror=alert(3)>',
].join('\n');

/** The reply in pieces of 7 characters: markers and links arrive cut in half. */
function uiMessageStream(text: string): string {
  const events: unknown[] = [{ type: 'start', messageMetadata: { turnId: 'turn-markdown-e2e', conversationId: 'conv-markdown' } }, { type: 'text-start', id: 't' }];
  for (let i = 0; i < text.length; i += 7) events.push({ type: 'text-delta', id: 't', delta: text.slice(i, i + 7) });
  events.push({ type: 'text-end', id: 't' }, { type: 'finish' });
  return `${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`;
}

test('a streamed Markdown reply renders list, link, code and table, with no unsafe link, no raw HTML and no CSP violation', async ({ page }) => {
  const violations = await watchCsp(page);
  const dialogs: string[] = [];
  page.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss()));
  await page.route('**/api/chat', (route) =>
    route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' }, body: uiMessageStream(REPLY) }),
  );
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${OFFLINE_URL}/`);
  await openChat(page);
  await ask(page, 'how do I get a refund?');
  const reply = replies(page).last();
  await expect(reply.getByText('Not links:')).toBeVisible();

  await expect(reply.locator('ol > li')).toHaveCount(3);
  await expect(reply.locator('ol > li ul > li')).toHaveCount(2);
  await expect(reply.locator('pre code')).toContainText('curl -X POST https://api.lumacast.com/v1/refunds');
  await expect(reply.locator('table tr')).toHaveCount(3);
  const hrefs = await reply.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(hrefs).toEqual(['https://lumacast.com/help/refunds', 'mailto:billing@lumacast.com']);
  await expect(reply.locator('img, b, script')).toHaveCount(0);
  await expect(reply).toContainText('<b>bold?</b>');
  expect(await reply.getByTestId('chat-message-text').locator('button').count()).toBe(0); // no copy/download controls in the text (the vote buttons sit under it)
  if (process.env.SCREENSHOTS) await page.getByTestId('chat-panel').screenshot({ path: `${process.env.SCREENSHOTS}/markdown-reply.png` });
  expect(dialogs).toEqual([]);
  expect(violations).toEqual([]);
});
