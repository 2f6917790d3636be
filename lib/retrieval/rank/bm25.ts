import { type Steps, runSteps } from '../steps';
import type { TermExplanation, WeightedTerm } from '../types';
/**
 * Okapi BM25 (with its field-aware form BM25F), written once: `bm25Idf`, `bm25FieldNorm` and
 * `bm25Saturation` are the formula; `scoreInto` and `explainTermIds` both go through `clausesOf`
 * and `normalisedTf`, in the same order, so an explanation never disagrees with the score (bit
 * for bit). The formula, fields and synonym clauses: docs/bm25.md.
 */

export interface Bm25Params {
  /** Term-frequency saturation, ≥ 0 (default 1.2). */
  k1: number;
  /** Length normalisation, 0–1 (default 0.75); a field's own `b` (FieldSpec) overrides it. */
  b: number;
}

/** Inverse document frequency of a term found in `docFreq` of `docCount` documents. */
export function bm25Idf(docCount: number, docFreq: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

/** B_f(d) = 1 − b + b · |d|_f / avg_f (1 when the field is empty in every document). */
export function bm25FieldNorm(length: number, avgLength: number, b: number): number {
  return avgLength > 0 ? 1 - b + (b * length) / avgLength : 1;
}

/** idf · tf̃ · (k1 + 1) / (tf̃ + k1): one clause's score from its normalised frequency. */
export function bm25Saturation(idf: number, normalisedTf: number, k1: number): number {
  return (idf * (normalisedTf * (k1 + 1))) / (normalisedTf + k1);
}

/** Classic one-field Okapi BM25 of one term: the formula above with a single field of weight 1. */
export function bm25TermScore(idf: number, termFreq: number, docLength: number, avgDocLength: number, { k1, b }: Bm25Params): number {
  return bm25Saturation(idf, termFreq / bm25FieldNorm(docLength, avgDocLength, b), k1);
}

/** A field of a BM25F index (see `buildBm25Index`). */
export interface FieldSpec {
  /** w_f: how much the field's normalised frequency counts (the body is 1). */
  weight: number;
  /** b_f, 0–1; absent: the `b` of the scoring parameters. */
  b?: number;
}

/**
 * The inverted index, laid out flat (compressed sparse rows): term t's postings are
 * `docs[starts[t] … starts[t+1])`, with its frequency in field f in the same slots of
 * `freqs[f]`. Two big typed arrays per field instead of small ones per term keep a
 * 100,000-section index (~700,000 distinct terms) hundreds of MB smaller and quicker to build.
 */
export interface Bm25Index {
  /** Documents in the index, numbered 0 … docCount − 1. */
  docCount: number;
  /** N of the statistics (docFreqs, idfs, avgFieldLengths): docCount, or the size of the subset they count (subsetStatistics). */
  idfDocCount: number;
  /** The fields (one, weight 1, when built without field specs: every entry merged into one bag). */
  fields: readonly FieldSpec[];
  /** |d|_f per field: weighted terms in that field of each document. */
  fieldLengths: readonly Float64Array[];
  /** avg_f per field. */
  avgFieldLengths: readonly number[];
  /** Term → term number (0 … terms − 1). */
  termIds: Map<string, number>;
  /** Where each term's postings start; `starts[terms]` is the total. */
  starts: Int32Array;
  docs: Int32Array;
  /** f_f(t,d) per field: weighted occurrences (whole numbers: exact in float32). */
  freqs: readonly Float32Array[];
  /** n(t) per term. */
  docFreqs: Int32Array;
  idfs: Float64Array;
}

/** A document as weighted bags of terms: e.g. [[headingTerms, 1], [bodyTerms, 1]]; each occurrence counts its entry's weight. */
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
 *
 * Without `fields`, every entry of a document goes into one bag (classic BM25; an entry of
 * weight 2 counts its terms twice). With `fields`, entry i of every document is field i,
 * with its own frequencies, lengths and normalisation (BM25F).
 */
export function buildBm25Index(documents: readonly WeightedFields[], fields?: readonly FieldSpec[]): Bm25Index {
  const builder = new Bm25Builder(documents.length, fields);
  for (const document of documents) builder.add(document);
  return runSteps(builder.finishSteps());
}

/** Postings placed between yields of `finishSteps`: a few milliseconds of work. */
const TRIPLES_PER_STEP = 100_000;

/**
 * The index built a document at a time, in document order (`add` each, then `finishSteps`).
 * The index build (select/build-index.ts) makes each section's terms just before adding it, so
 * they are garbage as soon as they are counted. Holding every document's terms until the build (2.7 million strings for
 * 10,000 sections) made the young-generation collections copy them all, 30–50 ms at a time.
 */
export class Bm25Builder {
  private readonly fieldCount: number;
  private readonly fieldLengths: Float64Array[];
  private readonly totals: Float64Array;
  private readonly termIds = new Map<string, number>();
  private docFreqs = new Int32Array(1024);
  private tripleTerms = new Int32Array(1 << 16);
  private tripleDocs = new Int32Array(1 << 16);
  private tripleFreqs: Float32Array[];
  private triples = 0;
  private added = 0;
  /**
   * The current document's term frequencies, reused for every document: `docTermFreqs` at
   * id × fields + field, valid for the ids in `docTerms` (first occurrence first), which
   * `docStamp[id] === added` marks. No allocation per term of a document.
   */
  private docTermFreqs: Float64Array;
  private docStamp = new Int32Array(1024);
  private readonly docTerms: number[] = [];

  constructor(
    private readonly docCount: number,
    private readonly fields?: readonly FieldSpec[],
  ) {
    this.fieldCount = fields ? fields.length : 1;
    this.fieldLengths = Array.from({ length: this.fieldCount }, () => new Float64Array(docCount));
    this.totals = new Float64Array(this.fieldCount);
    this.tripleFreqs = Array.from({ length: this.fieldCount }, () => new Float32Array(1 << 16));
    this.docTermFreqs = new Float64Array(this.docStamp.length * this.fieldCount);
  }

  /** Counts the next document (number `added`, 0 … docCount − 1). */
  add(entries: WeightedFields): void {
    const { fields, fieldCount, fieldLengths, termIds, docTerms } = this;
    const doc = this.added;
    if (doc >= this.docCount) throw new RangeError(`document ${doc} is past the ${this.docCount} the index was made for`);
    if (fields && entries.length > fieldCount) throw new RangeError(`document ${doc} has ${entries.length} fields, the index ${fieldCount}`);
    this.added++;
    const stamp = this.added; // never 0, the stamps' initial value
    docTerms.length = 0;
    for (let entry = 0; entry < entries.length; entry++) {
      const [terms, weight] = entries[entry]!;
      const f = fields ? entry : 0;
      for (const term of terms) {
        let id = termIds.get(term);
        if (id === undefined) {
          id = termIds.size;
          termIds.set(term, id);
          this.growTermArrays(id + 1);
        }
        if (this.docStamp[id] !== stamp) {
          this.docStamp[id] = stamp;
          this.docTermFreqs.fill(0, id * fieldCount, (id + 1) * fieldCount);
          docTerms.push(id);
        }
        this.docTermFreqs[id * fieldCount + f]! += weight;
      }
      fieldLengths[f]![doc]! += terms.length * weight;
    }
    for (let f = 0; f < fieldCount; f++) this.totals[f]! += fieldLengths[f]![doc]!;
    const needed = this.triples + docTerms.length;
    if (needed > this.tripleTerms.length) {
      this.tripleTerms = grown(this.tripleTerms, needed);
      this.tripleDocs = grown(this.tripleDocs, needed);
      this.tripleFreqs = this.tripleFreqs.map((a) => grown(a, needed));
    }
    const { tripleTerms, tripleDocs, tripleFreqs, docFreqs, docTermFreqs } = this;
    for (const id of docTerms) {
      const t = this.triples++;
      tripleTerms[t] = id;
      tripleDocs[t] = doc;
      for (let f = 0; f < fieldCount; f++) tripleFreqs[f]![t] = docTermFreqs[id * fieldCount + f]!;
      docFreqs[id]!++;
    }
  }

  /** Room for `terms` term ids in the arrays indexed by term. */
  private growTermArrays(terms: number): void {
    if (terms <= this.docStamp.length) return;
    this.docFreqs = grown(this.docFreqs, terms);
    this.docStamp = grown(this.docStamp, terms);
    const freqs = new Float64Array(this.docStamp.length * this.fieldCount);
    freqs.set(this.docTermFreqs);
    this.docTermFreqs = freqs;
  }

  /** The index, once every document is added: the postings sorted by term, in steps. */
  *finishSteps(): Steps<Bm25Index> {
    const { docCount, fieldCount, termIds, docFreqs, tripleTerms, tripleDocs, tripleFreqs, triples } = this;
    if (this.added !== docCount) throw new RangeError(`${this.added} documents added, the index was made for ${docCount}`);
    const termCount = termIds.size;
    const starts = new Int32Array(termCount + 1);
    const idfs = new Float64Array(termCount);
    for (let t = 0; t < termCount; t++) {
      starts[t + 1] = starts[t]! + docFreqs[t]!;
      idfs[t] = bm25Idf(docCount, docFreqs[t]!);
    }
    const docs = new Int32Array(triples);
    const freqs = Array.from({ length: fieldCount }, () => new Float32Array(triples));
    const cursor = starts.slice(0, termCount);
    for (let i = 0; i < triples; i++) {
      const slot = cursor[tripleTerms[i]!]!++;
      docs[slot] = tripleDocs[i]!;
      for (let f = 0; f < fieldCount; f++) freqs[f]![slot] = tripleFreqs[f]![i]!;
      if (i % TRIPLES_PER_STEP === TRIPLES_PER_STEP - 1) yield;
    }
    return {
      docCount,
      idfDocCount: docCount,
      fields: this.fields ?? [{ weight: 1 }],
      fieldLengths: this.fieldLengths,
      avgFieldLengths: [...this.totals].map((t) => (docCount ? t / docCount : 0)),
      termIds,
      starts,
      docs,
      freqs,
      docFreqs: docFreqs.slice(0, termCount),
      idfs,
    };
  }
}

/**
 * The index with BM25's statistics taken over a subset of its documents only (one language of a
 * multi-language KB): N, n(t) and so idf, and avg_f count the documents `inSubset` accepts. The
 * postings, frequencies and lengths are the index's own (shared, not copied), so a document of the
 * subset scores exactly as it would in an index of the subset alone, whatever else the index
 * holds: a term none of the subset's documents contains counts as absent (clausesOf). Documents
 * outside the subset can still be scored with these statistics; callers rank only the subset's.
 */
export function subsetStatistics(index: Bm25Index, inSubset: (doc: number) => boolean): Bm25Index {
  const member = new Uint8Array(index.docCount);
  let n = 0;
  for (let doc = 0; doc < index.docCount; doc++) {
    if (!inSubset(doc)) continue;
    member[doc] = 1;
    n++;
  }
  // Summed in document order, as buildBm25Index sums: the subset's average is bit for bit the one an index of it alone has.
  const avgFieldLengths = index.fieldLengths.map((lengths) => {
    let total = 0;
    for (let doc = 0; doc < index.docCount; doc++) if (member[doc]) total += lengths[doc]!;
    return n ? total / n : 0;
  });
  const termCount = index.termIds.size;
  const docFreqs = new Int32Array(termCount);
  const idfs = new Float64Array(termCount);
  for (let t = 0; t < termCount; t++) {
    let df = 0;
    for (let p = index.starts[t]!; p < index.starts[t + 1]!; p++) df += member[index.docs[p]!]!;
    docFreqs[t] = df;
    idfs[t] = bm25Idf(n, df);
  }
  return { ...index, idfDocCount: n, avgFieldLengths, docFreqs, idfs };
}

// w_f / B_f(d) for every field and document, computed once per b instead of once per posting.
const factorsCache = new WeakMap<Bm25Index, { b: number; factors: Float64Array[] }>();

function fieldFactors(index: Bm25Index, b: number): Float64Array[] {
  const cached = factorsCache.get(index);
  if (cached && cached.b === b) return cached.factors;
  const factors = index.fields.map((field, f) => {
    const out = new Float64Array(index.docCount);
    const lengths = index.fieldLengths[f]!;
    const avg = index.avgFieldLengths[f]!;
    for (let doc = 0; doc < index.docCount; doc++) {
      const norm = bm25FieldNorm(lengths[doc]!, avg, field.b ?? b);
      out[doc] = norm > 0 ? field.weight / norm : 0; // B = 0 only for an empty field (no occurrences)
    }
    return out;
  });
  factorsCache.set(index, { b, factors });
  return factors;
}

/** tf̃ of posting `p` (of document `doc`): Σ_f f_f · w_f / B_f(d), fields in order. */
function normalisedTf(freqs: readonly Float32Array[], factors: readonly Float64Array[], p: number, doc: number): number {
  let tf = freqs[0]![p]! * factors[0]![doc]!;
  for (let f = 1; f < freqs.length; f++) tf += freqs[f]![p]! * factors[f]![doc]!;
  return tf;
}

/**
 * A query's clauses ready to score, laid out flat: clause c's members are
 * `ids/shares/terms[starts[c] … starts[c+1])`, in query order (the explanation names a
 * clause by its first member). A handful of arrays per query instead of a few per term.
 */
interface Clauses {
  count: number;
  starts: Int32Array;
  ids: Int32Array;
  /** Each member's weight ÷ its clause's weight. */
  shares: Float64Array;
  terms: string[];
  weights: Float64Array;
  idfs: Float64Array;
}

// The clauses of the last query compiled for each index: the selector scores a query, then
// explains a few dozen sections with the same query and term numbers (the same arrays), so
// they are compiled once. Callers never edit a query array once it is scored.
const compiled = new WeakMap<Bm25Index, { query: readonly WeightedTerm[]; termIds: readonly number[]; clauses: Clauses }>();

/** Groups the query's terms into clauses, in order of first appearance; terms no document contains (none of a subset's: subsetStatistics) are left out. */
function clausesOf(index: Bm25Index, query: readonly WeightedTerm[], termIds: readonly number[]): Clauses {
  const last = compiled.get(index);
  if (last && last.query === query && last.termIds === termIds) return last.clauses;
  const n = query.length;
  const clauseOf = new Int32Array(n);
  let count = 0;
  let byNumber: Map<number, number> | undefined;
  for (let i = 0; i < n; i++) {
    const t = query[i]!;
    if (termIds[i]! < 0 || index.docFreqs[termIds[i]!] === 0 || !(t.weight > 0)) {
      clauseOf[i] = -1;
    } else if (t.clause === undefined) {
      clauseOf[i] = count++;
    } else {
      byNumber ??= new Map();
      let c = byNumber.get(t.clause);
      if (c === undefined) byNumber.set(t.clause, (c = count++));
      clauseOf[i] = c;
    }
  }
  const starts = new Int32Array(count + 1);
  const weights = new Float64Array(count);
  for (let i = 0; i < n; i++) {
    const c = clauseOf[i]!;
    if (c < 0) continue;
    starts[c + 1]!++;
    weights[c] = Math.max(weights[c]!, query[i]!.weight);
  }
  for (let c = 0; c < count; c++) starts[c + 1]! += starts[c]!;
  const members = starts[count]!;
  const ids = new Int32Array(members);
  const shares = new Float64Array(members);
  const terms = new Array<string>(members);
  const cursor = starts.slice(0, count);
  for (let i = 0; i < n; i++) {
    const c = clauseOf[i]!;
    if (c < 0) continue;
    const m = cursor[c]!++;
    ids[m] = termIds[i]!;
    shares[m] = query[i]!.weight / weights[c]!;
    terms[m] = query[i]!.term;
  }
  const idfs = new Float64Array(count);
  for (let c = 0; c < count; c++) {
    const from = starts[c]!;
    const to = starts[c + 1]!;
    let docFreq = 0;
    for (let m = from; m < to; m++) docFreq = Math.max(docFreq, index.docFreqs[ids[m]!]!);
    idfs[c] = to - from === 1 ? index.idfs[ids[from]!]! : bm25Idf(index.idfDocCount, docFreq);
  }
  const clauses: Clauses = { count, starts, ids, shares, terms, weights, idfs };
  compiled.set(index, { query, termIds, clauses });
  return clauses;
}

// Per-document sums of a multi-term clause, reused across queries (selection is synchronous).
const clauseScratch = new WeakMap<Bm25Index, { sums: Float64Array; docs: Int32Array }>();

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
  const { starts, docs, freqs } = index;
  const factors = fieldFactors(index, params.b);
  const { k1 } = params;
  const clauses = clausesOf(index, query, query.map((t) => index.termIds.get(t.term) ?? -1));
  for (let c = 0; c < clauses.count; c++) {
    const weight = clauses.weights[c]!;
    const idf = clauses.idfs[c]!;
    const from = clauses.starts[c]!;
    const to = clauses.starts[c + 1]!;
    if (to - from === 1) {
      const id = clauses.ids[from]!;
      const share = clauses.shares[from]!;
      const end = starts[id + 1]!;
      for (let p = starts[id]!; p < end; p++) {
        const doc = docs[p]!;
        if (scores[doc] === 0) touched[touchedCount++] = doc;
        scores[doc]! += weight * bm25Saturation(idf, share * normalisedTf(freqs, factors, p, doc), k1);
      }
      continue;
    }
    let scratch = clauseScratch.get(index);
    if (!scratch) clauseScratch.set(index, (scratch = { sums: new Float64Array(index.docCount), docs: new Int32Array(index.docCount) }));
    const { sums } = scratch;
    let n = 0;
    for (let m = from; m < to; m++) {
      const id = clauses.ids[m]!;
      const share = clauses.shares[m]!;
      const end = starts[id + 1]!;
      for (let p = starts[id]!; p < end; p++) {
        const doc = docs[p]!;
        if (sums[doc] === 0) scratch.docs[n++] = doc;
        sums[doc]! += share * normalisedTf(freqs, factors, p, doc);
      }
    }
    for (let i = 0; i < n; i++) {
      const doc = scratch.docs[i]!;
      if (scores[doc] === 0) touched[touchedCount++] = doc;
      scores[doc]! += weight * bm25Saturation(idf, sums[doc]!, k1);
      sums[doc] = 0;
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

/** Where document `doc` sits in term `id`'s postings (binary search), −1 if the term is not in it. */
function postingIn(index: Bm25Index, id: number, doc: number): number {
  const { docs } = index;
  let lo = index.starts[id]!;
  let hi = index.starts[id + 1]! - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = docs[mid]!;
    if (d === doc) return mid;
    if (d < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Breaks a document's score into per-clause parts, with the same functions `scoreInto` uses.
 * `termIds[i]` is the number of `query[i].term` (−1 if no document contains it): the
 * explanation looks them up once per question instead of once per explained section.
 */
export function explainTermIds(
  index: Bm25Index,
  termIds: readonly number[],
  query: readonly WeightedTerm[],
  params: Bm25Params,
  doc: number,
): TermExplanation[] {
  const factors = fieldFactors(index, params.b);
  const parts: TermExplanation[] = [];
  const clauses = clausesOf(index, query, termIds);
  for (let c = 0; c < clauses.count; c++) {
    const from = clauses.starts[c]!;
    const to = clauses.starts[c + 1]!;
    let tf = 0;
    let normalised = 0;
    const group: { term: string; tf: number; share: number }[] | undefined = to - from > 1 ? [] : undefined;
    for (let m = from; m < to; m++) {
      const p = postingIn(index, clauses.ids[m]!, doc);
      if (p < 0) continue;
      let occurrences = 0;
      for (let f = 0; f < index.freqs.length; f++) occurrences += index.freqs[f]![p]!;
      tf += occurrences;
      normalised += clauses.shares[m]! * normalisedTf(index.freqs, factors, p, doc);
      if (group) group.push({ term: clauses.terms[m]!, tf: occurrences, share: clauses.shares[m]! });
    }
    if (tf === 0) continue;
    const weight = clauses.weights[c]!;
    const idf = clauses.idfs[c]!;
    const score = weight * bm25Saturation(idf, normalised, params.k1);
    const part: TermExplanation = { term: clauses.terms[from]!, weight, tf, normalisedTf: normalised, idf, score };
    if (group) part.group = group;
    parts.push(part);
  }
  return parts;
}
