import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Bm25Index, type Bm25Params, type FieldSpec, type WeightedFields, bm25Idf, bm25Saturation, bm25TermScore, Bm25Builder, buildBm25Index, rankMatches, scoreInto, explainTermIds, subsetStatistics } from './bm25';
import { runSteps } from '../steps';
import type { WeightedTerm } from '../types';

const explainDocument = (index: Bm25Index, query: readonly WeightedTerm[], params: Bm25Params, doc: number) =>
  explainTermIds(index, query.map((t) => index.termIds.get(t.term) ?? -1), query, params, doc);

const params = { k1: 1.2, b: 0.75 };

function scoresFor(docs: string[][], query: WeightedTerm[], p = params): number[] {
  return scoresOf(docs.map((terms) => [[terms, 1]]), query, p);
}

function scoresOf(docs: WeightedFields[], query: WeightedTerm[], p = params, fields?: FieldSpec[]): number[] {
  const index = buildBm25Index(docs, fields);
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

describe('synonym groups as one clause (SynonymQuery)', () => {
  const filler = (k: number) => Array.from({ length: k }, (_, i) => `w${i}`);
  // d0 says four different price words once each; d1 says "price" four times; same length.
  const docs = [
    ['price', 'cost', 'fee', 'charge', ...filler(6)],
    ['price', 'price', 'price', 'price', ...filler(6)],
    [...filler(5), 'cost'],
    filler(8),
  ];
  const group = (clause?: number): WeightedTerm[] =>
    ['price', 'cost', 'fee', 'charge'].map((term) => ({ term, weight: 1, ...(clause === undefined ? {} : { clause }) }));

  it('as separate terms, many synonyms once each outscore one word many times; as a clause they do not', () => {
    const separate = scoresFor(docs, group());
    expect(separate[0]).toBeGreaterThan(separate[1]!);
    const clause = scoresFor(docs, group(7));
    expect(clause[0]).toBeCloseTo(clause[1]!, 12); // same summed frequency, same length
  });

  it('sums frequencies times shares, uses the largest document frequency for idf, saturates once', () => {
    const q: WeightedTerm[] = [
      { term: 'price', weight: 1, clause: 1 },
      { term: 'cost', weight: 0.5, clause: 1 },
    ];
    const scores = scoresFor(docs, q);
    // d2: only "cost" (share 0.5), |d| = 6, avgdl = (10 + 10 + 6 + 8) / 4 = 8.5; n = max(2, 2) = 2 of N = 4.
    const idf = bm25Idf(4, 2);
    const norm = 1 - 0.75 + (0.75 * 6) / 8.5;
    expect(scores[2]).toBeCloseTo(bm25Saturation(idf, (0.5 * 1) / norm, params.k1), 12);
    const parts = explainDocument(buildBm25Index(docs.map((t) => [[t, 1]])), q, params, 0);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({ term: 'price', weight: 1, tf: 2, group: [{ term: 'price', tf: 1, share: 1 }, { term: 'cost', tf: 1, share: 0.5 }] });
  });
});

describe('BM25F: fields with their own length normalisation', () => {
  it('one field of weight 1 is classic BM25', () => {
    const docs = [['refund', 'refund', 'policy'], ['billing', 'faq'], ['refund', 'cancel', 'terms', 'now']];
    const q = [{ term: 'refund', weight: 1 }];
    const classic = scoresFor(docs, q);
    const bm25f = scoresOf(docs.map((t) => [[t, 1]]), q, params, [{ weight: 1 }]);
    bm25f.forEach((s, i) => expect(s).toBeCloseTo(classic[i]!, 12));
  });

  it('a heading match counts its field weight; a long body does not dilute the heading', () => {
    const body = (k: number) => Array.from({ length: k }, (_, i) => `b${i}`);
    const docs: WeightedFields[] = [
      [[['refund'], 1], [body(5), 1]],
      [[['refund'], 1], [body(200), 1]],
      [[['other'], 1], [['refund', ...body(69)], 1]],
    ];
    const q = [{ term: 'refund', weight: 1 }];
    const fields = [{ weight: 2, b: 0.75 }, { weight: 1 }];
    const scores = scoresOf(docs, q, params, fields);
    expect(scores[0]).toBeGreaterThan(scores[2]!); // heading beats body
    expect(scores[1]).toBeCloseTo(scores[0]!, 12); // body length does not touch a heading-only match
    const merged = scoresOf(docs.map((d): WeightedFields => [[d[0]![0], 2], d[1]!]), q); // heading counted twice in one bag
    expect(merged[1]).toBeLessThan(merged[0]!);
  });

  it('saturates once over the fields: heading + body is less than the two scored apart', () => {
    const docs: WeightedFields[] = [[[['refund'], 1], [['refund', 'x1'], 1]], [[['y'], 1], [['z'], 1]]];
    const q = [{ term: 'refund', weight: 1 }];
    const both = scoresOf(docs, q, params, [{ weight: 1 }, { weight: 1 }])[0]!;
    const idf = bm25Idf(2, 1);
    expect(both).toBeLessThan(2 * bm25Saturation(idf, 1, params.k1));
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

  it('the explanation sums to the score with synonym clauses and two fields too', () => {
    const clauseQuery = fc.uniqueArray(term, { minLength: 1, maxLength: 5 }).chain((ts) =>
      fc.tuple(...ts.map((t) => fc.record({ term: fc.constant(t), weight: fc.constantFrom(1, 0.5, 0.25), clause: fc.option(fc.constantFrom(1, 2), { nil: undefined }) }))),
    );
    fc.assert(
      fc.property(corpus, corpus, clauseQuery, fc.double({ min: 0, max: 1, noNaN: true }), (heads, bodies, q, headingB) => {
        const docs: WeightedFields[] = heads.map((h, d) => [[h, 1], [bodies[d % bodies.length]!, 1]]);
        const index = buildBm25Index(docs, [{ weight: 2, b: headingB }, { weight: 1 }]);
        const query = q.map((t) => (t.clause === undefined ? { term: t.term, weight: t.weight } : t));
        const scores = new Float64Array(docs.length);
        const touched = new Int32Array(docs.length);
        const n = scoreInto(index, query, params, scores, touched);
        expect(new Set(touched.subarray(0, n)).size).toBe(n);
        docs.forEach((_, d) => {
          const parts = explainDocument(index, query, params, d);
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

  it('a subset\'s statistics score its documents exactly as an index of the subset alone (clauses, two fields)', () => {
    const clauseQuery = fc.uniqueArray(term, { minLength: 1, maxLength: 5 }).chain((ts) =>
      fc.tuple(...ts.map((t) => fc.record({ term: fc.constant(t), weight: fc.constantFrom(1, 0.5), clause: fc.option(fc.constantFrom(1, 2), { nil: undefined }) }))),
    );
    fc.assert(
      fc.property(corpus, corpus, fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), clauseQuery, (heads, bodies, inSubset, q) => {
        const docs: WeightedFields[] = heads.map((h, d) => [[h, 1], [bodies[d % bodies.length]!, 1]]);
        const fields = [{ weight: 2 }, { weight: 1 }];
        const query = q.map((t) => (t.clause === undefined ? { term: t.term, weight: t.weight } : t));
        const members = docs.flatMap((_, d) => (inSubset[d] ? [d] : []));
        const view = subsetStatistics(buildBm25Index(docs, fields), (d) => inSubset[d]!);
        const alone = scoresOf(members.map((d) => docs[d]!), query, params, fields);
        const scores = new Float64Array(docs.length);
        scoreInto(view, query, params, scores, new Int32Array(docs.length));
        expect(members.map((d) => scores[d])).toEqual(alone);
        members.forEach((d, i) => expect(explainDocument(view, query, params, d).reduce((s, p) => s + p.score, 0)).toBe(alone[i]));
      }),
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

describe('Bm25Builder: the index a document at a time', () => {
  const docs: WeightedFields[] = [
    [[['refund', 'policy'], 2], [['refund', 'within', 'days'], 1]],
    [[['shipping'], 2], [['ships', 'within', 'days'], 1]],
  ];

  it('counts each document as added: weighted frequencies, lengths, document frequencies, postings in document order', () => {
    const builder = new Bm25Builder(docs.length);
    for (const d of docs) builder.add(d);
    const index = runSteps(builder.finishSteps());
    const postings = (term: string) => {
      const t = index.termIds.get(term)!;
      const at = [...index.docs.subarray(index.starts[t]!, index.starts[t + 1]!)];
      return at.map((doc, i) => [doc, index.freqs[0]![index.starts[t]! + i]!]);
    };
    expect(postings('refund')).toEqual([[0, 3]]); // once in the heading (weight 2: counts twice), once in the body
    expect(postings('within')).toEqual([[0, 1], [1, 1]]);
    expect([...index.fieldLengths[0]!]).toEqual([7, 5]);
    expect(index.docFreqs[index.termIds.get('days')!]).toBe(2);
    expect([...index.termIds.keys()]).toEqual(['refund', 'policy', 'within', 'days', 'shipping', 'ships']); // numbered as first seen
  });

  it('refuses a document more than it was made for, and an index finished before its last document', () => {
    const builder = new Bm25Builder(1);
    builder.add(docs[0]!);
    expect(() => builder.add(docs[1]!)).toThrow(/document 1 is past the 1/);
    const fielded = new Bm25Builder(2, [{ weight: 1 }]);
    expect(() => fielded.add(docs[0]!)).toThrow(/document 0 has 2 fields, the index 1/);
    fielded.add([[['refund'], 1]]); // a refused document takes no number: this one is document 0
    fielded.add([[['days'], 1]]);
    expect([...runSteps(fielded.finishSteps()).docs]).toEqual([0, 1]);
    const short = new Bm25Builder(2);
    short.add(docs[0]!);
    expect(() => short.finishSteps().next()).toThrow(/1 documents added, the index was made for 2/);
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
