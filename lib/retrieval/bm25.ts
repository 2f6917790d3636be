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

/** One term's contribution to one document's score. */
export function bm25TermScore(
  idf: number,
  termFreq: number,
  docLength: number,
  avgDocLength: number,
  { k1, b }: Bm25Params,
): number {
  return (idf * (termFreq * (k1 + 1))) / (termFreq + k1 * (1 - b + (b * docLength) / avgDocLength));
}

/** The documents that contain a term (ascending), how often, and the term's idf. */
export interface Posting {
  docs: Int32Array;
  freqs: Float64Array;
  idf: number;
}

export interface Bm25Index {
  docCount: number;
  avgDocLength: number;
  docLengths: Float64Array;
  postings: Map<string, Posting>;
}

/** A document as weighted bags of terms: e.g. [[titleTerms, 2], [bodyTerms, 1]]. */
export type WeightedFields = ReadonlyArray<readonly [terms: readonly string[], weight: number]>;

/** Builds the inverted index: one pass over the documents, postings in document order. */
export function buildBm25Index(documents: readonly WeightedFields[]): Bm25Index {
  const docCount = documents.length;
  const docLengths = new Float64Array(docCount);
  const growing = new Map<string, { docs: number[]; freqs: number[] }>();
  let totalLength = 0;

  documents.forEach((fields, doc) => {
    const counts = new Map<string, number>();
    let length = 0;
    for (const [terms, weight] of fields) {
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + weight);
      length += terms.length * weight;
    }
    docLengths[doc] = length;
    totalLength += length;
    for (const [term, freq] of counts) {
      let posting = growing.get(term);
      if (!posting) growing.set(term, (posting = { docs: [], freqs: [] }));
      posting.docs.push(doc);
      posting.freqs.push(freq);
    }
  });

  const postings = new Map<string, Posting>();
  for (const [term, { docs, freqs }] of growing) {
    postings.set(term, {
      docs: Int32Array.from(docs),
      freqs: Float64Array.from(freqs),
      idf: bm25Idf(docCount, docs.length),
    });
  }
  return { docCount, avgDocLength: docCount ? totalLength / docCount : 0, docLengths, postings };
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
  const { docLengths, avgDocLength } = index;
  for (const { term, weight } of query) {
    const posting = index.postings.get(term);
    if (!posting || weight <= 0) continue;
    const { docs, freqs, idf } = posting;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      if (scores[doc] === 0) touched[touchedCount++] = doc;
      scores[doc]! += weight * bm25TermScore(idf, freqs[i]!, docLengths[doc]!, avgDocLength, params);
    }
  }
  return touchedCount;
}

/** How often a term occurs in a document (binary search in its posting), 0 if not at all. */
function termFreqIn(posting: Posting, doc: number): number {
  let lo = 0;
  let hi = posting.docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = posting.docs[mid]!;
    if (d === doc) return posting.freqs[mid]!;
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
  return explainPostings(index, query.map((t) => index.postings.get(t.term)), query, params, doc);
}

/**
 * `explainDocument` with the query terms' postings already looked up (`postings[i]` is
 * the posting of `query[i].term`, undefined if none): the selector looks them up once per
 * question instead of once per explained section.
 */
export function explainPostings(
  index: Bm25Index,
  postings: readonly (Posting | undefined)[],
  query: readonly WeightedTerm[],
  params: Bm25Params,
  doc: number,
): TermExplanation[] {
  const parts: TermExplanation[] = [];
  for (let i = 0; i < query.length; i++) {
    const { term, weight } = query[i]!;
    const posting = postings[i];
    if (!posting || weight <= 0) continue;
    const tf = termFreqIn(posting, doc);
    if (tf === 0) continue;
    const score = weight * bm25TermScore(posting.idf, tf, index.docLengths[doc]!, index.avgDocLength, params);
    parts.push({ term, weight, tf, idf: posting.idf, score });
  }
  return parts;
}
