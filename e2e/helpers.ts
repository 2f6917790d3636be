import Database from 'better-sqlite3';
import { expect, type FrameLocator, type Page } from '@playwright/test';
import { SqliteStore } from '@/lib/store/sqlite';
import { STUB_URL } from './env';

/** The stub model's test controls. */
export type StubMode = 'ok' | 'fast' | 'slow' | '500' | '429' | '429-long' | 'hang' | 'stall' | 'malformed' | 'cut' | 'reset';

export interface StubRequest {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: { role: string; content: string }[];
}

export const stub = {
  async reset(): Promise<void> {
    const response = await fetch(`${STUB_URL}/__reset`, { method: 'POST' });
    expect(response.ok).toBe(true);
  },
  /** The mode of the next requests: all of them, or only the next `times` (then "ok"). */
  async mode(mode: StubMode, times?: number): Promise<void> {
    const response = await fetch(`${STUB_URL}/__mode`, { method: 'POST', body: JSON.stringify({ mode, times }) });
    expect(response.ok).toBe(true);
  },
  async requests(): Promise<StubRequest[]> {
    return (await (await fetch(`${STUB_URL}/__requests`)).json()) as StubRequest[];
  },
  /** One entry per model request: did the app close the connection before the reply ended? */
  async connections(): Promise<StubConnection[]> {
    return (await (await fetch(`${STUB_URL}/__connections`)).json()) as StubConnection[];
  },
};

export interface StubConnection {
  n: number;
  mode: StubMode;
  closedEarly: boolean;
  finished: boolean;
}

/** The system message of a request the stub received. */
export function systemOf(request: StubRequest): string {
  const system = request.messages.filter((m) => m.role === 'system');
  expect(system, 'exactly one system message').toHaveLength(1);
  return system[0]!.content;
}

/** The text between <tag> and </tag> on their own lines in the system prompt. */
export function blockOf(system: string, tag: string): string {
  const match = system.match(new RegExp(`\\n<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`));
  expect(match, `<${tag}> block`).not.toBeNull();
  return match![1]!;
}

/**
 * A turn's row in the trace database, with `explanation` (JSON text) and `system_prompt` as the
 * store reconstructs them from its packed record and KB version (what /debug shows), and
 * `stored_prompt`: whether the prompt text itself was stored (its record holds it: only when no
 * frame around the KB version's texts gives it back).
 */
export interface TurnRow {
  id: string;
  conversation_id: string;
  status: 'pending' | 'ok' | 'error' | 'aborted';
  question: string;
  customer_messages: string;
  floor_used: number;
  explanation: string;
  system_prompt: string;
  stored_prompt: boolean;
  provider: string;
  model_id: string;
  reply: string;
  error: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  selection_us: number;
  first_token_ms: number | null;
  total_ms: number | null;
  /** The reply's number check (JSON: lib/chat/numbers.ts), and how many of its numbers were unverified. */
  number_check: string | null;
  n_unverified: number | null;
}

/** A section sent or matched in a turn (its verdict in the reconstructed explanation), in list order. */
export interface SectionRow {
  section_id: string;
  reason: string;
  sent: number;
  score: number;
  rank: number | null;
}

