/**
 * Okapi BM25, written once.
 *
 * For a query term t and a document d:
 *
 *   idf(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
 *   score(t, d) = idf(t) · f(t,d) · (k1 + 1) / (f(t,d) + k1 · (1 − b + b · |d| / avgdl))
 *
 * N is the number of documents in the scored pool, n(t) how many of them contain t,
 * f(t,d) how often t occurs in d, |d| the length of d in terms and avgdl the mean length.
 * k1 saturates term frequency (the 20th "refund" adds far less than the 2nd) and b
 * normalises for length (a long page does not win just by being long). The "1 +" inside
 * the log keeps idf positive even for a term in every document.
 *
 * A document's score for a query is the sum over query terms of weight(t) · score(t, d),
 * where weight(t) is 1 for a word the customer typed in the latest message and less for
 * words from the previous message or added by synonyms (see `query.ts`).
 *
 * `bm25Idf` and `bm25TermScore` are the formula. The index below precomputes idf per
 * term and calls `bm25TermScore` for every posting; `explainTerm` calls the same two
 * functions, so an explanation can never disagree with the score.
 */

export interface Bm25Params {
  /** Term-frequency saturation, ≥ 0 (default 1.2). */
  k1: number;
  /** Length normalisation, 0–1 (default 0.75). */
  b: number;
}

/** Inverse document frequency of a term found in `docFreq` of `docCount` documents. */
export function bm25Idf(docCount: number, docFreq: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

/** The length part of the denominator: k1 · (1 − b + b · |d| / avgdl). */
export function bm25LengthNorm(docLength: number, avgDocLength: number, { k1, b }: Bm25Params): number {
  return k1 * (1 - b + (b * docLength) / avgDocLength);
}

/** One term's contribution to one document's score. */
export function bm25TermScore(
  idf: number,
  termFreq: number,
  docLength: number,
  avgDocLength: number,
  params: Bm25Params,
): number {
  return scoreWithNorm(idf, termFreq, bm25LengthNorm(docLength, avgDocLength, params), params.k1);
}

function scoreWithNorm(idf: number, termFreq: number, lengthNorm: number, k1: number): number {
  return (idf * (termFreq * (k1 + 1))) / (termFreq + lengthNorm);
}

// Each document's length norm, computed once per (k1, b) instead of once per posting.
// Same operations in the same order as bm25TermScore, so scores stay bit-identical with
// the explanation's.
const normsCache = new WeakMap<Bm25Index, { k1: number; b: number; norms: Float64Array }>();

function lengthNorms(index: Bm25Index, params: Bm25Params): Float64Array {
  const cached = normsCache.get(index);
  if (cached && cached.k1 === params.k1 && cached.b === params.b) return cached.norms;
  const norms = new Float64Array(index.docCount);
  for (let doc = 0; doc < index.docCount; doc++) norms[doc] = bm25LengthNorm(index.docLengths[doc]!, index.avgDocLength, params);
  normsCache.set(index, { k1: params.k1, b: params.b, norms });
  return norms;
}

/** One term's postings: the documents that contain it (ascending), how often, and its idf. */
export interface Posting {
  docs: Int32Array;
  freqs: Float32Array;
  idf: number;
}

/**
 * The inverted index, laid out flat (compressed sparse rows): term t's postings are
 * `docs[starts[t] … starts[t+1])` with its frequencies in the same slots of `freqs`.
 * Two big typed arrays instead of two small ones per term keep a 100,000-section index
 * (~700,000 distinct terms) hundreds of MB smaller and quicker to build.
 */
export interface Bm25Index {
  docCount: number;
  avgDocLength: number;
  docLengths: Float64Array;
  /** Term → term number (0 … terms − 1). */
  termIds: Map<string, number>;
  /** Where each term's postings start; `starts[terms]` is the total. */
  starts: Int32Array;
  docs: Int32Array;
  /** f(t,d): weighted occurrences (whole numbers: exact in float32). */
  freqs: Float32Array;
  idfs: Float64Array;
}

/** A document as weighted bags of terms: e.g. [[titleTerms, 2], [bodyTerms, 1]]. */
export type WeightedFields = ReadonlyArray<readonly [terms: readonly string[], weight: number]>;

function grown<T extends Int32Array | Float32Array>(array: T, size: number): T {
  if (size <= array.length) return array;
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(size, array.length * 2));
  bigger.set(array);
  return bigger;
}

