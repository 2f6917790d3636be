/**
 * A memo of at most `limit` entries: past it, the entry used least recently is dropped. A Map
 * keeps its keys in insertion order, so a hit moves its key to the end and the first key is the
 * one to drop. For answers computed from what customers type, which would otherwise grow a memo
 * with every new word.
 */
export class LruMemo<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`an LruMemo needs a limit of at least 1 entry, got ${limit}`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }
}

/**
 * A copy of `text` that keeps nothing else alive. V8 stores a substring of 13 or more characters
 * as a view into the string it was cut from, so a word cut from a 4,000-character question and
 * kept as a memo key would keep the whole question.
 */
export function ownCopy(text: string): string {
  return [...text].join('');
}
