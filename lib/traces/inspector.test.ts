import { describe, expect, it } from 'vitest';
import { createRetrievalIndex, sectionsFromSources, selectContext } from '../retrieval/index';
import { kbVersionOf } from './compact';
import { ftsQuery } from './inspector';
import { SqliteTraceStore } from './sqlite';
import type { TurnStatus } from './types';

const sections = sectionsFromSources([
  { file: 'rules.md', text: '---\npinned: true\n---\n# Rules\nNever promise a refund.' },
  { file: 'refunds.md', text: '# Refund policy\nRefunds within 14 days.\n## Annual plans\nAnnual refunds are pro-rated.' },
  { file: 'streaming.md', text: '# Live streaming\nStream live with RTMP.\n## Latency\nLow latency mode.' },
  { file: 'api.md', text: '# API\nREST endpoints for uploads.\n## Webhooks\nEvents for uploads.' },
]);
const index = createRetrievalIndex({ sections, synonyms: [] }, { budget: 60, floor: 20 });

async function storeWith(turns: { q: string; status?: TurnStatus; at: string; conversation?: string }[]) {
  const store = new SqliteTraceStore(':memory:');
  let n = 0;
  for (const t of turns) {
    const explanation = selectContext(index, [t.q]);
    const id = `turn-${++n}`;
    await store.startTurn({
      id,
      conversationId: t.conversation ?? 'c1',
      createdAt: t.at,
      trigger: 'submit-message',
      customerMessages: [t.q],
      question: t.q,
      explanation,
      systemPrompt: `system\n${explanation.context}`,
      kb: kbVersionOf(index, 'system'),
      provider: 'offline',
      modelId: 'offline-extractive',
      selectionUs: 12,
    });
    if (t.status !== 'pending') await store.finishTurn(id, { status: t.status ?? 'ok', reply: 'r', totalMs: 5 });
  }
  return { store, inspector: store };
}