/**
 * Builds the inverted index in one pass over the documents: (term, document, frequency)
 * triples in document order, then a counting sort by term, so each term's postings come
 * out in ascending document order.
 */
export function buildBm25Index(documents: readonly WeightedFields[]): Bm25Index {
  const docCount = documents.length;
  const docLengths = new Float64Array(docCount);
  const termIds = new Map<string, number>();
  let docFreqs = new Int32Array(1024);
  let tripleTerms = new Int32Array(1 << 16);
  let tripleDocs = new Int32Array(1 << 16);
  let tripleFreqs = new Float32Array(1 << 16);
  let triples = 0;
  let totalLength = 0;
  const counts = new Map<number, number>();

  for (let doc = 0; doc < docCount; doc++) {
    counts.clear();
    let length = 0;
    for (const [terms, weight] of documents[doc]!) {
      for (const term of terms) {
        let id = termIds.get(term);
        if (id === undefined) {
          id = termIds.size;
          termIds.set(term, id);
          docFreqs = grown(docFreqs, id + 1);
        }
        counts.set(id, (counts.get(id) ?? 0) + weight);
      }
      length += terms.length * weight;
    }
    docLengths[doc] = length;
    totalLength += length;
    tripleTerms = grown(tripleTerms, triples + counts.size);
    tripleDocs = grown(tripleDocs, triples + counts.size);
    tripleFreqs = grown(tripleFreqs, triples + counts.size);
    for (const [id, freq] of counts) {
      tripleTerms[triples] = id;
      tripleDocs[triples] = doc;
      tripleFreqs[triples] = freq;
      triples++;
      docFreqs[id]!++;
    }
  }

  const termCount = termIds.size;
  const starts = new Int32Array(termCount + 1);
  const idfs = new Float64Array(termCount);
  for (let t = 0; t < termCount; t++) {
    starts[t + 1] = starts[t]! + docFreqs[t]!;
    idfs[t] = bm25Idf(docCount, docFreqs[t]!);
  }
  const docs = new Int32Array(triples);
  const freqs = new Float32Array(triples);
  const cursor = starts.slice(0, termCount);
  for (let i = 0; i < triples; i++) {
    const slot = cursor[tripleTerms[i]!]!++;
    docs[slot] = tripleDocs[i]!;
    freqs[slot] = tripleFreqs[i]!;
  }
  return { docCount, avgDocLength: docCount ? totalLength / docCount : 0, docLengths, termIds, starts, docs, freqs, idfs };
}

/** A term's postings as views on the index, or undefined if no document contains it. */
export function postingOf(index: Bm25Index, term: string): Posting | undefined {
  const id = index.termIds.get(term);
  if (id === undefined) return undefined;
  const from = index.starts[id]!;
  const to = index.starts[id + 1]!;
  return { docs: index.docs.subarray(from, to), freqs: index.freqs.subarray(from, to), idf: index.idfs[id]! };
}

export interface WeightedTerm {
  term: string;
  weight: number;
}

/**
 * Scores every document that contains a query term. Adds into `scores` (which must be
 * all zeros on entry) and records each touched document once in `touched`; returns how
 * many were touched. Only the postings of the query's terms are read.
 */
