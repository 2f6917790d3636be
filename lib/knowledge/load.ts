import { assistantInstructions } from '../ai/prompt';
import type { KnowledgeEmbeddings } from './embeddings';
import {
  createRetrievalIndex,
  createRetrievalIndexAsync,
  kbPages,
  loadKnowledgeBase,
  loadKnowledgeBaseAsync,
  TokenCounter,
  type KbPage,
  type KnowledgeBase,
  type LoadOptions,
  type RetrievalIndex,
  type PackedSectionTerms,
  type ParsePool,
  PartsCache,
  splitOnPool,
} from '../retrieval/index';

/** The knowledge base as the chat uses it: the selector's index and where it came from. */
export interface Knowledge {
  /** Absolute path of the KB folder or file. */
  path: string;
  index: RetrievalIndex;
  /** What was read: files, identity, skipped files, notices (the index holds the sections as scored). */
  kb: KnowledgeBase;
  /** Files read, relative to the KB root. */
  files: readonly string[];
  loadedAt: Date;
  /** How long loading, tokenizing and indexing took. */
  loadMs: number;
  /** One line for the log: files read / skipped / ignored, sections, parts, tokens, time. */
  summary: string;
  /** The assistant's instructions for this KB's identity (assistant.md), built once per load. */
  instructions: string;
  /** The KB's pages by file: titles and URLs of a reply's sources (lib/retrieval/kb/pages.ts). */
  pages: ReadonlyMap<string, KbPage>;
  /** The section embeddings of the semantic stage (embeddings.ts), when it is on. */
  embeddings?: KnowledgeEmbeddings;
}

/** The selector settings a server's KB is indexed with (KB_BUDGET, KB_FLOOR). */
export interface KnowledgeConfig {
  budget?: number;
  floor?: number;
}

const number = (n: number) => n.toLocaleString('en-US');

/** "12 files read, 1 skipped, 3 ignored; 235 sections (2 split into 5 parts), 40,970 tokens; 512 ms". */
export function loadSummary(kb: KnowledgeBase, index: RetrievalIndex, ms: number): string {
  const ignored = kb.ignored.hidden + kb.ignored.nodeModules + kb.ignored.other;
  const parts = index.sections.filter((s) => s.part);
  const split = new Set(parts.map((s) => s.part!.sectionId)).size;
  return (
    `${number(kb.files.length)} files read, ${number(kb.skipped.length)} skipped, ${number(ignored)} ignored; ` +
    `${number(kb.sections.length)} sections${split ? ` (${number(split)} split into ${number(parts.length)} parts)` : ''}, ` +
    `${number(index.kbTokens)} tokens; ${Math.round(ms)} ms`
  );
}

/** The loader's options, and the split parts of long sections kept across loads (a fresh cache when absent). */
export interface KnowledgeLoadOptions extends LoadOptions {
  parts?: PartsCache;
}

function indexed(kbPath: string, kb: KnowledgeBase, index: RetrievalIndex, caches: { tokens: TokenCounter; parts: PartsCache }, started: number): Knowledge {
  caches.tokens.prune();
  caches.parts.prune();
  const loadMs = performance.now() - started;
  const instructions = assistantInstructions(kb.identity);
  const pages = kbPages(kb.sections, kb.pageUrls, kb.identity.docsUrl);
  return { path: kbPath, index, kb, files: kb.files, loadedAt: new Date(), loadMs, summary: loadSummary(kb, index, loadMs), instructions, pages };
}

/**
 * Loads and indexes the knowledge base at `kbPath` (absolute: lib/server/paths.ts). A broken
 * unpinned file is skipped (listed in `kb.skipped`); anything that would serve the KB without
 * its rules throws the selector's KnowledgeBaseError (`file:line: reason`), a budget the
 * pinned block does not fit in throws RetrievalConfigError.
 */
export function loadKnowledge(kbPath: string, config: KnowledgeConfig = {}, options: KnowledgeLoadOptions = {}): Knowledge {
  const started = performance.now();
  const tokens = options.tokens ?? new TokenCounter();
  const parts = options.parts ?? new PartsCache();
  const kb = loadKnowledgeBase(kbPath, { ...options, tokens });
  return indexed(kbPath, kb, createRetrievalIndex(kb, config, { count: tokens.count, parts }), { tokens, parts }, started);
}

/**
 * The same with the event loop kept free (a running server: its first load, and reloads):
 * changed files are parsed on worker threads (lib/retrieval/kb/parse-pool.ts), their long
 * sections split on them too (select/split-on-pool.ts), and the index is built in slices of ~8 ms.
 */
export async function loadKnowledgeAsync(kbPath: string, config: KnowledgeConfig = {}, options: KnowledgeLoadOptions = {}): Promise<Knowledge> {
  const started = performance.now();
  const tokens = options.tokens ?? new TokenCounter();
  const parts = options.parts ?? new PartsCache();
  const sectionTerms = new Map<string, PackedSectionTerms>(); // analysed on the parse workers, taken by the index build
  const onParsed = (kb: KnowledgeBase, pool: ParsePool) => splitOnPool(kb, pool, config, parts, sectionTerms);
  const kb = await loadKnowledgeBaseAsync(kbPath, { ...options, tokens, sectionTerms, onParsed });
  const index = await createRetrievalIndexAsync(kb, config, { count: tokens.count, terms: sectionTerms, parts });
  return indexed(kbPath, kb, index, { tokens, parts }, started);
}