describe('SqliteTraceStore as the InspectorStore', () => {
  it('lists turns newest first, paginated, with token splits', async () => {
    const { inspector } = await storeWith(
      Array.from({ length: 7 }, (_, i) => ({ q: `refund question ${i}`, at: `2026-11-29T10:0${i}:00.000Z` })),
    );
    const first = inspector.listTurns({}, 1, 3);
    expect(first).toMatchObject({ total: 7, page: 1, pageSize: 3, pages: 3 });
    expect(first.turns.map((t) => t.question)).toEqual(['refund question 6', 'refund question 5', 'refund question 4']);
    expect(first.turns[0]!.tokens.total).toBe(first.turns[0]!.tokens.pinned + first.turns[0]!.tokens.scored + first.turns[0]!.tokens.floor);
    expect(inspector.listTurns({}, 3, 3).turns.map((t) => t.question)).toEqual(['refund question 0']);
    expect(inspector.listTurns({}, 99, 3).page).toBe(3); // clamped
  });

  it('filters by text, status, floor used and section sent / dropped', async () => {
    const { inspector } = await storeWith([
      { q: 'can I get a refund?', at: '2026-11-29T10:00:00.000Z' },
      { q: 'hi there', at: '2026-11-29T10:01:00.000Z' },
      { q: 'live streaming latency', status: 'error', at: '2026-11-29T10:02:00.000Z' },
      { q: 'webhooks for uploads', status: 'aborted', at: '2026-11-29T10:03:00.000Z' },
    ]);
    const questions = (f: Parameters<typeof inspector.listTurns>[0]) => inspector.listTurns(f, 1, 50).turns.map((t) => t.question);
    expect(questions({ text: 'refunds' })).toEqual(['can I get a refund?']); // stemmed (porter)
    expect(questions({ text: 'refu' })).toEqual(['can I get a refund?']); // and prefix-matched
    expect(questions({ text: 'LIVE stream' })).toEqual(['live streaming latency']);
    expect(questions({ text: '"); DROP TABLE turns; --' })).toEqual([]);
    expect(questions({ status: 'error' })).toEqual(['live streaming latency']);
    expect(questions({ floorUsed: true })).toContain('hi there');
    expect(questions({ floorUsed: false })).not.toContain('hi there');
    expect(questions({ section: { id: 'refunds.md#refund-policy', state: 'sent' } })).toContain('can I get a refund?');
    expect(questions({ section: { id: 'api.md#webhooks', state: 'sent' } })).toEqual(['webhooks for uploads']);
    expect(questions({ section: { id: 'rules.md#rules', state: 'sent' } })).toHaveLength(4);
    expect(questions({ section: { id: 'refunds.md#refund-policy', state: 'dropped' } })).toEqual([]);
    expect(questions({ status: 'ok', floorUsed: true, text: 'hi' })).toEqual(['hi there']);
    expect(questions({ conversationId: 'c1' })).toHaveLength(4);
    expect(questions({ conversationId: 'other' })).toEqual([]);
  });

  it('records a matched section that did not fit as dropped', async () => {
    const tight = createRetrievalIndex({ sections, synonyms: [] }, { budget: index.pinnedTokens + 5, floor: 0 });
    const store = new SqliteTraceStore(':memory:');
    const explanation = selectContext(tight, ['refund']);
    await store.startTurn({
      id: 't', conversationId: 'c', createdAt: '2026-11-29T10:00:00.000Z', trigger: 'submit-message',
      customerMessages: ['refund'], question: 'refund', explanation, systemPrompt: 's', kb: kbVersionOf(tight, 's'), provider: 'offline', modelId: 'm', selectionUs: 1,
    });
    const inspector = store;
    expect(inspector.listTurns({ section: { id: 'refunds.md#refund-policy', state: 'dropped' } }, 1, 10).total).toBe(1);
    expect(inspector.sectionTraffic().find((s) => s.sectionId === 'refunds.md#refund-policy')).toMatchObject({ sent: 0, dropped: 1 });
  });

  it('counts section traffic, from which never-sent sections follow', async () => {
    const { inspector } = await storeWith([
      { q: 'refund', at: '2026-11-29T10:00:00.000Z' },
      { q: 'refund policy', at: '2026-11-29T10:01:00.000Z' },
    ]);
    const traffic = inspector.sectionTraffic();
    expect(traffic.find((s) => s.sectionId === 'rules.md#rules')).toMatchObject({ sent: 2, scored: 0 });
    expect(traffic.find((s) => s.sectionId === 'refunds.md#refund-policy')).toMatchObject({ sent: 2, scored: 2 });
    const everSent = new Set(traffic.filter((s) => s.sent > 0).map((s) => s.sectionId));
    const neverSent = sections.filter((s) => !everSent.has(s.id)).map((s) => s.id);
    expect(neverSent).toContain('streaming.md#live-streaming');
    expect(neverSent).not.toContain('refunds.md#refund-policy');
  });

  it('returns the thinly matched turns (floor used or a low best score), newest first, where vocabulary gaps are looked for', async () => {
    const { inspector } = await storeWith([
      { q: 'is it cheap?', at: '2026-11-29T10:00:00.000Z' },
      { q: 'cheap plan for my podcast', at: '2026-11-29T10:01:00.000Z' },
      { q: 'refunds please', at: '2026-11-29T10:02:00.000Z' },
    ]);
    expect(inspector.thinMatchTurns({ lowScore: 0.5 })).toEqual([
      { id: 'turn-2', question: 'cheap plan for my podcast' },
      { id: 'turn-1', question: 'is it cheap?' },
    ]);
    expect(inspector.thinMatchTurns({ lowScore: 0.5, maxTurns: 1 })).toHaveLength(1);
  });

  it('quotes customer text for FTS so it cannot inject operators', () => {
    expect(ftsQuery('refund OR "x" NEAR(y)')).toBe('"refund"* "OR"* "x"* "NEAR"* "y"*');
    expect(ftsQuery('?!')).toBeUndefined();
  });
});
