import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSystemPrompt } from '../ai/prompt';
import { createRetrievalIndex, sectionsFromSources, selectContext, type RetrievalIndex } from '../retrieval/index';
import { freshDatabase } from '../testing/pg-database';
import { testIndex } from '../testing/kb';
import { kbVersionOf } from './compact';
import type { TurnFilter } from './inspector';
import { createPostgresPool, PostgresTraceStore } from './postgres';
import { deleteExpiredTurns } from './retention';
import { closeStaleTurns } from './stale';
import { SqliteTraceStore } from './sqlite';
import type { ServerStore } from './store';
import type { TurnStart, TurnStatus } from './types';
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
}

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
      return { store: track(new SqliteTraceStore(file)), reopen: () => track(new SqliteTraceStore(file)) };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const url = await freshDatabase();
      const open = () => track(new PostgresTraceStore(createPostgresPool(url, { max: 4 })));
      return { store: open(), reopen: open };
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
function turn(question: string, overrides: Partial<TurnStart> = {}, on: RetrievalIndex = index): TurnStart {
  n++;
  const explanation = selectContext(on, [question]);
  return {
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
  };
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

    it('keeps a turn it cannot store compactly whole (a prompt of its own, an explanation of another KB)', async () => {
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

  describe('admin sessions', () => {
    it('keeps one session generation for every store on the database', async () => {
      const { store, reopen } = await backend.open();
      expect(await store.sessionGeneration()).toBe(0);
      expect(await store.endAllSessions()).toBe(1);
      expect(await reopen().endAllSessions()).toBe(2);
      expect(await store.sessionGeneration()).toBe(2);
    });
  });
});
