import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXTRA_PORT } from './env';
import { ask, blockOf, lastReply, openChat, systemOf, traces, type StubRequest } from './helpers';
import { startApp, startStub, type Server } from './spawn';

/**
 * A KB in two languages (issue 26): an English and a German page, and an identity file with the
 * widget's text in English (the default), German and Hebrew. A German question gets the German
 * section sent and a system prompt that asks for German; a visitor whose browser asks for German
 * sees the widget's German strings, on the home page and in the embed frame; one asking for
 * Hebrew sees them right to left. A German reply's number that the German page does not state is
 * flagged in the trace. The server runs the real OpenAI provider against the stub, which records
 * what the model received.
 */

test.describe.configure({ mode: 'serial' });

let root: string;
let stub: Server;
let app: Server;

const IDENTITY = `---
company: Acme
language: en
widget:
  title: Acme help
  greeting: Hi! Ask me about your network.
translations:
  de:
    widget:
      title: Acme Hilfe
      greeting: Hallo! Fragen Sie mich zu Ihrem Netzwerk.
      placeholder: Stellen Sie eine Frage…
      send: Nachricht senden
      label: Hilfe fragen
      hint: Eingabetaste zum Senden
      handoff_open: Mit einem Menschen sprechen
  he:
    widget:
      title: העזרה של Acme
      greeting: שלום! שאלו אותי על הרשת שלכם.
      placeholder: שאלו שאלה…
---
`;

test.beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'e2e-languages-'));
  const kb = path.join(root, 'kb');
  mkdirSync(kb);
  writeFileSync(path.join(kb, 'assistant.md'), IDENTITY);
  writeFileSync(path.join(kb, 'network.md'), '# Network\n\nTo set up a wireless (WLAN) network connection, open the network manager and choose your network.\n');
  writeFileSync(
    path.join(kb, 'netzwerk.md'),
    '---\nlang: de\n---\n# Netzwerk\n\nEine Netzwerkverbindung mit WLAN richten Sie im Netzwerkmanager ein: wählen Sie dort Ihr Netzwerk aus.\n',
  );
  writeFileSync(
    path.join(kb, 'erstattung.md'),
    '---\nlang: de\n---\n# Rückerstattung\n\nEine Rückerstattung können Sie innerhalb von 30 Tagen nach dem Kauf beantragen. Sie wird in 5 Werktagen gutgeschrieben.\n',
  );
  stub = await startStub(EXTRA_PORT + 71);
  app = await startApp(EXTRA_PORT + 70, {
    KB_PATH: kb,
    KB_FLOOR: '0',
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: `${stub.url}/v1`,
    OPENAI_MODEL: 'stub-model',
    TRACE_DB_PATH: path.join(root, 'traces.db'),
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
  });
  await app.waitForOutput(/\[knowledge\] loaded .*: 3 files read, 0 skipped/);
});

test.afterAll(async () => {
  await app?.stop();
  await stub?.stop();
  rmSync(root, { recursive: true, force: true });
});

test.describe('a visitor whose browser asks for German', () => {
  test.use({ locale: 'de-DE' });

  test('sees the German widget, and a German question gets the German section and a prompt that asks for German', async ({ page }) => {
    await page.goto(app.url);
    await expect(page.getByTestId('chat-launcher')).toHaveText('Hilfe fragen');
    const panel = await openChat(page);
    await expect(panel).toHaveAttribute('lang', 'de');
    await expect(panel).toHaveAttribute('dir', 'ltr');
    await expect(panel.getByRole('heading', { level: 2 })).toHaveText('Acme Hilfe');
    await expect(page.getByTestId('chat-welcome')).toContainText('Hallo! Fragen Sie mich zu Ihrem Netzwerk.');
    await expect(page.getByTestId('chat-input')).toHaveAttribute('placeholder', 'Stellen Sie eine Frage…');
    await expect(page.getByTestId('chat-send')).toHaveAttribute('aria-label', 'Nachricht senden');
    await expect(page.getByTestId('handoff-open')).toHaveText('Mit einem Menschen sprechen');

    await ask(page, 'Wie richte ich eine Netzwerkverbindung mit WLAN ein?');
    const { turnId } = await lastReply(page, 1);
    const requests = (await (await fetch(`${stub.url}/__requests`)).json()) as StubRequest[];
    const system = systemOf(requests.at(-1)!);
    expect(system).toContain('\n\nThe customer writes in German: answer in German.\n</instructions>');
    const reference = blockOf(system, 'reference_material');
    expect(reference).toContain('## Netzwerk');
    expect(reference).not.toContain('## Network');

    // The trace keeps the language: detected in the question, only German sections ranked.
    const turn = await traces(path.join(root, 'traces.db')).finished(turnId);
    expect((JSON.parse(turn.explanation) as { query: { language: unknown } }).query.language).toEqual({ customer: 'de', source: 'detected', analysed: 'de', scope: 'language', setAside: 1 });
  });
});