export function scoreInto(
  index: Bm25Index,
  query: readonly WeightedTerm[],
  params: Bm25Params,
  scores: Float64Array,
  touched: Int32Array,
): number {
  let touchedCount = 0;
  const { termIds, starts, docs, freqs, idfs } = index;
  const norms = lengthNorms(index, params);
  const { k1 } = params;
  for (const { term, weight } of query) {
    const id = termIds.get(term);
    if (id === undefined || weight <= 0) continue;
    const idf = idfs[id]!;
    const end = starts[id + 1]!;
    for (let p = starts[id]!; p < end; p++) {
      const doc = docs[p]!;
      if (scores[doc] === 0) touched[touchedCount++] = doc;
      scores[doc]! += weight * scoreWithNorm(idf, freqs[p]!, norms[doc]!, k1);
    }
  }
  return touchedCount;
}

// Float32 bits of a positive number, as an unsigned integer: monotonic in the number.
const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);
const DOC_BITS = 2 ** 21;

/**
 * The full ranking of the `n` documents in `touched` (as filled by `scoreInto`): score
 * descending, then document order. Exact, and several times faster than a comparator sort
 * on large result sets: documents are sorted natively on a key that packs the score's
 * float32 bits with the document number, then one insertion pass settles documents whose
 * scores differ beyond float32 precision. (The selector itself does not need this: it pops
 * a heap only as far as packing goes.) Documents must number fewer than 2^21.
 */
export function rankMatches(scores: Float64Array, touched: Int32Array, n: number): Int32Array {
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const doc = touched[i]!;
    f32[0] = scores[doc]!;
    // Ascending sort of (−bits, doc) = descending score, then ascending doc.
    keys[i] = (2 ** 32 - 1 - f32Bits[0]!) * DOC_BITS + doc;
  }
  keys.sort();
  const ranked = new Int32Array(n);
  for (let i = 0; i < n; i++) ranked[i] = keys[i]! % DOC_BITS;
  for (let i = 1; i < n; i++) {
    const doc = ranked[i]!;
    const score = scores[doc]!;
    let j = i - 1;
    while (j >= 0) {
      const other = ranked[j]!;
      const os = scores[other]!;
      if (os > score || (os === score && other < doc)) break;
      ranked[j + 1] = other;
      j--;
    }
    ranked[j + 1] = doc;
  }
  return ranked;
}

/** How often term `id` occurs in a document (binary search in its postings), 0 if not at all. */
function termFreqIn(index: Bm25Index, id: number, doc: number): number {
  const { docs, freqs } = index;
  let lo = index.starts[id]!;
  let hi = index.starts[id + 1]! - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = docs[mid]!;
    if (d === doc) return freqs[mid]!;
    if (d < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** One query term's part in a document's score, with the numbers that produced it. */
export interface TermExplanation {
  term: string;
  weight: number;
  /** f(t,d): weighted occurrences in the document (title occurrences count `titleWeight` times). */
  tf: number;
  idf: number;
  /** weight · bm25TermScore(idf, tf, …): this term's share of the section's score. */
  score: number;
}

/** Breaks a document's score into per-term parts, with the same functions `scoreInto` uses. */
export function explainDocument(
  index: Bm25Index,
  query: readonly WeightedTerm[],
  params: Bm25Params,
  doc: number,
): TermExplanation[] {
  return explainTermIds(index, query.map((t) => index.termIds.get(t.term) ?? -1), query, params, doc);
}

/**
 * `explainDocument` with the query terms' numbers already looked up (`termIds[i]` is the
 * number of `query[i].term`, −1 if no document contains it): the selector looks them up
 * once per question instead of once per explained section.
 */
export function explainTermIds(
  index: Bm25Index,
  termIds: readonly number[],
  query: readonly WeightedTerm[],
  params: Bm25Params,
  doc: number,
): TermExplanation[] {
  const parts: TermExplanation[] = [];
  for (let i = 0; i < query.length; i++) {
    const { term, weight } = query[i]!;
    const id = termIds[i]!;
    if (id < 0 || weight <= 0) continue;
    const tf = termFreqIn(index, id, doc);
    if (tf === 0) continue;
    const idf = index.idfs[id]!;
    const score = weight * bm25TermScore(idf, tf, index.docLengths[doc]!, index.avgDocLength, params);
    parts.push({ term, weight, tf, idf, score });
  }
  return parts;
}
