import type { List, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { renderSectionBlock } from '../context-text';
import { type Steps, runSteps } from '../steps';
import { type PartsCache, partsKey, partsOf } from './parts-cache';
import type { CountTokens } from '../tokens';
import type { Section } from '../types';

/**
 * Long sections are split so that everything can be sent.
 *
 * A section whose block is longer than `maxTokens` is cut into consecutive parts that
 * each fit, at block boundaries: paragraphs, list items, table rows (each part repeats the
 * table's header row), lines of a code block (each part re-fenced); a single paragraph too
 * long on its own is cut between sentences, a sentence between words — never inside a word,
 * unless a single "word" is itself longer than a part.
 *
 * Each part keeps the section's heading path, is titled "(part 2 of 4)" in the context
 * text (context.ts), has the id `${section.id}~${part}` and is scored on its own.
 * Pinned sections are never split (a pinned block over the budget is a configuration error).
 */


/**
 * micromark's inline constructs, which a split never reads: it cuts at blocks (their offsets,
 * list items, a code block's info and lines) and within prose by sentences and words. CommonMark
 * finds blocks before inlines, and no inline construct spans a block boundary, so without them
 * the blocks and their offsets are the same (compared on every section of Next.js's, the AI
 * SDK's, undici's, Node.js's docs and the Debian Reference in its four languages: none of 21,000
 * splits differ) and a split is 25–40% faster. Escapes and entities stay: a code block's info
 * string decodes them.
 */
const INLINE_CONSTRUCTS = [
  'attention', 'autolink', 'codeText', 'hardBreakEscape', 'htmlText', 'labelEnd', 'labelStartImage', 'labelStartLink',
  'wwwAutolink', 'protocolAutolink', 'emailAutolink', 'gfmFootnoteCall', 'gfmPotentialFootnoteCall', 'strikethrough', 'tasklistCheck',
];
/** A section's text as mdast blocks: CommonMark + GFM without the inline constructs (split.test.ts compares it with the full parse). */
export const blockTree = (text: string) =>
  fromMarkdown(text, { extensions: [gfm(), { disable: { null: INLINE_CONSTRUCTS } }], mdastExtensions: [gfmFromMarkdown()] });
const sliceOf = (text: string, node: { position?: { start: { offset?: number }; end: { offset?: number } } }) =>
  text.slice(node.position!.start.offset!, node.position!.end.offset!);

/** Greedy grouping of pieces, joined by `joiner`, so that each group's estimated count stays within `target`. */
function group(pieces: readonly string[], joiner: string, target: number, count: CountTokens): string[] {
  const groups: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const piece of pieces) {
    const t = count(piece) + 1;
    if (current.length && tokens + t > target) {
      groups.push(current.join(joiner));
      current = [];
      tokens = 0;
    }
    current.push(piece);
    tokens += t;
  }
  if (current.length) groups.push(current.join(joiner));
  return groups;
}

