import { afterEach, describe, expect, it } from 'vitest';
import { kbVersionOf, selectContext } from '../retrieval/index';
import { testIndex } from '../testing/kb';
import { withRecord, type TestTurnStart } from '../testing/turns';
import { freshDatabase } from '../testing/pg-database';
import type { InspectorStore } from './ports/inspector';
import { createPostgresPool, PostgresStore } from './postgres';
import { SqliteStore } from './sqlite';
import type { ServerStore } from './server-store';

/**
 * The support lead's loop as behaviour of the store interfaces (TurnStore + InspectorStore):
 * sources and number checks kept with the turn, feedback, and the inspector's queries over
 * them. Written against the interfaces only, so every store implementation runs it: add a
 * factory to STORES.
 */

type Store = ServerStore;
const STORES: Record<string, () => Promise<Store>> = {
  SQLite: async () => new SqliteStore(':memory:'),
  PostgreSQL: async () => new PostgresStore(createPostgresPool(await freshDatabase(), { max: 2 })),
};

const index = testIndex();
const kb = kbVersionOf(index, 'instructions');
const open: Store[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});

let n = 0;
function turn(question: string, overrides: Partial<Omit<TestTurnStart, 'record'>> = {}): TestTurnStart {
  n++;
  const explanation = selectContext(index, [question]);
  return withRecord({
    id: `turn-${n}`,
    conversationId: 'conv-aaaaaaaa',
    visitorId: 'visitor-a',
    createdAt: new Date(Date.UTC(2026, 10, 1 + (n % 3), 12, 0, n)).toISOString(),
    trigger: 'submit-message',
    customerMessages: [question],
    question,
    explanation,
    systemPrompt: `instructions\n${explanation.context}`,
    kb,
    provider: 'offline',
    modelId: 'm',
    selectionUs: 10,
    ...overrides,
  });
}

