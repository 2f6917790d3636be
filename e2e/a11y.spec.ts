import AxeBuilder from '@axe-core/playwright';
import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { EXTRA_PORT } from './env';
import { startEmbedWorld, stubControls, type EmbedWorld } from './embed-servers';
import { ask, lastReply, openChat, replies } from './helpers';
import { STUB_REPLY } from './stub/reply.mjs';
import { startWebhookReceiver, type WebhookReceiver } from '@/lib/testing/webhook-receiver';
import { WEBHOOK_SECRET } from './handoff-helpers';

/**
 * The chat is usable by every customer (WCAG 2.2 AA), on this app's own page and embedded in
 * a company's page on another site: axe (@axe-core/playwright 4.13) finds no violation at the
 * WCAG 2.2 AA tags in any state of the widget, in the light and dark themes; the keyboard alone
 * opens it, asks, reads the reply and closes it, with focus kept in the dialog and returned to
 * the launcher; a streamed reply is announced once; at 200% zoom it is still usable.
 * One set of servers for the file (EXTRA_PORT + 35 … + 38), and a hand-off webhook receiver
 * (+ 39) so the hand-off form is one of the states.
 */

const BASE = EXTRA_PORT + 35;
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
let world: EmbedWorld;
let stub: ReturnType<typeof stubControls>;
let receiver: WebhookReceiver;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  receiver = await startWebhookReceiver(WEBHOOK_SECRET, EXTRA_PORT + 39);
  world = await startEmbedWorld(BASE, {
    PUBLIC_URL: `http://127.0.0.1:${BASE + 1}`,
    HANDOFF_WEBHOOK_URL: receiver.url,
    HANDOFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  stub = stubControls(world.stub.url);
});
test.afterAll(async () => {
  await world?.stop();
  await receiver?.down();
});
test.beforeEach(async () => {
  await stub.reset();
});

const FRAME = 'iframe[src*="/embed?"]';

/** Where the chat is, for the two pages it runs on. */
interface Place {
  name: string;
  goto(page: Page): Promise<Page | FrameLocator>;
}

const PLACES: Place[] = [
  {
    name: "the app's own page",
    async goto(page) {
      await page.goto(`${world.appUrl}/`);
      await expect(page.getByTestId('chat-launcher')).toBeVisible();
      return page;
    },
  },
  {
    name: 'the embed on another site',
    async goto(page) {
      await page.goto(`${world.host.url}/`);
      const chat = page.frameLocator(FRAME);
      await expect(chat.getByTestId('chat-launcher')).toBeVisible();
      return chat;
    },
  },
];

/** axe on the whole page (frames included): no violation at the WCAG 2.2 AA tags. */
async function expectAccessible(page: Page, state: string) {
  // Colour transitions (a theme switch, a hover) settle first: axe reads the colours of the moment.
  for (const frame of page.frames()) {
    await frame.evaluate(() => Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => undefined))));
  }
  const framed = page.frame({ url: /\/embed\?/ }) !== null;
  // The chat frame (another origin) is analysed too: its elements are targets [frame, element].
  // @axe-core/playwright leaves out a frame whose partial run did not answer in time (seen once on a
  // machine at load average 14), so a run without it is repeated, up to three runs in all.
  const frameAnalysed = (r: Awaited<ReturnType<AxeBuilder['analyze']>>) => r.passes.flatMap((rule) => rule.nodes).some((node) => node.target.length > 1);
  // A page without frames is analysed in one axe.run (legacy mode): the same rules and results,
  // without the blank page runPartial's results are finished in (1.6 → 0.9 s a run). Legacy mode
  // cannot reach a frame of another origin: the embed keeps runPartial.
  const frameless = page.frames().length === 1;
  const axe = () => new AxeBuilder({ page }).withTags(TAGS).setLegacyMode(frameless).analyze();
  let results = await axe();
  for (let run = 2; framed && !frameAnalysed(results) && run <= 3; run++) results = await axe();
  if (framed) expect(frameAnalysed(results), `${state}: the frame was analysed`).toBe(true);
  const found = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  console.log(`axe ${state}: ${results.violations.length} violations, ${results.passes.length} rules passed, ${results.incomplete.length} to review`);
  expect.soft(found, state).toEqual([]); // soft: every state is checked and reported
}

