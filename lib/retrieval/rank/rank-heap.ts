/**
 * Rank order without sorting everything: a binary max-heap of matched documents, popped
 * only as far as packing needs. Rank order is score descending, then file order.
 */

export function ranksAbove(scores: Float64Array, a: number, b: number): boolean {
  const sa = scores[a]!;
  const sb = scores[b]!;
  return sa > sb || (sa === sb && a < b);
}
function siftDown(heap: Int32Array, size: number, start: number, scores: Float64Array): void {
  let i = start;
  const item = heap[i]!;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= size) break;
    const right = left + 1;
    const child = right < size && ranksAbove(scores, heap[right]!, heap[left]!) ? right : left;
    if (!ranksAbove(scores, heap[child]!, item)) break;
    heap[i] = heap[child]!;
    i = child;
  }
  heap[i] = item;
}

export function heapify(heap: Int32Array, size: number, scores: Float64Array): void {
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(heap, size, i, scores);
}

export function popTop(heap: Int32Array, size: number, scores: Float64Array): number {
  const top = heap[0]!;
  heap[0] = heap[size - 1]!;
  if (size > 1) siftDown(heap, size - 1, 0, scores);
  return top;
}

