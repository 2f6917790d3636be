import { createHash } from 'node:crypto';
import { renderSectionBlock } from '../context-text';
import type { Section } from '../types';

/**
 * The parts long sections were split into (split.ts), kept across loads like the token counts
 * (tokens.ts): by the section's block (its title path and text) and the part size, each part's
 * text and token count. Splitting parses the section's markdown and counts every piece (for
 * Node.js's API docs, most of the index build); with this, a reload of unchanged files splits
 * nothing, and a cold load can take the parts split on the parse workers.
 */

export interface PartText {
  text: string;
  tokens: number;
}

/** The key of a section's parts at `maxTokens`. */
export function partsKey(section: Section, maxTokens: number): string {
  const known = keys.get(section);
  if (known?.maxTokens === maxTokens) return known.key;
  const key = `${maxTokens}\0${createHash('sha1').update(renderSectionBlock(section)).digest('base64')}`;
  keys.set(section, { maxTokens, key });
  return key;
}

/** Keys made, by section: a load asks for each long section's key twice (split-on-pool.ts, then the index build), and a section's text is not changed in place. */
const keys = new WeakMap<Section, { maxTokens: number; key: string }>();

/** The parts of `section` from their texts and counts, built as splitSection builds them. */
export function partsOf(section: Section, texts: readonly PartText[]): Section[] {
  return texts.map(({ text, tokens }, i) => {
    const part: Section = { ...section, id: `${section.id}~${i + 1}`, text, part: { index: i + 1, count: texts.length, sectionId: section.id } };
    part.tokens = tokens;
    return part;
  });
}

export class PartsCache {
  private readonly entries: Map<string, PartText[]>;
  private used = new Set<string>();

  constructor(entries: Iterable<[string, PartText[]]> = []) {
    this.entries = new Map(entries);
  }

  static from(json: unknown): PartsCache {
    const ok = Array.isArray(json) && json.every((e) => Array.isArray(e) && typeof e[0] === 'string' && Array.isArray(e[1]));
    return new PartsCache(ok ? (json as [string, PartText[]][]) : []);
  }

  get(key: string): PartText[] | undefined {
    const texts = this.entries.get(key);
    if (texts) this.used.add(key);
    return texts;
  }

  set(key: string, texts: PartText[]): void {
    this.entries.set(key, texts);
    this.used.add(key);
  }

  /** Forgets every entry not asked for since the last prune (after each load, as TokenCounter does). */
  prune(): void {
    for (const key of this.entries.keys()) if (!this.used.has(key)) this.entries.delete(key);
    this.used = new Set();
  }

  toJSON(): [string, PartText[]][] {
    return [...this.entries];
  }
}
