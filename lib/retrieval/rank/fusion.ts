/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): several rankings of the
 * same documents become one by adding, for each list a document is in,
 *
 *     1 / (k + rank)        (rank 1-based; a list a document is not in adds nothing)
 *
 * Only ranks count, never the scores behind them, so a BM25 score and a cosine similarity
 * need no common scale. `k` damps the top of each list: with k = 60 (the paper's value, and
 * the usual default in search engines) rank 1 is worth 1/61 and rank 10 1/70, so a document
 * near the top of both lists beats one at the very top of only one.
 *
 * Ties (equal fused score) go to the document that ranks higher in the first list, then to
 * file order (the smaller document number): the order never depends on the platform's sort.
 */

/** The k of the semantic stage: the paper's value. */
export const RRF_K = 60;

/** Documents in fused order, best first, each list's documents best first. */
export function reciprocalRankFusion(lists: readonly (readonly number[])[], k = RRF_K): number[] {
  const fused = new Map<number, number>();
  const firstRank = new Map<number, number>();
  for (const [l, list] of lists.entries()) {
    list.forEach((doc, i) => {
      fused.set(doc, (fused.get(doc) ?? 0) + 1 / (k + i + 1));
      if (l === 0) firstRank.set(doc, i);
    });
  }
  const rankInFirst = (doc: number) => firstRank.get(doc) ?? Infinity;
  return [...fused.keys()].sort((a, b) => fused.get(b)! - fused.get(a)! || rankInFirst(a) - rankInFirst(b) || a - b);
}
