import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteCustomerData, exportCustomerData } from '../admin/customer-data';
import { buildSystemPrompt } from '../ai/prompt';
import { createRetrievalIndex, kbVersionOf, sectionsFromSources, selectContext, type RetrievalIndex } from '../retrieval/index';
import { freshDatabase } from '../testing/pg-database';
import { testIndex } from '../testing/kb';
import { withRecord, type TestTurnStart } from '../testing/turns';
import type { TurnFilter } from './ports/inspector';
import { createPostgresPool, PostgresStore } from './postgres';
import { customerDataDeleters, eraseCustomerData } from './erase';
import { deleteExpiredTurns } from './retention';
import { closeStaleTurns } from './stale';
import { SqliteStore } from './sqlite';
import type { SubjectDeletion } from './ports/customer-data';
import type { ServerStore } from './server-store';
import type { AdminSession } from './ports/sessions';
import type { AttemptResult, ClaimedDelivery, HandoffStart } from './ports/handoffs';
import type { TurnStart, TurnStatus } from './ports/turns';
import { staleTurnReason } from './unrecorded';

/**
 * The trace store's contract: what the chat route, the conversation endpoint and /debug rely
 * on, run against both stores — SQLite (a file) and PostgreSQL (a database on the throwaway
 * server the test run started: lib/testing/postgres-setup.ts) — with the same inputs and the
 * same expected answers.
 */

type Store = ServerStore;

interface Backend {
  name: string;
  /** A new, empty store; `reopen` gives another store object on the same database (a restart, or a second instance). */
  open(): Promise<{ store: Store; reopen(): Store }>;
  /** What the database keeps of the tables that hold customer data: SQLite's file and its WAL, byte for byte; every row version (live or dead) in PostgreSQL's table pages (heap and TOAST). */
  storedBytes(store: Store): Promise<Buffer>;
}

/** The tables whose rows hold what a customer wrote. */
const CUSTOMER_TABLES = ['turns', 'turn_feedback', 'handoffs', 'handoff_deliveries', 'handoff_attempts'];

const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened.splice(0)) await store.close();
});
function track(store: Store): Store {
  opened.push(store);
  return store;
}

const BACKENDS: Backend[] = [
  {
    name: 'SQLite',
    async open() {
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'contract-')), 'traces.db');
      return { store: track(new SqliteStore(file)), reopen: () => track(new SqliteStore(file)) };
    },
    async storedBytes(store) {
      const file = (store as SqliteStore).db.name;
      const wal = (() => {
        try {
          return readFileSync(`${file}-wal`);
        } catch {
          return Buffer.alloc(0);
        }
      })();
      return Buffer.concat([readFileSync(file), wal]);
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const url = await freshDatabase();
      const open = () => track(new PostgresStore(createPostgresPool(url, { max: 4 })));
      return { store: open(), reopen: open };
    },
    async storedBytes(store) {
      // Every row version in the tables' pages, live or dead (pageinspect): PostgreSQL does not zero
      // the space a removed row leaves in its page (docs/security.md "Deleting a customer's data").
      const pool = (store as PostgresStore).pool;
      await pool.query('CREATE EXTENSION IF NOT EXISTS pageinspect');
      const { rows } = await pool.query<{ t_data: Buffer }>(
        `SELECT i.t_data FROM pg_class c
         CROSS JOIN LATERAL generate_series(0, (pg_relation_size(c.oid) / current_setting('block_size')::int)::int - 1) AS page
         CROSS JOIN LATERAL heap_page_items(get_raw_page(c.oid::regclass::text, page)) AS i
         WHERE (c.relname = ANY($1) OR c.oid IN (SELECT reltoastrelid FROM pg_class WHERE relname = ANY($1))) AND i.t_data IS NOT NULL`,
        [CUSTOMER_TABLES],
      );
      return Buffer.concat(rows.map((r) => r.t_data));
    },
  },
];

const INSTRUCTIONS = 'Answer from the knowledge below.';
const index = testIndex();
const kb = kbVersionOf(index, INSTRUCTIONS);

/** The inspector's small KB: a pinned rule, refund, streaming and API pages. */
const inspectorSections = sectionsFromSources([
  { file: 'rules.md', text: '---\npinned: true\n---\n# Rules\nNever promise a refund.' },
  { file: 'refunds.md', text: '# Refund policy\nRefunds within 14 days.\n## Annual plans\nAnnual refunds are pro-rated.' },
  { file: 'streaming.md', text: '# Live streaming\nStream live with RTMP.\n## Latency\nLow latency mode.' },
  { file: 'api.md', text: '# API\nREST endpoints for uploads.\n## Webhooks\nEvents for uploads.' },
]);
const inspectorIndex = createRetrievalIndex({ sections: inspectorSections, synonyms: [] }, { budget: 60, floor: 20 });

let n = 0;
function turn(question: string, overrides: Partial<Omit<TestTurnStart, 'record'>> = {}, on: RetrievalIndex = index): TestTurnStart {
  n++;
  const explanation = selectContext(on, [question]);
  return withRecord({
    id: `turn-${n}`,
    conversationId: 'conv-aaaaaaaa',
    createdAt: new Date(Date.UTC(2026, 0, 1, 12, 0, n % 60, n)).toISOString(),
    trigger: 'submit-message',
    customerMessages: [question],
    question,
    explanation,
    systemPrompt: buildSystemPrompt(explanation, on.pinnedContext, INSTRUCTIONS),
    kb: on === index ? kb : kbVersionOf(on, INSTRUCTIONS),
    provider: 'offline',
    modelId: 'extractive-v1',
    selectionUs: 42.4,
    ...overrides,
  });
}

