import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { OFFLINE_DB, OFFLINE_URL } from './env';
import { ask, lastReply, openChat, traces } from './helpers';

/** The product's default with no key: our own offline model answers from the knowledge base. */

test.use({ baseURL: OFFLINE_URL });
const db = traces(OFFLINE_DB);

/** A section's body as written in content/ (the heading line and the blank line after it dropped). */
function sectionBody(id: string): string {
  const [file, slug] = id.split('#') as [string, string];
  const text = readFileSync(path.join('content', file), 'utf8');
  const headings = [...text.matchAll(/^#{1,3} (.+)$/gm)];
  const slugOf = (title: string) => title.toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').trim().replace(/\s/g, '-');
  const at = headings.findIndex((h) => slugOf(h[1]!) === slug);
  expect(at, `heading for ${id}`).toBeGreaterThanOrEqual(0);
  const start = headings[at]!.index! + headings[at]![0].length;
  const end = headings[at + 1]?.index ?? text.length;
  return text.slice(start, end).replace(/<!--[\s\S]*?-->/g, '').trim();
}

test('with no key, the refund question is answered in offline mode, quoting the knowledge base', async ({ page }) => {
  await page.goto('/');
  await openChat(page);
  await expect(page.getByTestId('chat-mode')).toContainText('Offline demo');
  await ask(page, 'can I get a refund?');
  const { turnId, text } = await lastReply(page, 1);
  expect(text).toContain('Offline demo mode');

  const trace = await db.finished(turnId);
  expect(trace).toMatchObject({ status: 'ok', provider: 'offline' });
  expect(trace.system_prompt).toContain('Never promise a refund.');
  const best = (await db.sections(turnId)).find((s) => s.reason === 'scored' && s.sent === 1)!;
  expect(best.section_id).toMatch(/refund/);

  // The reply names the best section and quotes its opening sentence from content/.
  const explanation = JSON.parse(trace.explanation) as { sections: { id: string; path: string }[] };
  const bestPath = explanation.sections.find((s) => s.id === best.section_id)!.path;
  expect(text).toContain(`From ${bestPath}:`);
  const firstSentence = sectionBody(best.section_id).split('\n')[0]!.match(/^.*?[.!?](\s|$)/)![0].trim();
  expect(firstSentence.length).toBeGreaterThan(20);
  expect(text.replace(/\s+/g, ' ')).toContain(firstSentence.replace(/\*\*/g, '').replace(/\s+/g, ' '));
});

test('with no key, a question nothing matches gets an honest "I don\'t know" and topics to try', async ({ page }) => {
  await page.goto('/');
  await openChat(page);
  await ask(page, 'hi, I need some help');
  const { turnId, text } = await lastReply(page, 1);
  expect(text).toContain("I don't know the answer to that");
  expect(text).toContain('Here are some topics I can help with');
  expect((await db.finished(turnId)).floor_used).toBe(1);
});
