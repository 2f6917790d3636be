import { createHash } from 'node:crypto';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Token counts for budgets, with the o200k_base encoding (GPT-4o and later).
 * Budgets are in real tokens: no characters-divided-by-four estimate anywhere.
 */
export function countTokens(text: string): number {
  return countO200k(text);
}

export type CountTokens = (text: string) => number;

/**
 * Counts tokens once per distinct text: a map from a SHA-1 of the text to its count.
 * Hashing is ~50× cheaper than tokenizing, so a reload of a KB whose files barely changed
 * tokenizes only the blocks that did. One counter lives as long as the KB holder, so it
 * spans reloads; `toJSON` / `TokenCounter.from` let a caller keep it on disk.
 */
export class TokenCounter {
  private readonly counts: Map<string, number>;
  private used = new Set<string>();
  /** How many texts this counter has tokenized (the rest of its answers came from the cache). */
  tokenized = 0;

  constructor(entries: Iterable<[string, number]> = []) {
    this.counts = new Map(entries);
  }

  static from(json: unknown): TokenCounter {
    const ok = Array.isArray(json) && json.every((e) => Array.isArray(e) && typeof e[0] === 'string' && Number.isInteger(e[1]));
    return new TokenCounter(ok ? (json as [string, number][]) : []);
  }

  count = (text: string): number => {
    const key = createHash('sha1').update(text).digest('base64');
    this.used.add(key);
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    const n = countO200k(text);
    this.tokenized++;
    this.counts.set(key, n);
    return n;
  };

  /** Forgets every count not asked for since the last prune: called after each load, so edits cannot grow it without bound. */
  prune(): void {
    for (const key of this.counts.keys()) if (!this.used.has(key)) this.counts.delete(key);
    this.used = new Set();
  }

  toJSON(): [string, number][] {
    return [...this.counts];
  }
}