/** A store holding these inspector turns (ids i1, i2, …), finished `ok` unless said otherwise. */
async function inspectorStore(backend: Backend, turns: { q: string; status?: TurnStatus; at: string; conversation?: string }[]) {
  const { store } = await backend.open();
  let i = 0;
  for (const t of turns) {
    const id = `i${++i}`;
    await store.startTurn(turn(t.q, { id, createdAt: t.at, conversationId: t.conversation ?? 'c1' }, inspectorIndex));
    if (t.status !== 'pending') await store.finishTurn(id, { status: t.status ?? 'ok', reply: 'r', totalMs: 5 });
  }
  return store;
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
/** `ms` after T0, as ISO 8601. */
const at = (ms = 0) => new Date(T0 + ms).toISOString();

let h = 0;
function handoff(overrides: Partial<HandoffStart> = {}): HandoffStart {
  h++;
  return {
    id: `ho-${h}`,
    conversationId: `conv-handoff-${h}`,
    visitorId: 'visitor-a',
    createdAt: at(),
    reason: 'asked',
    email: 'kim@example.com',
    note: 'Please call me back.',
    payload: JSON.stringify({ type: 'handoff.created', data: { id: `ho-${h}` } }),
    channels: ['webhook', 'email'],
    retryUntil: at(24 * 3600_000),
    ...overrides,
  };
}

/** An attempt's result, as the worker records it. */
function attempt(claim: ClaimedDelivery, outcome: AttemptResult['outcome'], startedAt = at()): AttemptResult {
  return { handoffId: claim.handoffId, channel: claim.channel, attempt: claim.attempt, startedAt, durationMs: 12, instance: 'test:1', outcome };
}

describe.each(BACKENDS)('trace store contract: $name', (backend) => {
  describe('turns', () => {
    it('writes a pending turn at start and completes it once (idempotent finishing)', async () => {
      const { store } = await backend.open();
      const start = turn('can I get a refund?');
      await store.startTurn(start);
      const pending = await store.getTurn(start.id);
      expect(pending).toMatchObject({ status: 'pending', reply: '', selectionUs: 42, createdAt: start.createdAt, kbVersion: kb.hash });
      expect(pending!.explanation).toStrictEqual(plain(start.explanation));
      expect(pending!.systemPrompt).toBe(start.systemPrompt);

      const usage = { inputTokens: 900, outputTokens: 40, totalTokens: 940, raw: { prompt_tokens: 900 } };
      const end = { status: 'ok', reply: 'Refunds are reviewed.', usage, finishReason: 'stop', firstTokenMs: 120.5, totalMs: 800 } as const;
      expect(await store.finishTurn(start.id, end)).toBe(true);
      expect(await store.finishTurn(start.id, { status: 'error', reply: '', totalMs: 900, error: 'late' })).toBe(false);
      expect(await store.finishTurn('no-such-turn', { status: 'ok', reply: '', totalMs: 1 })).toBe(false);
      const done = await store.getTurn(start.id);
      expect(done).toMatchObject({ ...end, status: 'ok' });
      expect(done!.finishedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(done!.error).toBeUndefined();
      expect(await store.getTurn('no-such-turn')).toBeUndefined();
    });

    it('records errors and aborts with their message', async () => {
      const { store } = await backend.open();
      const [a, b] = [turn('refund'), turn('live stream')];
      await store.startTurn(a);
      await store.startTurn(b);
      await store.finishTurn(a.id, { status: 'error', reply: '', totalMs: 3000, error: 'ModelTimeoutError: no answer' });
      await store.finishTurn(b.id, { status: 'aborted', reply: 'Start a live', totalMs: 300, error: 'the customer stopped it' });
      expect(await store.getTurn(a.id)).toMatchObject({ status: 'error', error: 'ModelTimeoutError: no answer' });
      expect(await store.getTurn(b.id)).toMatchObject({ status: 'aborted', reply: 'Start a live' });
    });

    it('refuses a turn id twice and rolls the failed start back whole', async () => {
      const { store } = await backend.open();
      const start = turn('refund');
      await store.startTurn(start);
      const otherKb = kbVersionOf(testIndex({ budget: 450, floor: 60 }), INSTRUCTIONS);
      await expect(store.startTurn({ ...start, kb: otherKb })).rejects.toThrow();
      const next = turn('refund', { kb: otherKb, explanation: selectContext(testIndex({ budget: 450, floor: 60 }), ['refund']) });
      await store.startTurn(next);
      expect((await store.getTurn(next.id))!.explanation).toStrictEqual(plain(next.explanation));
      expect(await store.countTurns()).toBe(2);
    });

    it('reads every turn back exactly, also through another store on the same database (a restart, a second instance)', async () => {
      const { store, reopen } = await backend.open();
      const starts = ['can I get a refund?', 'refund refund timelines 14 days billing', 'hi, I need some help', 'live stream OBS latency'].map((q) => turn(q));
      for (const start of starts) await store.startTurn(start);
      const other = reopen();
      for (const start of starts) {
        const trace = (await other.getTurn(start.id))!;
        expect(trace.explanation).toStrictEqual(plain(start.explanation));
        expect(trace.systemPrompt).toBe(start.systemPrompt);
        expect(trace.kbVersion).toBe(kb.hash);
      }
      const listed = await other.listTurnsByConversation(starts[0]!.conversationId);
      expect(listed.find((t) => t.id === starts[1]!.id)!.explanation).toStrictEqual(plain(starts[1]!.explanation));
    });

    it('keeps a turn its packed fields cannot give back exactly (a prompt of its own, an explanation of another KB)', async () => {
      const { store } = await backend.open();
      const start = turn('refund', { kb: kbVersionOf(testIndex({ budget: 500, floor: 60 }), 'other'), systemPrompt: 'a prompt of its own' });
      await store.startTurn(start);
      const trace = (await store.getTurn(start.id))!;
      expect(trace.explanation).toStrictEqual(plain(start.explanation));
      expect(trace.systemPrompt).toBe('a prompt of its own');
    });

    it('writes one KB version when two stores start turns on it at once', async () => {
      const { store, reopen } = await backend.open();
      const other = reopen();
      const fresh = kbVersionOf(testIndex({ budget: 420, floor: 60 }), INSTRUCTIONS);
      const starts = Array.from({ length: 6 }, (_, i) => turn(`refund ${i}`, { kb: fresh, explanation: selectContext(testIndex({ budget: 420, floor: 60 }), [`refund ${i}`]) }));
      await Promise.all(starts.map((s, i) => (i % 2 ? other : store).startTurn(s)));
      for (const s of starts) expect((await store.getTurn(s.id))!.explanation).toStrictEqual(plain(s.explanation));
    });
  });

  describe('conversations', () => {
    it('lists a conversation oldest first, and only that conversation', async () => {
      const { store } = await backend.open();
      await store.startTurn(turn('what about that one?', { conversationId: 'conv-bbbbbbbb' }));
      await store.startTurn(turn('how do I start a live stream?', { conversationId: 'conv-bbbbbbbb', createdAt: '2025-01-01T00:00:00.000Z' }));
      await store.startTurn(turn('other conversation'));
      expect((await store.listTurnsByConversation('conv-bbbbbbbb')).map((t) => t.question)).toEqual(['how do I start a live stream?', 'what about that one?']);
      expect(await store.listTurnsByConversation('conv-nobody')).toEqual([]);
    });

    it("lists a visitor's conversation by (conversation id, visitor) only", async () => {
      const { store } = await backend.open();
      await store.startTurn(turn('mine', { conversationId: 'conv-cccccccc', visitorId: 'visitor-a' }));
      await store.startTurn(turn('theirs', { conversationId: 'conv-cccccccc', visitorId: 'visitor-b' }));
      await store.startTurn(turn('no visitor', { conversationId: 'conv-cccccccc' }));
      expect((await store.listVisitorConversation('conv-cccccccc', 'visitor-a')).map((t) => [t.question, t.visitorId])).toEqual([['mine', 'visitor-a']]);
      expect(await store.listVisitorConversation('conv-cccccccc', 'visitor-c')).toEqual([]);
      expect(await store.listTurnsByConversation('conv-cccccccc')).toHaveLength(3);
    });
  });

  describe('the embed', () => {
    it("keeps a turn's page context and verified user, and finds a visitor's newest conversation", async () => {
      const { store, reopen } = await backend.open();
      const page = { url: 'https://www.acme.example/pricing?plan=pro#faq', title: 'Pricing — Acme' };
      const embedded = turn('can I get a refund?', { conversationId: 'conv-embed-01', visitorId: 'user:cust-42', userId: 'cust-42', page, createdAt: '2026-02-01T10:00:00.000Z' });
      await store.startTurn(embedded);
      await store.startTurn(turn('and annual plans?', { conversationId: 'conv-embed-02', visitorId: 'user:cust-42', userId: 'cust-42', page: { url: 'https://www.acme.example/' }, createdAt: '2026-02-01T11:00:00.000Z' }));
      await store.startTurn(turn('older', { conversationId: 'conv-embed-00', visitorId: 'user:cust-42', createdAt: '2026-01-01T00:00:00.000Z' }));
      await store.startTurn(turn('anonymous', { conversationId: 'conv-embed-03', visitorId: 'visitor-z', createdAt: '2026-03-01T00:00:00.000Z' }));

      const other = reopen();
      expect(await other.getTurn(embedded.id)).toMatchObject({ page, userId: 'cust-42', visitorId: 'user:cust-42' });
      const [listed] = await other.listVisitorConversation('conv-embed-02', 'user:cust-42');
      expect(listed).toMatchObject({ page: { url: 'https://www.acme.example/' }, userId: 'cust-42' });
      expect(listed!.page!.title).toBeUndefined();
      const plainTurn = turn('no embed');
      await store.startTurn(plainTurn);
      const read = (await store.getTurn(plainTurn.id))!;
      expect(read.page).toBeUndefined();
      expect(read.userId).toBeUndefined();

      expect(await other.latestVisitorConversation('user:cust-42')).toBe('conv-embed-02');
      expect(await other.latestVisitorConversation('visitor-z')).toBe('conv-embed-03');
      expect(await other.latestVisitorConversation('nobody')).toBeUndefined();
    });
  });

  describe('the inspector', () => {
    it('lists turns newest first, paginated (clamped), with token splits', async () => {
      const store = await inspectorStore(backend, Array.from({ length: 7 }, (_, i) => ({ q: `refund question ${i}`, at: `2026-11-29T10:0${i}:00.000Z` })));
      const first = await store.listTurns({}, 1, 3);
      expect(first).toMatchObject({ total: 7, page: 1, pageSize: 3, pages: 3 });
      expect(first.turns.map((t) => t.question)).toEqual(['refund question 6', 'refund question 5', 'refund question 4']);
      expect(first.turns[0]).toMatchObject({ id: 'i7', conversationId: 'c1', createdAt: '2026-11-29T10:06:00.000Z', status: 'ok', totalMs: 5, error: null });
      const t = first.turns[0]!.tokens;
      expect(t.total).toBe(t.pinned + t.scored + t.floor);
      expect((await store.listTurns({}, 3, 3)).turns.map((x) => x.question)).toEqual(['refund question 0']);
      expect((await store.listTurns({}, 99, 3)).page).toBe(3);
      expect((await store.listTurns({}, 1, 0)).pageSize).toBe(1);
      expect(await store.countTurns()).toBe(7);
      expect(await store.oldestTurnAt()).toBe('2026-11-29T10:00:00.000Z');
    });

    it('filters by words of the question, status, floor used, conversation and section sent / dropped', async () => {
      const store = await inspectorStore(backend, [
        { q: 'can I get a refund?', at: '2026-11-29T10:00:00.000Z' },
        { q: 'hi there', at: '2026-11-29T10:01:00.000Z' },
        { q: 'live streaming latency', status: 'error', at: '2026-11-29T10:02:00.000Z' },
        { q: 'webhooks for uploads', status: 'aborted', at: '2026-11-29T10:03:00.000Z', conversation: 'c2' },
        { q: 'still waiting', status: 'pending', at: '2026-11-29T10:04:00.000Z' },
      ]);
      const questions = async (f: TurnFilter) => (await store.listTurns(f, 1, 50)).turns.map((t) => t.question);
      expect(await questions({ text: 'refunds' })).toEqual(['can I get a refund?']); // stemmed
      expect(await questions({ text: 'refu' })).toEqual(['can I get a refund?']); // and prefix-matched
      expect(await questions({ text: 'LIVE stream' })).toEqual(['live streaming latency']);
      expect(await questions({ text: '"); DROP TABLE turns; --' })).toEqual([]);
      expect(await questions({ text: '?!' })).toHaveLength(5); // nothing to search: no condition
      expect(await questions({ status: 'error' })).toEqual(['live streaming latency']);
      expect(await questions({ status: 'pending' })).toEqual(['still waiting']);
      expect(await questions({ floorUsed: true })).toContain('hi there');
      expect(await questions({ floorUsed: false })).not.toContain('hi there');
      expect(await questions({ section: { id: 'refunds.md#refund-policy', state: 'sent' } })).toContain('can I get a refund?');
      expect(await questions({ section: { id: 'api.md#webhooks', state: 'sent' } })).toEqual(['webhooks for uploads']);
      expect(await questions({ section: { id: 'rules.md#rules', state: 'sent' } })).toHaveLength(5);
      expect(await questions({ section: { id: 'refunds.md#refund-policy', state: 'dropped' } })).toEqual([]);
      expect(await questions({ section: { id: 'no-such.md#x', state: 'any' } })).toEqual([]);
      expect(await questions({ status: 'ok', floorUsed: true, text: 'hi' })).toEqual(['hi there']);
      expect(await questions({ conversationId: 'c2' })).toEqual(['webhooks for uploads']);
      expect((await store.listTurns({ conversationId: 'c1' }, 1, 2)).total).toBe(4);
    });

    it('records a matched section that did not fit as dropped', async () => {
      const tight = createRetrievalIndex({ sections: inspectorSections, synonyms: [] }, { budget: inspectorIndex.pinnedTokens + 5, floor: 0 });
      const { store } = await backend.open();
      await store.startTurn(turn('refund', { id: 'tight' }, tight));
      expect((await store.listTurns({ section: { id: 'refunds.md#refund-policy', state: 'dropped' } }, 1, 10)).total).toBe(1);
      expect((await store.sectionTraffic()).find((s) => s.sectionId === 'refunds.md#refund-policy')).toMatchObject({ sent: 0, dropped: 1 });
    });

    it('counts section traffic, from which never-sent sections follow', async () => {
      const store = await inspectorStore(backend, [
        { q: 'refund', at: '2026-11-29T10:00:00.000Z' },
        { q: 'refund policy', at: '2026-11-29T10:01:00.000Z' },
      ]);
      const traffic = await store.sectionTraffic();
      expect(traffic.find((s) => s.sectionId === 'rules.md#rules')).toEqual({ sectionId: 'rules.md#rules', sent: 2, scored: 0, floor: 0, dropped: 0 });
      expect(traffic.find((s) => s.sectionId === 'refunds.md#refund-policy')).toMatchObject({ sent: 2, scored: 2 });
      const everSent = new Set(traffic.filter((s) => s.sent > 0).map((s) => s.sectionId));
      const neverSent = inspectorSections.filter((s) => !everSent.has(s.id)).map((s) => s.id);
      expect(neverSent).toContain('streaming.md#live-streaming');
      expect(neverSent).not.toContain('refunds.md#refund-policy');
    });

    it('returns the thinly matched turns (floor used or a low best score), newest first', async () => {
      const store = await inspectorStore(backend, [
        { q: 'is it cheap?', at: '2026-11-29T10:00:00.000Z' },
        { q: 'cheap plan for my podcast', at: '2026-11-29T10:01:00.000Z' },
        { q: 'refunds please', at: '2026-11-29T10:02:00.000Z' },
      ]);
      expect(await store.thinMatchTurns({ lowScore: 0.5 })).toEqual([
        { id: 'i2', question: 'cheap plan for my podcast' },
        { id: 'i1', question: 'is it cheap?' },
      ]);
      expect(await store.thinMatchTurns({ lowScore: 0.5, maxTurns: 1 })).toHaveLength(1);
    });

    it('lists the newest turns’ best scores and floor use, newest first (when to consider the semantic stage)', async () => {
      const store = await inspectorStore(backend, [
        { q: 'is it cheap?', at: '2026-11-29T10:00:00.000Z' },
        { q: 'refunds please', at: '2026-11-29T10:02:00.000Z' },
        { q: 'hi there', at: '2026-11-29T10:03:00.000Z' },
      ]);
      const recent = await store.recentTurnScores(2);
      expect(recent.map((r) => [r.id, r.question, r.createdAt])).toEqual([
        ['i3', 'hi there', '2026-11-29T10:03:00.000Z'],
        ['i2', 'refunds please', '2026-11-29T10:02:00.000Z'],
      ]);
      expect(recent[0]).toMatchObject({ floorUsed: true, topScore: 0 });
      expect(recent[1]).toMatchObject({ floorUsed: false, topScore: expect.any(Number) });
      expect(recent[1]!.topScore).toBeGreaterThan(0);
    });

    it('counts the newest turns per customer language (the stored query\'s), most first', async () => {
      const { store } = await backend.open();
      const mixed = createRetrievalIndex(
        {
          sections: sectionsFromSources([
            { file: 'en.md', text: '# Network\nSet up a wireless network connection.' },
            { file: 'de.md', text: '---\nlang: de\n---\n# Netzwerk\nEine Netzwerkverbindung mit WLAN einrichten.' },
          ]),
          synonyms: [],
        },
        { floor: 0 },
      );
      const questions = ['Wie richte ich eine Netzwerkverbindung mit WLAN ein?', 'Wo kann ich das Netzwerk einrichten?', 'How do I set up the network?'];
      for (const [i, q] of questions.entries()) await store.startTurn(turn(q, { id: `l${i}` }, mixed));
      expect(await store.turnLanguages(10)).toEqual([
        { language: 'de', turns: 2 },
        { language: 'en', turns: 1 },
      ]);
      expect(await store.turnLanguages(1)).toEqual([{ language: 'en', turns: 1 }]);
    });

    it('is empty before any turn', async () => {
      const { store } = await backend.open();
      expect(await store.listTurns({}, 1, 10)).toEqual({ turns: [], total: 0, page: 1, pageSize: 10, pages: 1 });
      expect(await store.countTurns()).toBe(0);
      expect(await store.oldestTurnAt()).toBeUndefined();
      expect(await store.sectionTraffic()).toEqual([]);
      expect(await store.recentTurnScores(10)).toEqual([]);
      expect(await store.turnLanguages(10)).toEqual([]);
    });
  });

  describe('retention', () => {
    it('deletes turns before the cutoff in batches, with their sections, and keeps the rest readable', async () => {
      const { store } = await backend.open();
      const old = Array.from({ length: 5 }, (_, i) => turn(`refund ${i}`, { createdAt: new Date(Date.UTC(2020, 0, 1, 0, i)).toISOString() }));
      const recent = turn('refund policy', { createdAt: new Date().toISOString() });
      for (const t of [...old, recent]) await store.startTurn(t);
      expect(await store.deleteTurnsBefore('2020-01-01T00:02:00.000Z', 10)).toBe(2);
      expect(await store.deleteTurnsBefore('2030-01-01T00:00:00.000Z', 2)).toBe(2); // a batch at a time, oldest first
      expect(await store.getTurn(old[3]!.id)).toBeUndefined();
      expect(await store.getTurn(old[4]!.id)).toBeDefined();
      expect(await deleteExpiredTurns(store, 30, { batchSize: 1, pauseMs: 0 })).toBe(1);
      expect(await store.countTurns()).toBe(1);
      expect((await store.getTurn(recent.id))!.explanation).toStrictEqual(plain(recent.explanation));
      const traffic = await store.sectionTraffic();
      expect(traffic.find((s) => s.sectionId === 'rules.md#refunds')?.sent).toBe(1); // the deleted turns' sections went too
      expect(await store.deleteTurnsBefore('2020-01-01T00:00:00.000Z', 10)).toBe(0);
    });

    it('deletes what was stored with a turn (its feedback too): a turn made after every old one went starts clean', async () => {
      const { store } = await backend.open();
      const old = turn('refund', { createdAt: '2020-01-01T00:00:00.000Z' });
      await store.startTurn(old);
      await store.finishTurn(old.id, { status: 'ok', reply: 'r', totalMs: 1 });
      expect(await store.setFeedback(old.id, { vote: 'down', reason: 'wrong', at: '2020-01-01T00:01:00.000Z' })).toBe(true);
      expect(await store.deleteTurnsBefore('2021-01-01T00:00:00.000Z', 10)).toBe(1);
      const next = turn('refund policy', { createdAt: '2026-01-01T00:00:00.000Z' });
      await store.startTurn(next);
      expect((await store.getTurn(next.id))!.feedback).toBeUndefined();
      expect((await store.listTurns({ feedback: 'any' }, 1, 10)).total).toBe(0);
      expect(await store.downVotedSections(10)).toEqual([]);
    });
  });

  describe('the pending-turn sweep', () => {
    it('marks turns still pending from before the cutoff error with the reason, oldest first; leaves newer and ended turns alone', async () => {
      const { store, reopen } = await backend.open();
      const crashed = [10, 11, 12].map((minute) => turn(`refund ${minute}`, { createdAt: `2026-01-01T10:${minute}:00.000Z` }));
      const ended = turn('refund policy', { createdAt: '2026-01-01T09:00:00.000Z' });
      const streaming = turn('live stream', { createdAt: '2026-01-01T10:40:00.000Z' });
      for (const t of [...crashed, ended, streaming]) await store.startTurn(t);
      await store.finishTurn(ended.id, { status: 'ok', reply: 'Refunds are reviewed.', totalMs: 900 });

      const reason = staleTurnReason(15);
      expect(await store.closePendingTurnsBefore('2026-01-01T10:30:00.000Z', reason, 1)).toBe(1); // a batch at a time, oldest first
      expect((await store.getTurn(crashed[0]!.id))!.status).toBe('error');
      expect((await store.getTurn(crashed[1]!.id))!.status).toBe('pending');
      // The rest by the module every instance runs, through another store on the same database.
      expect(await closeStaleTurns(reopen(), 15, { now: Date.parse('2026-01-01T10:45:00.000Z'), batchSize: 1 })).toBe(2);

      for (const t of crashed) {
        const trace = (await store.getTurn(t.id))!;
        expect(trace).toMatchObject({ status: 'error', error: reason, reply: '' });
        expect(trace.finishedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      }
      expect(await store.getTurn(ended.id)).toMatchObject({ status: 'ok', reply: 'Refunds are reviewed.' });
      expect((await store.getTurn(streaming.id))!.status).toBe('pending'); // younger than the limit: may still be streaming
      expect((await store.listTurns({ status: 'error' }, 1, 10)).turns.map((t) => [t.id, t.error])).toEqual(crashed.map((t) => [t.id, reason]).reverse());

      // The sweep's ending is the one: a late ending changes nothing. The young turn ends normally.
      expect(await store.finishTurn(crashed[0]!.id, { status: 'ok', reply: 'too late', totalMs: 1 })).toBe(false);
      expect(await store.finishTurn(streaming.id, { status: 'ok', reply: 'Start a live stream.', totalMs: 1 })).toBe(true);
      expect(await closeStaleTurns(store, 15, { now: Date.parse('2026-01-01T11:30:00.000Z') })).toBe(0);
    });
  });

  describe('hand-offs', () => {
    it('writes a hand-off with one pending delivery per channel, once per conversation and visitor', async () => {
      const { store, reopen } = await backend.open();
      const first = handoff({ conversationId: 'conv-handoff-once', page: { url: 'https://lumacast.com/pricing', title: 'Pricing' } });
      const made = await store.createHandoff(first);
      expect(made.created).toBe(true);
      expect(made.handoff).toEqual({
        id: first.id,
        conversationId: 'conv-handoff-once',
        visitorId: 'visitor-a',
        createdAt: first.createdAt,
        reason: 'asked',
        email: 'kim@example.com',
        note: 'Please call me back.',
        page: { url: 'https://lumacast.com/pricing', title: 'Pricing' },
        status: 'pending',
        deliveries: [
          { channel: 'email', status: 'pending', attempts: 0, nextAttemptAt: first.createdAt, retryUntil: first.retryUntil },
          { channel: 'webhook', status: 'pending', attempts: 0, nextAttemptAt: first.createdAt, retryUntil: first.retryUntil },
        ],
      });
      // A second for the same conversation, from another store on the database (a double click on another instance): nothing written.
      const again = await reopen().createHandoff(handoff({ id: 'ho-twice', conversationId: 'conv-handoff-once', note: undefined }));
      expect(again).toEqual({ created: false, handoff: made.handoff });
      expect(await store.getHandoff('ho-twice')).toBeUndefined();
      expect(await store.conversationHandoff('conv-handoff-once', 'visitor-a')).toEqual(made.handoff);
      expect(await store.conversationHandoff('conv-handoff-once', 'visitor-b')).toBeUndefined();
      expect((await store.getHandoff(first.id))!.payload).toBe(first.payload);
    });

    it('claims each due delivery once: two stores claiming at once share them, and a claim holds them until its lease runs out', async () => {
      const { store, reopen } = await backend.open();
      const other = reopen();
      const made = Array.from({ length: 6 }, () => handoff({ channels: ['webhook'] }));
      for (const m of made) await store.createHandoff(m);
      await store.createHandoff(handoff({ createdAt: at(3600_000) })); // not due yet
      const lease = at(60_000);
      const [a, b] = await Promise.all([store.claimDeliveries(at(1000), lease, 4), other.claimDeliveries(at(1000), lease, 4)]);
      const claimed = [...a, ...b];
      expect(claimed.map((c) => c.handoffId).sort()).toEqual(made.map((m) => m.id).sort());
      for (const c of claimed) {
        expect(c).toMatchObject({ channel: 'webhook', attempt: 1, reason: 'asked', retryUntil: made[0]!.retryUntil });
        expect(c.payload).toBe(made.find((m) => m.id === c.handoffId)!.payload);
      }
      expect(await store.claimDeliveries(at(2000), at(62_000), 10)).toEqual([]); // held by the claims
      // The claiming worker died: once the lease has run out they are claimed again, as the next attempt.
      const again = await other.claimDeliveries(lease, at(120_000), 10);
      expect(again.map((c) => c.attempt)).toEqual([2, 2, 2, 2, 2, 2]);
    });

    it('records every attempt: a retry is due at its time, a sent delivery is done, a failed one stays visible until retried', async () => {
      const { store } = await backend.open();
      const made = handoff();
      await store.createHandoff(made);
      const [email, webhook] = (await store.claimDeliveries(at(), at(60_000), 10)).sort((x, y) => x.channel.localeCompare(y.channel));
      await store.finishAttempt(attempt(webhook!, { status: 'retry', nextAttemptAt: at(5000), error: 'connect ECONNREFUSED 127.0.0.1:9' }));
      await store.finishAttempt(attempt(email!, { status: 'sent' }));
      expect(await store.conversationHandoff(made.conversationId, made.visitorId)).toMatchObject({
        status: 'pending',
        deliveries: [
          { channel: 'email', status: 'sent', attempts: 1, sentAt: at(12) },
          { channel: 'webhook', status: 'pending', attempts: 1, nextAttemptAt: at(5000), lastError: 'connect ECONNREFUSED 127.0.0.1:9' },
        ],
      });
      expect(await store.claimDeliveries(at(4999), at(70_000), 10)).toEqual([]); // not due yet
      const [second] = await store.claimDeliveries(at(5000), at(70_000), 10);
      expect(second).toMatchObject({ channel: 'webhook', attempt: 2 });
      await store.finishAttempt(attempt(second!, { status: 'failed', error: 'HTTP 500: receiver down' }, at(5000)));
      const failed = (await store.getHandoff(made.id))!;
      expect(failed).toMatchObject({ status: 'failed', deliveries: [{ status: 'sent' }, { channel: 'webhook', status: 'failed', attempts: 2, lastError: 'HTTP 500: receiver down' }] });
      expect(failed.deliveries[1]!.nextAttemptAt).toBeUndefined();
      expect(failed.attempts).toEqual([
        { channel: 'email', attempt: 1, startedAt: at(), durationMs: 12, ok: true, instance: 'test:1' },
        { channel: 'webhook', attempt: 1, startedAt: at(), durationMs: 12, ok: false, error: 'connect ECONNREFUSED 127.0.0.1:9', instance: 'test:1' },
        { channel: 'webhook', attempt: 2, startedAt: at(5000), durationMs: 12, ok: false, error: 'HTTP 500: receiver down', instance: 'test:1' },
      ]);
      expect(await store.claimDeliveries(at(3600_000), at(3700_000), 10)).toEqual([]); // failed: never claimed again by itself
      // "Retry now" (/debug): the failed delivery is due again, with a new deadline; the sent one is left alone.
      expect(await store.retryFailed(made.id, at(7200_000), at(30 * 3600_000))).toBe(1);
      expect((await store.getHandoff(made.id))!.status).toBe('pending');
      expect(await store.claimDeliveries(at(7200_000), at(7260_000), 10)).toMatchObject([{ channel: 'webhook', attempt: 3, retryUntil: at(30 * 3600_000) }]);
      expect(await store.retryFailed('no-such-handoff', at(), at())).toBe(0);
    });

    it("ignores the outcome of a worker whose lease ran out and whose delivery was claimed again, but records its attempt", async () => {
      const { store } = await backend.open();
      const made = handoff({ channels: ['webhook'] });
      await store.createHandoff(made);
      const [stale] = await store.claimDeliveries(at(), at(1000), 10);
      const [fresh] = await store.claimDeliveries(at(1000), at(61_000), 10);
      await store.finishAttempt(attempt(stale!, { status: 'failed', error: 'too late' }));
      expect((await store.getHandoff(made.id))!.deliveries[0]).toMatchObject({ status: 'pending', attempts: 2 });
      await store.finishAttempt(attempt(fresh!, { status: 'sent' }, at(1000)));
      const done = (await store.getHandoff(made.id))!;
      expect(done).toMatchObject({ status: 'sent', deliveries: [{ status: 'sent', attempts: 2 }] });
      expect(done.attempts.map((a) => [a.attempt, a.ok])).toEqual([[1, false], [2, true]]);
    });

    it("counts a visitor conversation's thin turns (floor used, or BM25 confidence under the threshold) and whether it was handed off", async () => {
      const { store } = await backend.open();
      const mine = { conversationId: 'conv-signals', visitorId: 'visitor-a' };
      const turns: [string, Partial<TurnStart>][] = [
        ['can I get a refund?', { ...mine, confidence: 0.9 }],
        ['hi there', { ...mine, confidence: 0 }], // the floor filled in
        ['refund policy', { ...mine, confidence: 0.1 }], // matched, but thinly
        ['refund policy', { ...mine, confidence: 0.1, trigger: 'regenerate-message' }], // the same question again
        ['refund', { ...mine }], // recorded before confidences were: counted by its floor alone
        ['hi there', { conversationId: 'conv-signals', visitorId: 'visitor-b', confidence: 0 }], // another visitor's
      ];
      for (const [q, o] of turns) await store.startTurn(turn(q, o, inspectorIndex));
      expect(await store.conversationSignals('conv-signals', 'visitor-a', 0.2)).toEqual({ thinTurns: 2, handedOff: false });
      expect(await store.conversationSignals('conv-signals', 'visitor-a', 0.05)).toEqual({ thinTurns: 1, handedOff: false });
      expect(await store.conversationSignals('conv-nobody', 'visitor-a', 0.2)).toEqual({ thinTurns: 0, handedOff: false });
      await store.createHandoff(handoff(mine));
      expect(await store.conversationSignals('conv-signals', 'visitor-a', 0.2)).toEqual({ thinTurns: 2, handedOff: true });
      expect((await store.conversationSignals('conv-signals', 'visitor-b', 0.2)).handedOff).toBe(false);
    });

    it('computes deflection per day, hand-offs by reason and the sections sent just before hand-offs, on a fixed set of conversations', async () => {
      const { store } = await backend.open();
      const q = (question: string, conversationId: string, createdAt: string) => turn(question, { conversationId, visitorId: 'v', createdAt }, inspectorIndex);
      for (const t of [
        q('refund policy', 'c-before', '2026-03-31T23:59:00.000Z'), // begun before the window
        q('live streaming latency', 'c1', '2026-04-01T08:00:00.000Z'),
        q('webhooks for uploads', 'c1', '2026-04-01T08:01:00.000Z'),
        q('can I get a refund?', 'c2', '2026-04-01T09:00:00.000Z'),
        q('hi there', 'c3', '2026-04-01T23:59:59.000Z'),
        q('webhooks for uploads', 'c4', '2026-04-02T10:00:00.000Z'),
        q('refund policy', 'c4', '2026-04-02T10:01:00.000Z'),
        q('live streaming latency', 'c4', '2026-04-03T10:00:00.000Z'), // after its hand-off; still the conversation of 04-02
        q('live streaming latency', 'c5', '2026-04-02T11:00:00.000Z'),
      ]) await store.startTurn(t);
      for (const [conversationId, reason, createdAt] of [
        ['c-before', 'asked', '2026-03-31T23:59:30.000Z'],
        ['c2', 'asked', '2026-04-01T09:00:30.000Z'],
        ['c4', 'thin-answers', '2026-04-02T10:02:00.000Z'],
        ['c5', 'down-vote', '2026-04-02T11:00:30.000Z'],
        ['c-empty', 'asked', '2026-04-02T12:00:00.000Z'], // handed off before any question: no turn, not a conversation of the rate
      ] as const) {
        await store.createHandoff(handoff({ conversationId, visitorId: 'v', reason, createdAt }));
      }
      expect(await store.deflectionByDay({ since: '2026-04-01T00:00:00.000Z' })).toEqual([
        { day: '2026-04-01', conversations: 3, handedOff: 1 },
        { day: '2026-04-02', conversations: 2, handedOff: 2 },
      ]);
      expect(await store.handoffsByReason({ since: '2026-04-01T00:00:00.000Z' })).toEqual([
        { reason: 'asked', count: 2 },
        { reason: 'down-vote', count: 1 },
        { reason: 'thin-answers', count: 1 },
      ]);
      // The last turn before each hand-off: c-before's and c4's "refund policy", c2's refund question, c5's latency question.
      const last = await store.sectionsBeforeHandoffs(1, 10);
      expect(last.slice(0, 2)).toEqual([
        { sectionId: 'refunds.md#annual-plans', handoffs: 3 }, // most hand-offs first, then by id
        { sectionId: 'refunds.md#refund-policy', handoffs: 3 },
      ]);
      expect(last).toContainEqual({ sectionId: 'streaming.md#latency', handoffs: 1 });
      expect(last.map((s) => s.sectionId)).not.toContain('api.md#webhooks'); // c4's first turn, two before its hand-off
      expect(last.map((s) => s.sectionId)).not.toContain('rules.md#rules'); // pinned: in every turn, never "scored"
      expect(await store.sectionsBeforeHandoffs(2, 10)).toContainEqual({ sectionId: 'api.md#webhooks', handoffs: 1 });
      expect(await store.sectionsBeforeHandoffs(1, 1)).toHaveLength(1);
    });

    it('lists hand-offs newest first, by status, with their attempts and last error', async () => {
      const { store } = await backend.open();
      const made = [handoff({ createdAt: at(0) }), handoff({ createdAt: at(1000), channels: ['webhook'] }), handoff({ createdAt: at(2000) })];
      for (const m of made) await store.createHandoff(m);
      const claims = await store.claimDeliveries(at(1000), at(60_000), 10); // the first two's deliveries
      for (const c of claims) {
        await store.finishAttempt(attempt(c, c.handoffId === made[1]!.id ? { status: 'failed', error: 'HTTP 410: gone' } : { status: 'sent' }));
      }
      const all = await store.listHandoffs({}, 1, 2);
      expect(all).toMatchObject({ total: 3, page: 1, pageSize: 2, pages: 2 });
      expect(all.handoffs.map((x) => [x.id, x.status, x.attempts])).toEqual([[made[2]!.id, 'pending', 0], [made[1]!.id, 'failed', 1]]);
      expect(all.handoffs[1]!.lastError).toBe('HTTP 410: gone');
      expect((await store.listHandoffs({}, 2, 2)).handoffs.map((x) => [x.id, x.status, x.attempts])).toEqual([[made[0]!.id, 'sent', 2]]);
      expect((await store.listHandoffs({ status: 'failed' }, 1, 10)).handoffs.map((x) => x.id)).toEqual([made[1]!.id]);
      expect(await store.listHandoffs({ status: 'sent' }, 9, 10)).toMatchObject({ total: 1, page: 1 });
    });
  });

  describe('admin sessions', () => {
    const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
    const session = (id: string, actor: string, overrides: Partial<AdminSession> = {}) => ({
      id, secretHash: `hash-${id}`, actor, role: 'viewer' as const, via: 'oidc' as const, createdAt: at(0), expiresAt: at(30), ...overrides,
    });

    it('keeps sessions server-side: found by the secret hash until ended or expired, on every store of the database', async () => {
      const { store, reopen } = await backend.open();
      await store.createSession(session('s1', 'ann@acme.test'));
      await store.createSession(session('s2', 'ann@acme.test', { createdAt: at(1) }));
      await store.createSession(session('s3', 'admin-token', { role: 'admin', via: 'token', createdAt: at(2) }));
      const other = reopen();
      expect(await other.findSession('hash-s1', at(10))).toEqual({ id: 's1', actor: 'ann@acme.test', role: 'viewer', via: 'oidc', createdAt: at(0), expiresAt: at(30) });
      expect(await other.findSession('hash-s1', at(30))).toBeUndefined(); // expired
      expect(await other.findSession('no-such-hash', at(10))).toBeUndefined();
      expect((await store.listSessions(at(10))).map((s) => s.id)).toEqual(['s3', 's2', 's1']);

      expect(await other.endSession('s3', at(11))).toBe(true);
      expect(await store.endSession('s3', at(12))).toBe(false);
      expect(await store.findSession('hash-s3', at(12))).toBeUndefined(); // signed out on one instance: refused on the other
      expect(await store.setSessionsRole('ann@acme.test', 'admin')).toBe(2);
      expect((await other.findSession('hash-s2', at(12)))!.role).toBe('admin');
      expect(await store.endSessionsOf('ann@acme.test', at(13))).toBe(2);
      expect(await store.listSessions(at(14))).toEqual([]);
    });

    it('API keys: found by hash while live, one live key per name, revoked once, last use recorded', async () => {
      const { store } = await backend.open();
      const key = { id: 'k1', secretHash: 'kh1', name: 'ci export', role: 'admin' as const, prefix: 'tsk_k1ab', createdAt: at(0), createdBy: 'admin-token' };
      await store.createApiKey(key);
      await expect(store.createApiKey({ ...key, id: 'k2', secretHash: 'kh2' })).rejects.toThrow();
      expect(await store.findApiKey('kh1')).toMatchObject({ id: 'k1', name: 'ci export', role: 'admin', prefix: 'tsk_k1ab' });
      await store.touchApiKey('k1', at(5));
      await store.touchApiKey('k1', at(3)); // never back in time
      expect((await store.findApiKey('kh1'))!.lastUsedAt).toBe(at(5));
      expect(await store.revokeApiKey('k1', at(6), 'ann@acme.test')).toMatchObject({ id: 'k1', revokedAt: at(6), revokedBy: 'ann@acme.test' });
      expect(await store.revokeApiKey('k1', at(7), 'ann@acme.test')).toBeUndefined();
      expect(await store.findApiKey('kh1')).toBeUndefined();
      await store.createApiKey({ ...key, id: 'k3', secretHash: 'kh3', createdAt: at(8) }); // the name is free again
      expect((await store.listApiKeys()).map((k) => [k.id, k.revokedAt ?? null])).toEqual([['k3', null], ['k1', at(6)]]);
    });

    it('API keys: revoked by who made them, and then those made with them', async () => {
      const { store } = await backend.open();
      const key = (id: string, createdBy: string, createdByKey?: string) => ({
        id, secretHash: `kh-${id}`, name: `key ${id}`, role: 'admin' as const, prefix: `tsk_${id}`, createdAt: at(0), createdBy, ...(createdByKey ? { createdByKey } : {}),
      });
      await store.createApiKey(key('k1', 'ann@acme.test'));
      await store.createApiKey(key('k2', 'key:key k1', 'k1')); // made with k1
      await store.createApiKey(key('k3', 'admin-token'));
      await store.createApiKey(key('k4', 'ann@acme.test'));
      await store.revokeApiKey('k4', at(1), 'admin-token');
      expect((await store.listApiKeys()).find((k) => k.id === 'k2')).toMatchObject({ createdBy: 'key:key k1', createdByKey: 'k1' });
      expect((await store.revokeApiKeysMadeBy({ person: 'ann@acme.test' }, at(2), 'bo@acme.test')).map((k) => [k.id, k.revokedAt, k.revokedBy])).toEqual([['k1', at(2), 'bo@acme.test']]);
      expect((await store.revokeApiKeysMadeBy({ keys: ['k1'] }, at(2), 'bo@acme.test')).map((k) => k.id)).toEqual(['k2']);
      expect(await store.revokeApiKeysMadeBy({ keys: ['k2'] }, at(2), 'bo@acme.test')).toEqual([]);
      expect(await store.revokeApiKeysMadeBy({ keys: [] }, at(2), 'bo@acme.test')).toEqual([]);
      expect((await store.listApiKeys()).filter((k) => !k.revokedAt).map((k) => k.id)).toEqual(['k3']);
      expect((await store.listApiKeys()).find((k) => k.id === 'k4')!.revokedAt).toBe(at(1)); // revoked before: kept as it was
    });

    it('members: set (lowercased), changed, removed', async () => {
      const { store } = await backend.open();
      expect(await store.setMember({ email: 'Bo@Acme.test', role: 'viewer', updatedAt: at(0), updatedBy: 'admin-token' })).toBeUndefined();
      expect(await store.setMember({ email: 'bo@acme.test', role: 'admin', updatedAt: at(1), updatedBy: 'ann@acme.test' })).toMatchObject({ role: 'viewer' });
      await store.setMember({ email: 'cy@acme.test', role: 'none', updatedAt: at(2), updatedBy: 'ann@acme.test' });
      expect(await store.getMember('BO@acme.test')).toEqual({ email: 'bo@acme.test', role: 'admin', updatedAt: at(1), updatedBy: 'ann@acme.test' });
      expect((await store.listMembers()).map((m) => [m.email, m.role])).toEqual([['bo@acme.test', 'admin'], ['cy@acme.test', 'none']]);
      expect(await store.removeMember('cy@acme.test')).toMatchObject({ role: 'none' });
      expect(await store.removeMember('cy@acme.test')).toBeUndefined();
    });
  });

  describe('the audit trail', () => {
    it('appends, lists newest first with filters, refuses any change of an entry, and keeps its own retention', async () => {
      const { store } = await backend.open();
      const event = (at: string, action: string, actor = 'ann@acme.test') => ({ at, actor, role: 'admin' as const, via: 'oidc', action, outcome: 'ok' as const, source: 'ip:203.0.113.7' });
      await store.appendAudit(event('2020-01-01T00:00:00.000Z', 'sign-in'));
      await store.appendAudit({ ...event('2026-01-01T00:00:00.000Z', 'turn.view'), target: 'turn-9' });
      await store.appendAudit({ ...event('2026-01-01T00:01:00.000Z', 'sign-in.failed', 'eve@evil.test'), role: undefined, outcome: 'refused', detail: { reason: 'domain' } });
      const all = await store.listAudit({}, 1, 10);
      expect(all.total).toBe(3);
      expect(all.entries.map((e) => e.action)).toEqual(['sign-in.failed', 'turn.view', 'sign-in']);
      expect(all.entries[0]).toMatchObject({ actor: 'eve@evil.test', outcome: 'refused', detail: { reason: 'domain' }, source: 'ip:203.0.113.7' });
      expect(all.entries[0]!.role).toBeUndefined();
      expect((await store.listAudit({ action: 'turn.view' }, 1, 10)).entries.map((e) => e.target)).toEqual(['turn-9']);
      expect((await store.listAudit({ actor: 'eve@evil.test' }, 1, 10)).total).toBe(1);

      // Append-only in the schema: an UPDATE is refused by the database itself.
      const update = "UPDATE audit_log SET actor = 'someone-else'";
      if (store instanceof SqliteStore) expect(() => store.db.exec(update)).toThrow(/append-only/);
      else await expect((store as PostgresStore).pool.query(update)).rejects.toThrow(/append-only/);

      expect(await store.deleteAuditBefore('2025-01-01T00:00:00.000Z', 10)).toBe(1);
      expect((await store.listAudit({}, 1, 10)).total).toBe(2);
    });

    it('refuses any DELETE but its retention, even of old entries; retention deletes only what is older than its cutoff', async () => {
      const { store } = await backend.open();
      const event = (at: string) => ({ at, actor: 'ann@acme.test', role: 'admin' as const, via: 'oidc', action: 'sign-in', outcome: 'ok' as const, source: 'ip:203.0.113.7' });
      for (const at of ['2020-01-01T00:00:00.000Z', '2020-06-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']) await store.appendAudit(event(at));
      const refused = ['DELETE FROM audit_log', "DELETE FROM audit_log WHERE at < '2021-01-01T00:00:00.000Z'"];
      if (store instanceof SqliteStore) {
        for (const sql of refused) expect(() => store.db.exec(sql), sql).toThrow(/append-only/);
      } else {
        const pool = (store as PostgresStore).pool;
        for (const sql of [...refused, 'TRUNCATE audit_log']) await expect(pool.query(sql), sql).rejects.toThrow(/append-only/);
      }
      expect((await store.listAudit({}, 1, 10)).total).toBe(3);
      expect(await store.deleteAuditBefore('2020-03-01T00:00:00.000Z', 10)).toBe(1);
      expect((await store.listAudit({}, 1, 10)).entries.map((e) => e.at)).toEqual(['2026-01-01T00:00:00.000Z', '2020-06-01T00:00:00.000Z']);
      // Retention's leave ends with its batch: the next DELETE is refused again.
      if (store instanceof SqliteStore) expect(() => store.db.exec(refused[1]!)).toThrow(/append-only/);
      else await expect((store as PostgresStore).pool.query(refused[1]!)).rejects.toThrow(/append-only/);
    });
  });

  describe("deleting a customer's data", () => {
    /** Two visitors, one sharing a conversation id with the other, one verified user, and an old turn with no visitor. */
    async function customers() {
      const { store } = await backend.open();
      const made = [
        turn('refund for jane@example.com please', { id: 'a1', visitorId: 'visitor-a', conversationId: 'conv-a' }),
        turn('and the annual plan?', { id: 'a2', visitorId: 'visitor-a', conversationId: 'conv-a' }),
        turn('live streaming', { id: 'a3', visitorId: 'visitor-a', conversationId: 'conv-a2' }),
        turn('refund', { id: 'b1', visitorId: 'visitor-b', conversationId: 'conv-a' }), // same conversation id, another visitor
        turn('webhooks', { id: 'b2', visitorId: 'visitor-b', conversationId: 'conv-b' }),
        turn('my account', { id: 'u1', visitorId: 'visitor-u', userId: 'user-42', conversationId: 'conv-u' }),
        turn('old question from JANE@example.com', { id: 'o1', conversationId: 'conv-old' }),
      ];
      for (const t of made) {
        await store.startTurn(t);
        await store.finishTurn(t.id, { status: 'ok', reply: `reply to ${t.id}`, totalMs: 1 });
      }
      await store.setFeedback('a1', { vote: 'down', at: '2026-01-01T00:00:00.000Z' });
      await store.setFeedback('b1', { vote: 'up', at: '2026-01-01T00:00:00.000Z' });
      return store;
    }
    const remaining = async (store: Store) => (await store.listTurns({}, 1, 100)).turns.map((t) => t.id).sort();
    const counted = (deleted: SubjectDeletion) => ({ ...deleted.counts, conversations: deleted.conversations.length });

    it('by visitor id: every conversation of theirs, their votes, nothing any inspector read returns; other visitors untouched', async () => {
      const store = await customers();
      const subject = { kind: 'visitor', value: 'visitor-a' } as const;
      const links = await store.findCustomerTurns(subject);
      expect({ visitors: links.visitors, conversations: [...links.conversations].sort() }).toEqual({ visitors: ['visitor-a'], conversations: ['conv-a', 'conv-a2'] });
      expect(counted(await store.deleteCustomerTurns(subject, links))).toEqual({ turns: 3, conversations: 2, feedback: 1 });
      expect(await remaining(store)).toEqual(['b1', 'b2', 'o1', 'u1']);
      for (const id of ['a1', 'a2', 'a3']) expect(await store.getTurn(id)).toBeUndefined();
      expect(await store.listVisitorConversation('conv-a', 'visitor-a')).toEqual([]);
      expect((await store.listVisitorConversation('conv-a', 'visitor-b')).map((t) => t.id)).toEqual(['b1']);
      expect((await store.listTurns({ text: 'jane' }, 1, 10)).turns.map((t) => t.id)).toEqual(['o1']);
      expect((await store.listTurns({ feedback: 'any' }, 1, 10)).turns.map((t) => t.id)).toEqual(['b1']);
      const reads = JSON.stringify([
        await store.recentTurnScores(100), await store.thinMatchTurns(), await store.conversationTurns(100), await store.recentQuestions(100),
        await store.listTurnsByConversation('conv-a'), await store.listTurnsByConversation('conv-a2'),
      ]);
      // The ids as JSON strings: a KB version's hash in the rows may hold "a1" as letters.
      for (const gone of ['"a1"', '"a2"', '"a3"', 'visitor-a', 'annual plan', 'jane@example.com', 'live streaming']) expect(reads).not.toContain(gone);
      expect(await store.feedbackByDay({ since: '2000-01-01T00:00:00.000Z' })).toEqual([{ day: expect.any(String), turns: 4, up: 1, down: 0 }]);
      expect(counted(await store.deleteCustomerTurns(subject, await store.findCustomerTurns(subject)))).toEqual({ turns: 0, conversations: 0, feedback: 0 });
    });

    it('by email: the visitors who wrote it (all their turns) and, for turns without a visitor, that conversation', async () => {
      const store = await customers();
      const subject = { kind: 'email', value: 'Jane@Example.com' } as const;
      const links = await store.findCustomerTurns(subject);
      expect(links.visitors).toEqual(['visitor-a']);
      expect(counted(await store.deleteCustomerTurns(subject, links))).toEqual({ turns: 4, conversations: 3, feedback: 1 });
      expect(await remaining(store)).toEqual(['b1', 'b2', 'u1']);
    });

    it('by verified user id', async () => {
      const store = await customers();
      const subject = { kind: 'user', value: 'user-42' } as const;
      expect(counted(await store.deleteCustomerTurns(subject, await store.findCustomerTurns(subject)))).toEqual({ turns: 1, conversations: 1, feedback: 0 });
      expect(await remaining(store)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'o1']);
      expect(await store.findCustomerTurns({ kind: 'user', value: 'user-nobody' })).toEqual({ visitors: [], conversations: [] });
    });

    it("with every port's deleter: the email a customer gave in a hand-off finds their visitor, whose hand-offs, deliveries and turns all go", async () => {
      const store = await customers();
      // visitor-c only ever typed their address into the hand-off form, never into the chat.
      await store.startTurn(turn('I need a person', { id: 'c1', visitorId: 'visitor-c', conversationId: 'conv-c' }));
      const theirs = await store.createHandoff(handoff({ id: 'ho-c', conversationId: 'conv-c', visitorId: 'visitor-c', email: 'Chris@Example.com' }));
      const claimed = await store.claimDeliveries(at(), at(60_000), 10);
      for (const c of claimed.filter((d) => d.handoffId === 'ho-c')) await store.finishAttempt(attempt(c, { status: 'failed', error: 'receiver down' }));
      const kept = await store.createHandoff(handoff({ id: 'ho-b', conversationId: 'conv-b', visitorId: 'visitor-b', email: 'bo@example.com' }));

      const erased = await eraseCustomerData(customerDataDeleters(store), { kind: 'email', value: 'chris@example.com' });
      expect(erased.counts).toEqual({ turns: 1, conversations: 1, feedback: 0, 'hand-offs': 1 });
      expect(await store.getHandoff(theirs.handoff.id)).toBeUndefined();
      expect(await store.conversationHandoff('conv-c', 'visitor-c')).toBeUndefined();
      expect(await store.getTurn('c1')).toBeUndefined();
      expect(JSON.stringify(await store.listHandoffs({}, 1, 50))).not.toContain('ho-c');
      expect((await store.getHandoff(kept.handoff.id))?.email).toBe('bo@example.com');
    });
  });

  describe("deleting a customer's data, exactly and everywhere", () => {
    const who = { actor: 'cli:test', via: 'cli', source: 'cli' };
    const key = new Uint8Array(32);
    const erase = (store: Store, subject: { kind: 'visitor' | 'user' | 'email'; value: string }) => deleteCustomerData(store, key, who, subject);
    /** A finished turn. */
    async function asked(store: Store, question: string, overrides: Partial<Omit<TestTurnStart, 'record'>>) {
      const t = turn(question, overrides);
      await store.startTurn(t);
      await store.finishTurn(t.id, { status: 'ok', reply: `reply to ${t.id}`, totalMs: 1 });
      return t.id;
    }
    const remaining = async (store: Store) => (await store.listTurns({}, 1, 100)).turns.map((t) => t.id).sort();

    it('by email: an address is compared whole — not inside a longer one, nor another address of its domain; case and IDN forms are the same address', async () => {
      const { store } = await backend.open();
      await asked(store, 'refund for an@example.com please', { id: 'x-an', visitorId: 'visitor-an' });
      await asked(store, 'refund for jan@example.com please', { id: 'x-jan', visitorId: 'visitor-jan' });
      await asked(store, 'I wrote to support@lumacast.com twice', { id: 'x-support', visitorId: 'visitor-support' });
      await asked(store, 'reach me at RT@LumaCast.COM', { id: 'x-rt', visitorId: 'visitor-rt' });
      await asked(store, 'my address: Ün@Exämple.com', { id: 'x-idn', visitorId: 'visitor-idn' });
      await asked(store, 'it is ün@xn--exmple-cua.com really', { id: 'x-puny', visitorId: 'visitor-puny' });
      await store.createHandoff(handoff({ id: 'ho-jan', conversationId: 'conv-ho-jan', visitorId: 'visitor-jan2', email: 'JAN@example.com' }));
      await store.createHandoff(handoff({ id: 'ho-an', conversationId: 'conv-ho-an', visitorId: 'visitor-an2', email: 'AN@EXAMPLE.COM' }));

      expect(await erase(store, { kind: 'email', value: 'an@example.com' })).toEqual({ counts: { turns: 1, conversations: 2, feedback: 0, 'hand-offs': 1 }, visitors: 2 });
      expect(await remaining(store)).toEqual(['x-idn', 'x-jan', 'x-puny', 'x-rt', 'x-support']);
      expect(await store.getHandoff('ho-jan')).toBeDefined();
      expect(await store.getHandoff('ho-an')).toBeUndefined();

      expect((await erase(store, { kind: 'email', value: 'rt@lumacast.com' })).counts.turns).toBe(1);
      expect(await remaining(store)).toEqual(['x-idn', 'x-jan', 'x-puny', 'x-support']);

      expect((await erase(store, { kind: 'email', value: 'ÜN@exämple.COM' })).counts.turns).toBe(2);
      expect(await remaining(store)).toEqual(['x-jan', 'x-support']);
    });

    it('by email: also in vote reasons, page titles and URLs, and hand-off notes and pages', async () => {
      const { store } = await backend.open();
      await asked(store, 'refund', { id: 'v1', visitorId: 'visitor-vote' });
      await store.setFeedback('v1', { vote: 'down', reason: 'wrong, mail me: kim@example.com', at: at() });
      await asked(store, 'refund', { id: 'p1', visitorId: 'visitor-title', page: { url: 'https://shop.test/account', title: 'Account of kim@example.com' } });
      await asked(store, 'refund', { id: 'u1', visitorId: 'visitor-url', page: { url: 'https://shop.test/account?email=kim%40example.com' } });
      await store.createHandoff(handoff({ id: 'ho-note', conversationId: 'conv-n', visitorId: 'visitor-note', email: 'other@example.com', note: 'or write to kim@example.com' }));
      await store.createHandoff(handoff({ id: 'ho-page', conversationId: 'conv-p', visitorId: 'visitor-page', email: 'other@example.com', note: undefined, page: { url: 'https://shop.test/', title: 'kim@example.com — orders' } }));
      await asked(store, 'refund', { id: 'k1', visitorId: 'visitor-kept', page: { url: 'https://shop.test/', title: 'joakim@example.com' } });
      await store.setFeedback('k1', { vote: 'down', reason: 'ask tim@example.com', at: at() });

      const erased = await erase(store, { kind: 'email', value: 'kim@example.com' });
      expect(erased).toEqual({ counts: { turns: 3, conversations: 3, feedback: 1, 'hand-offs': 2 }, visitors: 5 });
      expect(await remaining(store)).toEqual(['k1']);
      expect((await store.listHandoffs({}, 1, 10)).total).toBe(0);
    });

    it('by verified user id: a hand-off they made before any question goes too, and the counts say what went', async () => {
      const { store } = await backend.open();
      await store.createHandoff(handoff({ id: 'ho-first', conversationId: 'conv-first', visitorId: 'user:user-77' }));
      await store.createHandoff(handoff({ id: 'ho-other', conversationId: 'conv-other', visitorId: 'user:user-7' }));
      expect(await erase(store, { kind: 'user', value: 'user-77' })).toEqual({ counts: { turns: 0, conversations: 1, feedback: 0, 'hand-offs': 1 }, visitors: 1 });
      expect(await store.getHandoff('ho-first')).toBeUndefined();
      expect(await store.getHandoff('ho-other')).toBeDefined();
      // Nothing left of them: nothing found, nothing counted.
      expect(await erase(store, { kind: 'user', value: 'user-77' })).toEqual({ counts: { turns: 0, conversations: 0, feedback: 0, 'hand-offs': 0 }, visitors: 0 });
      expect(await erase(store, { kind: 'visitor', value: 'visitor-nobody' })).toEqual({ counts: { turns: 0, conversations: 0, feedback: 0, 'hand-offs': 0 }, visitors: 0 });
    });

    /** What customer Zed wrote (a verified user, zed-1), and what another customer wrote. */
    const ZED = ['zanzibar quokka', 'zed@example.com', 'zedsnote weekdays', 'zedvote unhelpful', 'Zedtitle Account', 'zedpath-account'];
    const KEPT = ['kiwi lemur', 'kim@example.com', 'kimsnote', 'kimvote', 'Kimtitle'];

    async function zedAndKim(store: Store) {
      const zed = { visitorId: 'user:zed-1', userId: 'zed-1', conversationId: 'conv-zed' };
      await asked(store, 'zanzibar quokka refund for zed@example.com', { id: 'z1', ...zed, page: { url: 'https://shop.test/zedpath-account', title: 'Zedtitle Account' } });
      await asked(store, 'and the annual plan?', { id: 'z2', ...zed });
      await store.setFeedback('z1', { vote: 'down', reason: 'zedvote unhelpful', at: at() });
      await store.createHandoff(handoff({ id: 'ho-z', conversationId: 'conv-zed', visitorId: 'user:zed-1', email: 'zed@example.com', note: 'zedsnote weekdays', page: { url: 'https://shop.test/zedpath-account', title: 'Zedtitle Account' } }));
      // A hand-off in a conversation they asked nothing in.
      await store.createHandoff(handoff({ id: 'ho-z0', conversationId: 'conv-zed-0', visitorId: 'user:zed-1', email: 'zed@example.com', note: 'zedsnote weekdays' }));
      const claimed = await store.claimDeliveries(at(), at(60_000), 10);
      for (const c of claimed) await store.finishAttempt(attempt(c, { status: 'failed', error: 'receiver down' }));

      await asked(store, 'kiwi lemur refund for kim@example.com', { id: 'k1', visitorId: 'visitor-kim', conversationId: 'conv-kim', page: { url: 'https://shop.test/kim', title: 'Kimtitle' } });
      await store.setFeedback('k1', { vote: 'up', reason: 'kimvote', at: at() });
      await store.createHandoff(handoff({ id: 'ho-k', conversationId: 'conv-kim', visitorId: 'visitor-kim', email: 'kim@example.com', note: 'kimsnote' }));
    }

    /** Everything the store's reads return (the inspector, the conversation, hand-off and export reads), as one text. */
    async function everyRead(store: Store): Promise<string> {
      const reads = await Promise.all([
        store.listTurns({}, 1, 100), store.listTurns({ text: 'zanzibar' }, 1, 100), store.listTurns({ feedback: 'any' }, 1, 100),
        store.getTurn('z1'), store.getTurn('z2'), store.getTurn('k1'), store.listTurnsByConversation('conv-zed'), store.listVisitorConversation('conv-zed', 'user:zed-1'),
        store.latestVisitorConversation('user:zed-1'), store.recentTurnScores(100), store.thinMatchTurns(), store.conversationTurns(100), store.recentQuestions(100),
        store.turnLanguages(100), store.downVotedSections(100),
        store.listHandoffs({}, 1, 100), store.getHandoff('ho-z'), store.getHandoff('ho-z0'), store.conversationHandoff('conv-zed', 'user:zed-1'),
        store.conversationHandoff('conv-zed-0', 'user:zed-1'), store.handoffsByReason({ since: '2000-01-01T00:00:00.000Z' }),
        ...(['visitor', 'user', 'email'] as const).map((kind) => exportCustomerData(store, key, who, { kind, value: { visitor: 'user:zed-1', user: 'zed-1', email: 'zed@example.com' }[kind] })),
      ]);
      return JSON.stringify(reads);
    }

    it.each([
      { kind: 'visitor', value: 'user:zed-1' },
      { kind: 'user', value: 'zed-1' },
      { kind: 'email', value: 'Zed@Example.com' },
    ] as const)('by $kind: no read of the store returns anything of theirs, nor does what the database keeps on disk', async (subject) => {
      const { store } = await backend.open();
      await zedAndKim(store);
      const before = await everyRead(store);
      for (const text of [...ZED, ...KEPT]) expect(before.includes(text), `${text} is read before`).toBe(true);

      const erased = await erase(store, subject);
      expect(erased).toEqual({ counts: { turns: 2, conversations: 2, feedback: 1, 'hand-offs': 2 }, visitors: 1 });

      const after = await everyRead(store);
      for (const text of ZED) expect(after.includes(text), `${text} is still read`).toBe(false);
      for (const text of KEPT) expect(after.includes(text), `${text} is read after`).toBe(true);
      const bytes = (await backend.storedBytes(store)).toString('latin1');
      for (const text of [...ZED, 'zanzibar', 'quokka']) expect(bytes.includes(Buffer.from(text).toString('latin1')), `${text} is still on disk`).toBe(false);
      for (const text of KEPT) expect(bytes.includes(Buffer.from(text).toString('latin1')), `${text} should be on disk`).toBe(true);
    });
  });

  describe('redactions', () => {
    it("keeps a turn's redaction counts (messages at start, reply at the end) and the list shows their sum", async () => {
      const { store } = await backend.open();
      const start = turn('card [card] and [email]', { redactions: { card: 1, email: 1 }, userId: 'user-7' });
      await store.startTurn(start);
      await store.finishTurn(start.id, { status: 'ok', reply: 'write to [email]', totalMs: 1, replyRedactions: { email: 1 } });
      const plainTurn = turn('refund');
      await store.startTurn(plainTurn);
      expect(await store.getTurn(start.id)).toMatchObject({ redactions: { card: 1, email: 1 }, replyRedactions: { email: 1 }, userId: 'user-7' });
      const listed = (await store.listTurns({}, 1, 10)).turns;
      expect(listed.find((t) => t.id === start.id)!.redacted).toEqual({ email: 2, card: 1 });
      expect(listed.find((t) => t.id === plainTurn.id)!.redacted).toBeNull();
    });
  });
});
