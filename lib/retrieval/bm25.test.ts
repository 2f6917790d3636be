import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bm25Idf, bm25TermScore, buildBm25Index, explainDocument, rankMatches, scoreInto, type WeightedTerm } from './bm25';

const params = { k1: 1.2, b: 0.75 };

function scoresFor(docs: string[][], query: WeightedTerm[], p = params): number[] {
  const index = buildBm25Index(docs.map((terms) => [[terms, 1]]));
  const scores = new Float64Array(docs.length);
  const touched = new Int32Array(docs.length);
  scoreInto(index, query, p, scores, touched);
  return [...scores];
}

describe('BM25 formula', () => {
  // Tiny corpus: N = 3, avgdl = (3 + 2 + 4) / 3 = 3; "refund" is in 2 documents.
  const docs = [
    ['refund', 'refund', 'policy'],
    ['billing', 'faq'],
    ['refund', 'cancel', 'terms', 'now'],
  ];

  it('matches values computed by hand', () => {
    // idf = ln(1 + (3 − 2 + 0.5) / (2 + 0.5)) = ln(1.6)
    expect(bm25Idf(3, 2)).toBeCloseTo(Math.log(1.6), 12);
    const scores = scoresFor(docs, [{ term: 'refund', weight: 1 }]);
    // d0: f = 2, |d| = 3: ln(1.6) · 2·2.2 / (2 + 1.2·(0.25 + 0.75·3/3)) = ln(1.6) · 4.4 / 3.2
    expect(scores[0]).toBeCloseTo(Math.log(1.6) * (4.4 / 3.2), 12);
    // d1 has no "refund"
    expect(scores[1]).toBe(0);
    // d2: f = 1, |d| = 4: ln(1.6) · 2.2 / (1 + 1.2·(0.25 + 0.75·4/3)) = ln(1.6) · 2.2 / 2.5
    expect(scores[2]).toBeCloseTo(Math.log(1.6) * (2.2 / 2.5), 12);
  });

  it('sums over query terms, weighted', () => {
    const scores = scoresFor(docs, [
      { term: 'refund', weight: 1 },
      { term: 'cancel', weight: 0.5 },
    ]);
    const cancelIdf = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5));
    expect(scores[2]).toBeCloseTo(Math.log(1.6) * (2.2 / 2.5) + 0.5 * cancelIdf * (2.2 / 2.5), 12);
  });

  it('keeps idf positive for a term in every document', () => {
    expect(bm25Idf(10, 10)).toBeGreaterThan(0);
  });

  it('saturates term frequency: 20 occurrences score far less than 4× 5 occurrences', () => {
    const filler = (k: number) => Array.from({ length: k }, (_, i) => `w${i}`);
    // Same length (40 terms) so only tf differs.
    const five = [...Array(5).fill('stream'), ...filler(35)];
    const twenty = [...Array(20).fill('stream'), ...filler(20)];
    const scores = scoresFor([five, twenty, filler(40)], [{ term: 'stream', weight: 1 }]);
    expect(scores[1]).toBeGreaterThan(scores[0]!);
    expect(scores[1]! / scores[0]!).toBeLessThan(1.5);
    // The limit: tf → ∞ gives idf · (k1 + 1).
    const idf = bm25Idf(3, 2);
    expect(scores[1]).toBeLessThan(idf * (params.k1 + 1));
  });

  it('normalises length: the same tf in a longer document scores lower, unless b = 0', () => {
    const short = ['refund', 'a1', 'a2'];
    const long = ['refund', ...Array.from({ length: 30 }, (_, i) => `b${i}`)];
    const scores = scoresFor([short, long, ['x']], [{ term: 'refund', weight: 1 }]);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    const flat = scoresFor([short, long, ['x']], [{ term: 'refund', weight: 1 }], { k1: 1.2, b: 0 });
    expect(flat[0]).toBeCloseTo(flat[1]!, 12);
  });

  it('only rarer terms score higher, everything else equal', () => {
    expect(bm25Idf(100, 1)).toBeGreaterThan(bm25Idf(100, 2));
    expect(bm25Idf(100, 2)).toBeGreaterThan(bm25Idf(100, 50));
  });
});

describe('BM25 invariants (property-based)', () => {
  const term = fc.constantFrom('a', 'b', 'c', 'd', 'e');
  const doc = fc.array(term, { minLength: 1, maxLength: 30 });
  const corpus = fc.array(doc, { minLength: 1, maxLength: 12 });
  const query = fc.uniqueArray(term, { minLength: 1, maxLength: 4 }).map((ts) =>
    ts.map((t, i) => ({ term: t, weight: i % 2 ? 0.5 : 1 })),
  );

  it('the explanation sums to the score, for every document', () => {
    fc.assert(
      fc.property(corpus, query, (docs, q) => {
        const index = buildBm25Index(docs.map((terms) => [[terms, 1]]));
        const scores = new Float64Array(docs.length);
        scoreInto(index, q, params, scores, new Int32Array(docs.length));
        docs.forEach((_, d) => {
          const parts = explainDocument(index, q, params, d);
          expect(parts.reduce((s, p) => s + p.score, 0)).toBe(scores[d]);
        });
      }),
    );
  });

  it('a higher term frequency never lowers a term score; a longer document never raises it', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 10, noNaN: true }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 500 }),
        fc.double({ min: 1, max: 500, noNaN: true }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (idf, tf, len, avg, k1, b) => {
          const p = { k1, b };
          const base = bm25TermScore(idf, tf, len, avg, p);
          const ulp = base * 1e-12; // k1 = 0 or b = 0 make them equal up to rounding
          expect(bm25TermScore(idf, tf + 1, len, avg, p)).toBeGreaterThanOrEqual(base - ulp);
          expect(bm25TermScore(idf, tf, len + 1, avg, p)).toBeLessThanOrEqual(base + ulp);
        },
      ),
    );
  });

  it('touches each matching document once and only those', () => {
    fc.assert(
      fc.property(corpus, query, (docs, q) => {
        const index = buildBm25Index(docs.map((terms) => [[terms, 1]]));
        const scores = new Float64Array(docs.length);
        const touched = new Int32Array(docs.length);
        const count = scoreInto(index, q, params, scores, touched);
        const expected = docs.flatMap((terms, d) => (q.some((x) => terms.includes(x.term)) ? [d] : []));
        expect([...touched.subarray(0, count)].sort((a, b) => a - b)).toEqual(expected);
      }),
    );
  });
});

describe('rankMatches', () => {
  it('gives the same order as a comparator sort (score desc, then document order)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ min: 1e-9, max: 50, noNaN: true }), fc.constantFrom(1, 2, 2.0000001, 1e-7)), { minLength: 1, maxLength: 300 }),
        (values) => {
          const scores = Float64Array.from(values);
          const touched = Int32Array.from(values.map((_, i) => i).reverse());
          const expected = [...touched].sort((a, b) => scores[b]! - scores[a]! || a - b);
          expect([...rankMatches(scores, touched, touched.length)]).toEqual(expected);
        },
      ),
    );
  });
});
