import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kbVersionOf, selectContext } from '../retrieval/index';
import { testIndex } from '../testing/kb';
import { withRecord } from '../testing/turns';
import { SqliteStore } from '../store/sqlite';
import { deflectionSummary } from './deflection';

/**
 * The deflection rate on a fixed set of conversations: conversations without a hand-off over all
 * conversations with at least one turn, per day of their first turn. (The store's per-day counts
 * are checked on both stores in lib/store/store-contract.test.ts.)
 */

describe('the deflection rate', () => {
  it('per day and over the period, from the counts', () => {
    const summary = deflectionSummary([
      { day: '2026-04-01', conversations: 4, handedOff: 1 },
      { day: '2026-04-02', conversations: 0, handedOff: 0 },
      { day: '2026-04-03', conversations: 2, handedOff: 2 },
      { day: '2026-04-04', conversations: 4, handedOff: 0 },
    ]);
    expect(summary.days.map((d) => [d.day, d.deflected, d.rate])).toEqual([
      ['2026-04-01', 3, 0.75],
      ['2026-04-03', 0, 0],
      ['2026-04-04', 4, 1],
    ]);
    expect(summary).toMatchObject({ conversations: 10, handedOff: 3, deflected: 7, rate: 0.7 });
    expect(deflectionSummary([]).rate).toBeUndefined();
  });

  it('on a fixed set of conversations in a store: a conversation counts on the day it began, once, handed off or not', async () => {
    const store = new SqliteStore(path.join(mkdtempSync(path.join(tmpdir(), 'deflection-')), 'traces.db'));
    const index = testIndex();
    const kb = kbVersionOf(index, 'instructions');
    let n = 0;
    const turn = async (conversationId: string, createdAt: string) => {
      const explanation = selectContext(index, ['refund']);
      await store.startTurn(withRecord({
        id: `t${++n}`, conversationId, visitorId: 'v', createdAt, trigger: 'submit-message', customerMessages: ['refund'], question: 'refund',
        explanation, systemPrompt: 'p', kb, provider: 'offline', modelId: 'm', selectionUs: 1,
      }));
    };
    const handoff = (conversationId: string, createdAt: string) =>
      store.createHandoff({ id: `h-${conversationId}`, conversationId, visitorId: 'v', createdAt, reason: 'asked', email: 'k@example.com', payload: '{}', channels: ['webhook'], retryUntil: createdAt });
    // 1 May: a, b, c, d (b and d handed off; d's hand-off on 2 May). 2 May: e; a's second turn (still 1 May's).
    for (const [c, at] of [['a', '2026-05-01T08:00:00.000Z'], ['b', '2026-05-01T09:00:00.000Z'], ['c', '2026-05-01T10:00:00.000Z'], ['d', '2026-05-01T23:00:00.000Z'], ['e', '2026-05-02T08:00:00.000Z'], ['a', '2026-05-02T09:00:00.000Z']]) {
      await turn(c!, at!);
    }
    await handoff('b', '2026-05-01T09:05:00.000Z');
    await handoff('d', '2026-05-02T00:10:00.000Z');
    await handoff('never-asked', '2026-05-02T10:00:00.000Z'); // before any question: not a conversation of the rate
    const summary = deflectionSummary(await store.deflectionByDay({ since: '2026-05-01T00:00:00.000Z' }));
    expect(summary.days.map((d) => [d.day, d.conversations, d.handedOff, d.rate])).toEqual([
      ['2026-05-01', 4, 2, 0.5],
      ['2026-05-02', 1, 0, 1],
    ]);
    expect(summary.rate).toBe(0.6);
    await store.close();
  });
});
