import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RRF_K, reciprocalRankFusion } from './fusion';

describe('reciprocal rank fusion', () => {
  it('adds 1 / (k + rank) over the lists a document is in', () => {
    // a: 1/61 + 1/63; b: 1/62; c: 1/63 + 1/61 (ties with a: a ranks higher in the first list); d: 1/62
    expect(reciprocalRankFusion([['a', 'b', 'c'].map(code), ['c', 'd', 'a'].map(code)])).toEqual(['a', 'c', 'b', 'd'].map(code));
  });

  it('puts a document near the top of both lists above one at the top of one only', () => {
    expect(reciprocalRankFusion([[1, 2, 3], [4, 2, 5]])[0]).toBe(2);
  });

  it('with one list gives that list back; with k very large, only membership counts', () => {
    expect(reciprocalRankFusion([[5, 3, 9]])).toEqual([5, 3, 9]);
    expect(reciprocalRankFusion([[1, 2], [3, 2]], 1e12)[0]).toBe(2);
  });

  it('documents k = 60', () => {
    expect(RRF_K).toBe(60);
  });

  it('lists every document once, and never ranks a document below one that it beats in every list', () => {
    const list = fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 12 });
    fc.assert(
      fc.property(list, list, (a, b) => {
        const fused = reciprocalRankFusion([a, b]);
        expect(new Set(fused)).toEqual(new Set([...a, ...b]));
        expect(fused).toHaveLength(new Set([...a, ...b]).size);
        const rank = (l: number[], d: number) => (l.includes(d) ? l.indexOf(d) : Infinity);
        for (const x of fused) {
          for (const y of fused) {
            if (rank(a, x) < rank(a, y) && rank(b, x) < rank(b, y)) expect(fused.indexOf(x)).toBeLessThan(fused.indexOf(y));
          }
        }
      }),
    );
  });
});

function code(letter: string): number {
  return letter.charCodeAt(0);
}