function splitWord(word: string, target: number, count: CountTokens): string[] {
  if (count(word) <= target || word.length < 2) return [word];
  const half = Math.ceil(word.length / 2);
  return [...splitWord(word.slice(0, half), target, count), ...splitWord(word.slice(half), target, count)];
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Prose: by sentences, then words, then (a single giant word) characters. */
function splitProse(text: string, target: number, count: CountTokens): string[] {
  const parts = [...sentences.segment(text)].map((s) => s.segment).flatMap((sentence) => {
    if (count(sentence) <= target) return [sentence];
    const words = sentence.match(/\S+\s*/g) ?? [sentence];
    return group(words.flatMap((w) => splitWord(w, target, count)), '', target, count);
  });
  return group(parts, '', target, count).map((p) => p.trim()).filter(Boolean);
}

function splitList(text: string, list: List, target: number, count: CountTokens): string[] {
  const items = list.children.map((item) => sliceOf(text, item));
  return group(items.flatMap((item) => (count(item) > target ? splitProse(item, target, count) : [item])), '\n', target, count);
}

function splitTable(text: string, table: Table, target: number, count: CountTokens): string[] {
  const lines = sliceOf(text, table).split('\n');
  const header = lines.slice(0, 2).join('\n');
  const rows = lines.slice(2);
  return group(rows, '\n', target - count(header) - 1, count).map((rows) => `${header}\n${rows}`);
}

function splitCode(source: string, lang: string | null | undefined, value: string, target: number, count: CountTokens): string[] {
  const fence = source.trimStart().startsWith('~~~') ? '~~~' : '```';
  const open = `${fence}${lang ?? ''}`;
  return group(value.split('\n'), '\n', target - count(open) - 4, count).map((lines) => `${open}\n${lines}\n${fence}`);
}

function splitBlock(text: string, node: RootContent, target: number, count: CountTokens): string[] {
  const source = sliceOf(text, node);
  if (count(source) <= target) return [source];
  if (node.type === 'list') return splitList(text, node, target, count);
  if (node.type === 'table') return splitTable(text, node, target, count);
  if (node.type === 'code') return splitCode(source, node.lang, node.value, target, count);
  return splitProse(source, target, count);
}

function partsAt(section: Section, nodes: readonly RootContent[], target: number, count: CountTokens): Section[] {
  const blocks = nodes.flatMap((node) => splitBlock(section.text, node, target, count));
  const texts = group(blocks, '\n\n', target, count);
  return texts.map((text, i) => {
    const part: Section = { ...section, id: `${section.id}~${i + 1}`, text, part: { index: i + 1, count: texts.length, sectionId: section.id } };
    part.tokens = count(renderSectionBlock(part));
    return part;
  });
}

/** The parts of one section, each at most `maxTokens` where the text allows it. */
export function splitSection(section: Section, maxTokens: number, count: CountTokens): Section[] {
  const counted = countingOnce(count);
  const nodes = blockTree(section.text).children;
  const heading = counted(renderSectionBlock({ ...section, text: '', part: { index: 99, count: 99 } }));
  let target = maxTokens - heading;
  let parts = partsAt(section, nodes, target, counted);
  for (let attempt = 0; attempt < 6 && parts.some((p) => p.tokens > maxTokens); attempt++) {
    target = Math.floor(target * 0.85);
    parts = partsAt(section, nodes, target, counted);
  }
  return parts;
}

/** `count`, asked once per distinct text: a split counts each block, then each group of blocks, and again at each smaller target. */
function countingOnce(count: CountTokens): CountTokens {
  const known = new Map<string, number>();
  return (text) => {
    let n = known.get(text);
    if (n === undefined) known.set(text, (n = count(text)));
    return n;
  };
}

/**
 * Every unpinned section over `maxTokens` replaced by its parts; `order` renumbered so
 * that `sections[i].order === i` still holds.
 */
export function splitLongSections(sections: readonly Section[], maxTokens: number, count: CountTokens, cache?: PartsCache): Section[] {
  return runSteps(splitLongSectionsSteps(sections, maxTokens, count, cache));
}

/** Is this section split into parts at `maxTokens`? */
export function isSplit(section: Section, maxTokens: number): boolean {
  return !section.pinned && section.tokens > maxTokens;
}

/** The same as steps (steps.ts): it yields after each section it splits; parts in `cache` are taken from it, new ones put in it. */
export function* splitLongSectionsSteps(sections: readonly Section[], maxTokens: number, count: CountTokens, cache?: PartsCache): Steps<Section[]> {
  const out: Section[] = [];
  for (const s of sections) {
    if (!isSplit(s, maxTokens)) {
      out.push(s);
      continue;
    }
    const key = cache && partsKey(s, maxTokens);
    const known = key !== undefined ? cache!.get(key) : undefined;
    if (known) {
      out.push(...partsOf(s, known));
      yield; // the key hashed the section's text: a slice of work too
      continue;
    }
    const parts = splitSection(s, maxTokens, count);
    if (key !== undefined) cache!.set(key, parts.map((p) => ({ text: p.text, tokens: p.tokens })));
    out.push(...parts);
    yield;
  }
  if (out.length === sections.length) return sections as Section[];
  return out.map((s, i) => (s.order === i ? s : { ...s, order: i }));
}