for (const [name, create] of Object.entries(STORES)) {
  describe(`${name}: sources, number checks and feedback`, () => {
    async function store(): Promise<Store> {
      const s = await create();
      open.push(s);
      return s;
    }

    it('keeps a turn’s sources and number check, and gives them back on every read', async () => {
      const s = await store();
      const sources = [
        { page: 'billing/refund-policy.md', title: 'Refund policy', url: '/help/billing/refund-policy' },
        { page: 'faq.md', title: 'FAQ' },
      ];
      const t = turn('can I get a refund?', { sources });
      await s.startTurn(t);
      expect((await s.getTurn(t.id))!.sources).toEqual(sources);
      expect((await s.getTurn(t.id))!.numbers).toBeUndefined();
      const numbers = { checked: 2, unverified: [{ text: '$89', kind: 'price' as const, value: 89, unit: 'USD' }] };
      await s.finishTurn(t.id, { status: 'ok', reply: 'Pro costs $89 and refunds take 14 days.', totalMs: 3, numbers });
      expect((await s.getTurn(t.id))!.numbers).toEqual(numbers);
      const [listed] = await s.listVisitorConversation(t.conversationId, 'visitor-a');
      expect(listed!.sources).toEqual(sources);
    });

    it('keeps one vote per turn, changeable, and refuses unknown turns', async () => {
      const s = await store();
      const t = turn('can I get a refund?');
      await s.startTurn(t);
      await s.finishTurn(t.id, { status: 'ok', reply: 'r', totalMs: 1 });
      expect(await s.setFeedback(t.id, { vote: 'up', at: '2026-11-01T12:00:00.000Z' })).toBe(true);
      expect((await s.getTurn(t.id))!.feedback).toEqual({ vote: 'up', at: '2026-11-01T12:00:00.000Z' });
      expect(await s.setFeedback(t.id, { vote: 'down', reason: 'wrong price', at: '2026-11-01T12:01:00.000Z' })).toBe(true);
      expect((await s.getTurn(t.id))!.feedback).toEqual({ vote: 'down', reason: 'wrong price', at: '2026-11-01T12:01:00.000Z' });
      expect(await s.setFeedback('no-such-turn', { vote: 'up', at: '2026-11-01T12:00:00.000Z' })).toBe(false);
    });

    it('filters the turns list by feedback and by unverified numbers', async () => {
      const s = await store();
      const [a, b, c] = [turn('refund please'), turn('live stream latency'), turn('account settings')];
      for (const t of [a!, b!, c!]) await s.startTurn(t);
      await s.finishTurn(a!.id, { status: 'ok', reply: 'r', totalMs: 1, numbers: { checked: 1, unverified: [] } });
      await s.finishTurn(b!.id, {
        status: 'ok', reply: 'r', totalMs: 1, numbers: { checked: 1, unverified: [{ text: '5%', kind: 'percent', value: 5, unit: '%' }] },
      });
      await s.setFeedback(a!.id, { vote: 'down', at: '2026-11-01T00:00:00.000Z' });
      await s.setFeedback(b!.id, { vote: 'up', at: '2026-11-01T00:00:00.000Z' });
      const ids = async (filter: Parameters<InspectorStore['listTurns']>[0]) => (await s.listTurns(filter, 1, 10)).turns.map((t) => t.id);
      expect(await ids({ feedback: 'down' })).toEqual([a!.id]);
      expect(await ids({ feedback: 'up' })).toEqual([b!.id]);
      expect(await ids({ feedback: 'any' })).toEqual([b!.id, a!.id]);
      expect(await ids({ unverifiedNumbers: true })).toEqual([b!.id]);
      expect(await ids({ unverifiedNumbers: false })).toEqual([a!.id]);
      const summaries = (await s.listTurns({}, 1, 10)).turns;
      expect(summaries.map((t) => [t.feedback, t.unverifiedNumbers])).toEqual([[null, null], ['up', 1], ['down', 0]]);
    });

    it('counts votes per day and the sections sent in down-voted turns', async () => {
      const s = await store();
      const refund1 = turn('can I get a refund?', { createdAt: '2026-11-01T09:00:00.000Z' });
      const refund2 = turn('refund timelines', { createdAt: '2026-11-02T09:00:00.000Z' });
      const live = turn('live stream latency', { createdAt: '2026-11-02T10:00:00.000Z' });
      const old = turn('account settings', { createdAt: '2026-10-01T10:00:00.000Z' });
      for (const t of [refund1, refund2, live, old]) await s.startTurn(t);
      await s.setFeedback(refund1.id, { vote: 'down', at: '2026-11-01T09:01:00.000Z' });
      await s.setFeedback(refund2.id, { vote: 'down', at: '2026-11-02T09:01:00.000Z' });
      await s.setFeedback(live.id, { vote: 'up', at: '2026-11-02T10:01:00.000Z' });
      expect(await s.feedbackByDay({ since: '2026-10-15T00:00:00.000Z' })).toEqual([
        { day: '2026-11-01', turns: 1, up: 0, down: 1 },
        { day: '2026-11-02', turns: 2, up: 1, down: 1 },
      ]);
      const sections = await s.downVotedSections(10);
      expect(sections[0]).toEqual({ sectionId: 'billing/refund-policy.md#refund-policy', turns: 2 });
      expect(sections.map((x) => x.sectionId)).not.toContain('rules.md#refunds'); // pinned: in every turn, says nothing
      expect(sections.map((x) => x.sectionId)).not.toContain('product/live.md#live-streaming'); // only the floor of the down-voted turns
      expect(sections.map((x) => x.sectionId)).not.toContain('product/live.md#stream-latency'); // only in an up-voted turn
    });

    it('lists questions by conversation (for rephrasings) and the newest questions (for kb:impact)', async () => {
      const s = await store();
      const first = turn('refnd???', { conversationId: 'conv-1', customerMessages: ['refnd???'] });
      const second = turn('can I get a refund', { conversationId: 'conv-1', customerMessages: ['refnd???', 'can I get a refund'] });
      const other = turn('live stream', { conversationId: 'conv-0' });
      const again = turn('can I get a refund', { conversationId: 'conv-1', trigger: 'regenerate-message' });
      for (const t of [first, second, other, again]) await s.startTurn(t);
      const turns = await s.conversationTurns(100);
      expect(turns.map((t) => [t.conversationId, t.question])).toEqual([
        ['conv-0', 'live stream'],
        ['conv-1', 'refnd???'],
        ['conv-1', 'can I get a refund'],
      ]);
      expect(turns[1]).toMatchObject({ floorUsed: first.explanation.floorUsed, topScore: first.explanation.topScore });
      expect(await s.conversationTurns(2)).toHaveLength(1); // the newest two turns: `other` (and a regenerate)
      const recent = await s.recentQuestions(3);
      expect(recent.map((r) => r.messages)).toEqual([['can I get a refund'], ['live stream'], ['refnd???', 'can I get a refund']]);
    });
  });
}