/** Read-only access to a running app's trace database. */
export function traces(file: string) {
  const read = <T>(fn: (db: Database.Database) => T): T => {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
  const readAsync = async <T>(fn: (db: Database.Database) => Promise<T>): Promise<T> => {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return await fn(db);
    } finally {
      db.close();
    }
  };
  return {
    turn: (id: string): Promise<TurnRow | undefined> =>
      readAsync(async (db) => {
        const row = db.prepare('SELECT * FROM turns WHERE id = ?').get(id) as (Omit<TurnRow, 'explanation' | 'system_prompt' | 'stored_prompt'> & { prompt_frame: number | null }) | undefined;
        if (!row) return undefined;
        const trace = (await new SqliteStore(db).getTurn(id))!;
        return { ...row, explanation: JSON.stringify(trace.explanation), system_prompt: trace.systemPrompt, stored_prompt: row.prompt_frame === null };
      }),
    async sections(id: string): Promise<SectionRow[]> {
      const trace = await this.turn(id);
      const { sections } = JSON.parse(trace!.explanation) as { sections: { id: string; reason: string; sent: boolean; score: number; rank?: number }[] };
      return sections
        .filter((v) => v.reason !== 'no-match')
        .map((v) => ({ section_id: v.id, reason: v.reason, sent: v.sent ? 1 : 0, score: v.score, rank: v.rank ?? null }));
    },
    lastTurnId: (conversationId: string) =>
      read((db) => db.prepare('SELECT id FROM turns WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1').pluck().get(conversationId) as string | undefined),
    /** Waits for the turn to leave `pending` and returns it. */
    async finished(id: string, timeout = 10_000): Promise<TurnRow> {
      await expect.poll(() => read((db) => (db.prepare('SELECT status FROM turns WHERE id = ?').get(id) as { status: string } | undefined)?.status), { timeout }).not.toMatch(/^(pending)?$/);
      return (await this.turn(id))!;
    },
  };
}

/** Where the widget is: this app's page, or the embed's frame on another site (e2e/embed.spec.ts). */
export type ChatSurface = Page | FrameLocator;

/** Opens the widget from the launcher and returns the panel. */
export async function openChat(page: ChatSurface) {
  await page.getByTestId('chat-launcher').click();
  const panel = page.getByTestId('chat-panel');
  await expect(panel).toBeVisible();
  await expect(page.getByTestId('chat-input')).toBeFocused();
  return panel;
}

/** Types a question and presses Enter. */
export async function ask(page: ChatSurface, question: string) {
  const input = page.getByTestId('chat-input');
  await input.fill(question);
  await input.press('Enter');
  await expect(page.getByTestId('chat-message').filter({ hasText: question }).last()).toBeVisible();
}

/** The assistant messages in the panel. */
export function replies(page: ChatSurface) {
  return page.locator('[data-testid="chat-message"][data-role="assistant"]');
}

/** Waits for the reply to finish streaming; returns its turn id and text. */
export async function lastReply(page: ChatSurface, count: number): Promise<{ turnId: string; text: string }> {
  await expect(replies(page)).toHaveCount(count);
  await expect(page.getByTestId('chat-send')).toBeVisible({ timeout: 15_000 }); // Stop turns back into Send
  const reply = replies(page).nth(count - 1);
  const turnId = await reply.getAttribute('data-turn-id');
  expect(turnId, 'the reply carries its turn id').toBeTruthy();
  return { turnId: turnId!, text: await reply.getByTestId('chat-message-text').innerText() };
}

/** A chat API response read to its end: the reply text, the error shown (if any), the turn id. */
export async function readChatStream(response: Response): Promise<{ turnId: string | null; text: string; error?: string }> {
  const events = (await response.text())
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string; errorText?: string });
  return {
    turnId: response.headers.get('x-turn-id'),
    text: events.map((e) => (e.type === 'text-delta' ? e.delta : '')).join(''),
    error: events.find((e) => e.type === 'error')?.errorText,
  };
}

/** A UI message as useChat makes it (one text part). */
export const uiMessage = (role: string, text: string, id = `m-${Math.random().toString(36).slice(2, 10)}`) => ({ id, role, parts: [{ type: 'text', text }] });

/** The AI SDK's standard chat body (DefaultChatTransport): the conversation id, the messages, the trigger. */
export function chatBody(id: string, messages: { role: string; text: string }[], trigger = 'submit-message') {
  return { id, trigger, messages: messages.map((m) => uiMessage(m.role, m.text)) };
}

/** One customer question as a standard chat body. */
export const question = (id: string, text: string) => chatBody(id, [{ role: 'user', text }]);
/** Collects CSP violations (the browser's event and its console report). */
export async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  return violations;
}
