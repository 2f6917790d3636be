import { describe, expect, it } from 'vitest';
import { parseTurnFilter, turnFilterQuery } from './filters';

describe('turn filter params', () => {
  it('round-trips every filter through the URL', () => {
    const params = { q: 'refund', status: 'error', floor: 'yes', conversation: 'c-1', section: 'billing/x.md#y', state: 'dropped', feedback: 'down', numbers: 'unverified', page: '3' };
    const { filter, page } = parseTurnFilter(params);
    expect(filter).toEqual({
      text: 'refund', status: 'error', floorUsed: true, conversationId: 'c-1', section: { id: 'billing/x.md#y', state: 'dropped' }, feedback: 'down', unverifiedNumbers: true,
    });
    expect(page).toBe(3);
    expect(Object.fromEntries(new URLSearchParams(turnFilterQuery(filter, page)))).toEqual(params);
  });

  it('ignores malformed values instead of failing', () => {
    expect(parseTurnFilter({ status: 'nonsense', floor: 'maybe', page: '-2', q: '   ', feedback: 'meh', numbers: 'some' })).toEqual({ filter: {}, page: 1 });
    expect(parseTurnFilter({ section: 'a.md#b', state: 'weird' }).filter.section).toEqual({ id: 'a.md#b', state: 'sent' });
  });
});