for (const place of PLACES) {
  test(`axe: no WCAG 2.2 AA violation in any widget state, light and dark, on ${place.name}`, async ({ page }) => {
    test.setTimeout(120_000); // thirteen axe runs
    const chat = await place.goto(page);
    await expectAccessible(page, `${place.name}: closed`);
    await openChat(chat);
    await expectAccessible(page, `${place.name}: open`);

    await stub.mode('hang'); // answering: the question sent, nothing back yet
    await ask(chat, 'can I get a refund?');
    await expect(chat.getByTestId('chat-typing')).toBeVisible();
    await expectAccessible(page, `${place.name}: answering`);
    await chat.getByTestId('chat-stop').click();
    await stub.mode('stall'); // answering: the reply streaming
    await ask(chat, 'can I get a refund?');
    await expect(replies(chat).last()).toContainText('Stub');
    await expectAccessible(page, `${place.name}: streaming`);
    await chat.getByTestId('chat-stop').click();

    await stub.mode('fast');
    await ask(chat, 'can I get a refund?');
    await lastReply(chat, 2); // the stopped wait left no reply, the stopped stream its first word
    await expect(replies(chat).last().getByTestId('chat-sources')).toBeVisible();
    await replies(chat).last().getByTestId('chat-sources-toggle').click(); // both ways: collapsed and open
    await expectAccessible(page, `${place.name}: answered with sources`);
    await replies(chat).last().getByTestId('chat-sources-toggle').click();

    await stub.mode('500');
    await ask(chat, 'can I get a refund?');
    await expect(chat.getByTestId('chat-error')).toBeVisible();
    await expectAccessible(page, `${place.name}: error`);

    await page.emulateMedia({ colorScheme: 'dark' });
    // The theme follows the system (theme: auto): slate-950 behind the conversation (lightness under 10).
    await expect(chat.getByTestId('chat-messages')).toHaveCSS('background-color', /^lab\([0-9](\.\d+)? /);
    await expectAccessible(page, `${place.name}: error, dark`);
    await stub.mode('fast');
    await chat.getByTestId('chat-retry').click();
    await lastReply(chat, 3);
    await expectAccessible(page, `${place.name}: answered with sources, dark`);

    // The hand-off to a person: the form open (in the dark theme the page is in now), then its
    // error state (a malformed email, in the light theme).
    await chat.getByTestId('handoff-open').click();
    await expect(chat.getByTestId('handoff-form')).toBeVisible();
    await expectAccessible(page, `${place.name}: hand-off form, dark`);
    await page.emulateMedia({ colorScheme: 'light' });
    await chat.getByTestId('handoff-email').fill('not an email');
    await chat.getByTestId('handoff-submit').click();
    await expect(chat.getByTestId('handoff-error')).not.toBeEmpty();
    await expectAccessible(page, `${place.name}: hand-off form with an error`);
  });
}

/** Presses Tab until `target` has focus (at most `max` times). */
async function tabTo(page: Page, focused: () => Promise<boolean>, max = 15) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await focused()) return;
  }
  throw new Error(`not reached with ${max} Tabs`);
}

for (const place of PLACES) {
  test(`keyboard only, on ${place.name}: Tab to the launcher, Enter opens, ask, read the reply once, focus stays in the dialog, Esc closes and returns focus`, async ({ page }) => {
    await stub.mode('fast');
    const chat = await place.goto(page);
    const launcher = chat.getByTestId('chat-launcher');
    await tabTo(page, () => launcher.evaluate((el) => el === document.activeElement && document.hasFocus()));
    await page.keyboard.press('Enter');
    await expect(chat.getByTestId('chat-panel')).toBeVisible();
    await expect(chat.getByTestId('chat-input')).toBeFocused();
    await expect(chat.getByTestId('chat-panel')).toHaveAttribute('aria-modal', 'true');

    // The reply is announced once, when it has settled; the conversation is not a live region.
    const messages = chat.getByTestId('chat-messages');
    expect(await messages.getAttribute('aria-live')).toBeNull();
    expect(await messages.getAttribute('role')).toBeNull();
    await chat.getByTestId('chat-announcer').evaluate((region) => {
      const texts: string[] = [];
      (window as unknown as { announced: string[] }).announced = texts;
      new MutationObserver(() => texts.push(region.textContent ?? '')).observe(region, { subtree: true, childList: true, characterData: true });
    });
    await stub.mode('ok'); // word by word
    await page.keyboard.type('can I get a refund?');
    await page.keyboard.press('Enter');
    await lastReply(chat, 1);
    await expect(chat.getByTestId('chat-announcer')).toHaveText(`The assistant replied: ${STUB_REPLY}`);
    expect(await chat.getByTestId('chat-announcer').evaluate(() => (window as unknown as { announced: string[] }).announced)).toEqual([`The assistant replied: ${STUB_REPLY}`]);

    // Tab and Shift+Tab go round the dialog and never leave it.
    for (const key of [...Array(12).fill('Tab'), ...Array(12).fill('Shift+Tab')]) {
      await page.keyboard.press(key);
      expect(await chat.getByTestId('chat-panel').evaluate((panel) => document.hasFocus() && panel.contains(document.activeElement)), key).toBe(true);
    }
    // The keyboard reaches the reply's sources.
    await chat.getByTestId('chat-messages').focus();
    await tabTo(page, () => replies(chat).first().getByTestId('chat-sources-toggle').evaluate((el) => el === document.activeElement));

    await page.keyboard.press('Escape');
    await expect(chat.getByTestId('chat-panel')).toBeHidden();
    await expect(launcher).toBeFocused();
  });
}

for (const place of PLACES) {
  test(`200% zoom on ${place.name}: a full-screen sheet, usable, no sideways scrolling`, async ({ page }) => {
    await stub.mode('fast');
    await page.setViewportSize({ width: 640, height: 360 }); // 1280 × 720 at 200%
    const chat = await place.goto(page);
    await openChat(chat);
    const panel = (await chat.getByTestId('chat-panel').boundingBox())!;
    expect(panel.width).toBeGreaterThanOrEqual(630);
    expect(panel.height).toBeGreaterThanOrEqual(340);
    await ask(chat, 'can I get a refund?');
    await lastReply(chat, 1);
    await replies(chat).first().scrollIntoViewIfNeeded();
    await expect(replies(chat).first()).toBeInViewport();
    await expect(chat.getByTestId('chat-input')).toBeInViewport();
    expect(await chat.getByTestId('chat-messages').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });
}
