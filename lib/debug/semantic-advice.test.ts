import { describe, expect, it } from 'vitest';
import { semanticAdvice } from './semantic-advice';

const turn = (id: string, floorUsed: boolean, topScore: number) => ({ id, question: `question ${id}`, createdAt: '2026-12-01T10:00:00.000Z', floorUsed, topScore });

describe('when to consider the semantic stage', () => {
  it('counts the recent turns that hit the floor or scored low, with the newest of them as examples', () => {
    const advice = semanticAdvice([turn('a', true, 0), turn('b', false, 7.5), turn('c', false, 1.2), turn('d', false, 9), turn('e', true, 0.5)], 2);
    expect(advice).toMatchObject({ turns: 5, floor: 2, low: 1, share: 0.6, consider: true });
    expect(advice.examples.map((e) => [e.id, e.why])).toEqual([['a', 'floor'], ['c', 'low']]);
  });

  it('lists a question asked in several thin turns once, its newest turn, with how many', () => {
    const same = (id: string) => ({ ...turn(id, true, 0), question: 'hi' });
    const advice = semanticAdvice([same('new'), turn('x', false, 8), same('old')]);
    expect(advice.examples).toEqual([expect.objectContaining({ id: 'new', question: 'hi', count: 2 })]);
    expect(advice).toMatchObject({ turns: 3, floor: 2 });
  });

  it('does not suggest it when BM25 finds enough, or when there are no turns', () => {
    expect(semanticAdvice([turn('a', false, 5), turn('b', false, 6), turn('c', false, 3), turn('d', false, 4), turn('e', false, 1)])).toMatchObject({ share: 0.2, consider: true });
    expect(semanticAdvice([turn('a', false, 5), turn('b', false, 6), turn('c', false, 3), turn('d', false, 4), turn('e', false, 4), turn('f', false, 1)])).toMatchObject({ consider: false });
    expect(semanticAdvice([])).toEqual({ turns: 0, floor: 0, low: 0, share: 0, consider: false, examples: [] });
  });
});