test.describe('a German reply with a number the German page does not state', () => {
  test.use({ locale: 'de-DE' });

  test('is flagged in the trace: "60 Tagen" unverified, "5 Werktagen" verified', async ({ page }) => {
    const reply = 'Sie können die Rückerstattung innerhalb von 60 Tagen beantragen; sie wird in 5 Werktagen gutgeschrieben.';
    await fetch(`${stub.url}/__reply`, { method: 'POST', body: JSON.stringify({ text: reply, times: 1 }) });
    await page.goto(app.url);
    await openChat(page);
    await ask(page, 'Wie lange habe ich Zeit für eine Rückerstattung?');
    const { turnId, text } = await lastReply(page, 1);
    expect(text).toContain('60 Tagen');
    const requests = (await (await fetch(`${stub.url}/__requests`)).json()) as StubRequest[];
    expect(blockOf(systemOf(requests.at(-1)!), 'reference_material')).toContain('innerhalb von 30 Tagen');
    const turn = await traces(path.join(root, 'traces.db')).finished(turnId);
    expect(turn.n_unverified).toBe(1);
    expect(JSON.parse(turn.number_check!)).toEqual({ checked: 2, unverified: [{ text: '60 Tagen', kind: 'duration', value: 60, unit: 'day' }] });
  });
});

test.describe('the embed frame (/embed), for a visitor whose browser asks for German', () => {
  test.use({ locale: 'de-DE' });

  test('shows the same German strings as the app\'s own widget', async ({ page }) => {
    await page.goto(`${app.url}/embed`);
    await expect(page.getByTestId('chat-launcher')).toHaveText('Hilfe fragen');
    await page.getByTestId('chat-launcher').click();
    const panel = page.getByTestId('chat-panel');
    await expect(panel).toHaveAttribute('lang', 'de');
    await expect(panel).toHaveAttribute('dir', 'ltr');
    await expect(panel.getByRole('heading', { level: 2 })).toHaveText('Acme Hilfe');
    await expect(page.getByTestId('chat-input')).toHaveAttribute('placeholder', 'Stellen Sie eine Frage…');
    await expect(page).toHaveTitle('Acme Hilfe');
  });
});

test.describe('a visitor whose browser asks for Hebrew', () => {
  test.use({ locale: 'he-IL' });

  test('sees the identity file\'s Hebrew strings, right to left', async ({ page }) => {
    await page.goto(app.url);
    const panel = await openChat(page);
    await expect(panel).toHaveAttribute('lang', 'he');
    await expect(panel).toHaveAttribute('dir', 'rtl');
    await expect(panel.getByRole('heading', { level: 2 })).toHaveText('העזרה של Acme');
    const welcome = page.getByTestId('chat-welcome');
    await expect(welcome).toContainText('שלום! שאלו אותי על הרשת שלכם.');
    await expect(welcome).toHaveCSS('direction', 'rtl');
    await expect(page.getByTestId('chat-input')).toHaveCSS('direction', 'rtl');
    // A string the identity file does not translate falls back to English, still inside the right-to-left panel.
    await expect(page.getByTestId('chat-send')).toHaveAttribute('aria-label', 'Send message');

    // The embed frame too.
    await page.goto(`${app.url}/embed`);
    await page.getByTestId('chat-launcher').click();
    await expect(page.getByTestId('chat-panel')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByTestId('chat-welcome')).toContainText('שלום! שאלו אותי על הרשת שלכם.');
  });
});

test('a visitor with no language the identity file has sees the default (English) widget', async ({ page }) => {
  await page.goto(app.url);
  const panel = await openChat(page);
  await expect(panel).toHaveAttribute('lang', 'en');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('Acme help');
});
