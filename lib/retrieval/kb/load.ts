import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { KnowledgeBaseError } from '../errors';
import { type BuiltDocument, buildDocument, decodeUtf8 } from './build-document';
import { rulesRefusal } from './declared-rules';
import { IDENTITY_FILE, parseIdentity, defaultIdentity } from './identity';
import { SYNONYMS_FILE, type KnowledgeFiles, listKnowledgeFiles } from './list-files';
import { type ParseOptions, looksPinned } from './parse-document';
import type { PackedSectionTerms } from './section-terms';
import { type ParseOutcome, ParsePool, WorkerLostError, defaultWorkerCount } from './parse-pool';
import { ENGLISH } from '../query/languages';
import { parseSynonyms } from '../query/synonyms';
import { type CountTokens, TokenCounter } from '../tokens';
import { type Steps, eventLoopPause, runSteps, runStepsAsync } from '../steps';
import type { KnowledgeBase, LoadNotice, ParseReport, Section, SkippedFile, UnreadablePath, WorkerFigures } from '../types';

export type { BuiltDocument } from './build-document';

/**
 * Loads a knowledge base from a folder (every document below it, see files.ts) or from a
 * single document. "File order" is path order, except that files with a front matter
 * `order: N` come first, ascending.
 *
 * What is refused, and what is skipped (serving without a rule is worse than not serving):
 * - A broken **unpinned** file (bad UTF-8, malformed front matter, MDX that does not parse)
 *   is left out and listed in `skipped` (`file:line: reason`): the rest serves.
 * - A broken file that is, or asks to be, **pinned** (front matter `pinned:`, or a pin marker
 *   anywhere in its text, or a file pinned in the KB in service: `options.pinnedFiles`)
 *   refuses the whole KB.
 * - A path whose content cannot be read at all (a file or folder without permission, a
 *   dangling link) may hold a rule: it refuses the KB, unless the KB declares its rules
 *   (`rules:` in assistant.md) and they are all found; then it is skipped. Declared rules
 *   that are missing refuse the KB too (declared-rules.ts).
 * - A missing or empty folder, a KB with no sections, a broken `synonyms.json` or
 *   `assistant.md` refuse the KB too. Every refusal is a KnowledgeBaseError naming `file:line`.
 */

export interface LoadOptions {
  /** Token counts cached across loads (by content hash); a fresh one when absent. */
  tokens?: TokenCounter;
  /**
   * Parsed documents from the previous load, by path and a hash of the file's bytes: a
   * reload parses only the files that changed. Replaced in place by this load's entries.
   */
  documents?: Map<string, BuiltDocument>;
  /** Files pinned in the KB currently served: a broken edit of one of them refuses the reload. */
  pinnedFiles?: ReadonlySet<string>;
  /**
   * A load that would serve the KB without its rules (declared-rules.ts): `refuse` (the
   * default) throws a KnowledgeBaseError; `report` returns the KB with `refusal` set, for
   * the tools that report on a KB rather than serve it (kb:check, kb:impact).
   */
  missingRules?: 'refuse' | 'report';
  /**
   * The async load only: filled with the terms of the sections in English analysed on the
   * parse workers, by section id, for the index build to take (select/build-index.ts `terms`).
   */
  sectionTerms?: Map<string, PackedSectionTerms>;
  /** The async load only: parse on this pool (its owner closes it) rather than on one of its own. */
  pool?: ParsePool;
  /** The async load only: the worker its own pool runs, when not the one the code finds (parse-pool.ts `startWorker`). */
  workerScript?: URL;
  /** The async load only, when files were parsed on workers: more work for the pool before it closes (select/split-on-pool.ts). */
  onParsed?: (kb: KnowledgeBase, pool: ParsePool) => Promise<void>;
  /**
   * The sync load only: `false` reads every markdown file through micromark, never the line
   * scanner (markdown-scan.ts): what the fast path is checked against (load-scanner.test.ts).
   */
  scanMarkdown?: boolean;
  /** The async load only: told after each file is parsed or taken from the cache (for /api/health's progress). */
  onProgress?: (progress: LoadProgress) => void;
}

export interface LoadProgress {
  /** Document files done (parsed, taken from the cache, or skipped). */
  done: number;
  total: number;
}

/**
 * Below this many bytes to parse, the async load parses on the main thread: starting workers
 * (~0.3 s bundled, more under tsx) costs more than it saves, and no one file is long enough
 * to hold the event loop for long (bench:load measures both).
 */
export const POOL_MIN_BYTES = 256 * 1024;

/** Sections copied between yields (inFileOrderSteps): a 10,000-section KB copied in one go held the event loop ~70 ms. */
const SECTIONS_PER_STEP = 1000;

/** All sections in file order (front matter `order` first, ascending; then as given), `order` numbered, each with its file's language or `language`. */
function* inFileOrderSteps(documents: readonly BuiltDocument[], language: string): Steps<{ sections: Section[]; notices: LoadNotice[] }> {
  const ordered = documents.map((doc, i) => ({ doc, i })).sort((a, b) => (a.doc.order ?? Infinity) - (b.doc.order ?? Infinity) || a.i - b.i);
  // Copies: a cached document's sections are shared with the previous load, which may still be in service.
  const sections: Section[] = [];
  for (const { doc } of ordered) {
    for (const s of doc.sections) {
      sections.push({ ...s, language: doc.lang ?? language, order: sections.length });
      if (sections.length % SECTIONS_PER_STEP === 0) yield;
    }
  }
  return { sections, notices: ordered.flatMap(({ doc }) => doc.notices) };
}

/**
 * Parses in-memory sources (path relative to the root → text) into sections, strictly:
 * any source that cannot be parsed throws. For tests, benchmarks and fixtures.
 */
export function sectionsFromSources(sources: ReadonlyArray<{ file: string; text: string }>, count: CountTokens = new TokenCounter().count, language = ENGLISH): Section[] {
  return runSteps(inFileOrderSteps(sources.map(({ file, text }) => buildDocument(file, text, count)), language)).sections;
}

function readBytes(absolute: string, relative: string): Buffer {
  try {
    return readFileSync(absolute);
  } catch (error) {
    throw readError(error, relative);
  }
}

function readError(error: unknown, relative: string): KnowledgeBaseError {
  return new KnowledgeBaseError(`cannot read file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, relative);
}

function readUtf8(absolute: string, relative: string): string {
  return decodeUtf8(readBytes(absolute, relative), relative);
}

/** One document file as read: its bytes and cache key, what the parse cache holds for them, or why it could not be read. */
interface FileRead {
  file: string;
  raw?: Buffer;
  key?: string;
  cached?: BuiltDocument;
  unreadable?: KnowledgeBaseError;
}

function readDocumentFile(root: string, file: string, previous: ReadonlyMap<string, BuiltDocument> | undefined): FileRead {
  let raw: Buffer;
  try {
    raw = readBytes(path.join(root, file), file);
  } catch (error) {
    if (error instanceof KnowledgeBaseError) return { file, unreadable: error };
    throw error;
  }
  return fileRead(file, raw, previous);
}

function fileRead(file: string, raw: Buffer, previous: ReadonlyMap<string, BuiltDocument> | undefined): FileRead {
  const key = `${file}\0${createHash('sha1').update(raw).digest('base64')}`;
  return { file, raw, key, cached: previous?.get(key) };
}

/** Files at least this large are read off the event loop (Node.js's all.html, 15.6 MB, took ~25 ms to read on it). */
const READ_ASYNC_MIN_BYTES = 1024 * 1024;

/** The same, with a large file read on libuv's threads rather than this one. */
async function readDocumentFileAsync(root: string, file: string, previous: ReadonlyMap<string, BuiltDocument> | undefined): Promise<FileRead> {
  const absolute = path.join(root, file);
  let size: number;
  try {
    size = statSync(absolute).size;
  } catch {
    return readDocumentFile(root, file, previous); // names the error as a read does
  }
  if (size < READ_ASYNC_MIN_BYTES) return readDocumentFile(root, file, previous);
  let raw: Buffer;
  try {
    raw = await readFile(absolute);
  } catch (error) {
    return { file, unreadable: readError(error, file) };
  }
  return fileRead(file, raw, previous);
}

/**
 * A file's bytes for a parse on this thread after its worker was lost: they went to the worker
 * (parse-pool.ts hands large ones over rather than copying them), so they are read again.
 */
function bytesForFallback(root: string, read: FileRead): FileRead {
  if (read.raw!.byteLength > 0) return read;
  const again = readDocumentFile(root, read.file, undefined);
  // The file as it is now, cached by its own bytes; or why it can no longer be read.
  return Object.assign(read, again.raw ? { raw: again.raw, key: again.key } : { unreadable: again.unreadable });
}

/** Parses a file on this thread. */
function parseHere(read: FileRead, count: CountTokens, options: ParseOptions = {}): ParseOutcome {
  try {
    return { document: buildDocument(read.file, decodeUtf8(read.raw!, read.file), count, options) };
  } catch (error) {
    if (!(error instanceof KnowledgeBaseError)) throw error;
    return { failure: { reason: error.reason, line: error.line, looksPinned: looksPinned(new TextDecoder('utf-8').decode(read.raw!)) } };
  }
}

/** The files read so far and what became of them, in listing order. */
class LoadState {
  readonly documents: BuiltDocument[] = [];
  readonly skipped: SkippedFile[];
  readonly previous: ReadonlyMap<string, BuiltDocument> | undefined;
  readonly next: Map<string, BuiltDocument>;
  readonly pinnedFiles: ReadonlySet<string>;
  cachedFiles = 0;
  parsedFiles = 0;

  constructor(
    readonly listing: KnowledgeFiles,
    options: LoadOptions,
  ) {
    this.skipped = listing.unreadable.map(unreadableSkip);
    this.previous = options.documents && new Map(options.documents);
    this.next = options.documents ?? new Map<string, BuiltDocument>();
    this.next.clear();
    this.pinnedFiles = options.pinnedFiles ?? new Set<string>();
  }

  /**
   * Takes one file's document (parsed, or from the cache), or the reason it is skipped;
   * throws when a file that is (or asks to be) pinned cannot be read or parsed.
   */
  settle(read: FileRead, outcome: ParseOutcome | undefined, terms?: Map<string, PackedSectionTerms>): void {
    if (read.cached) {
      this.cachedFiles++;
      this.next.set(read.key!, read.cached);
      this.documents.push(read.cached);
      return;
    }
    if (outcome && 'document' in outcome) {
      if (terms && outcome.terms) outcome.document.sections.forEach((s, i) => terms.set(s.id, outcome.terms![i]!));
      this.parsedFiles++;
      this.next.set(read.key!, outcome.document);
      this.documents.push(outcome.document);
      return;
    }
    const error = read.unreadable ?? new KnowledgeBaseError(outcome!.failure.reason, read.file, outcome!.failure.line);
    const pinned = this.pinnedFiles.has(read.file) || (outcome !== undefined && outcome.failure.looksPinned);
    if (pinned) throw new KnowledgeBaseError(`${error.reason} (a pinned file: the knowledge base is not served without it)`, error.file, error.line);
    this.skipped.push({ file: read.file, line: error.line, reason: error.reason, message: error.message, ...(read.unreadable ? { unread: true as const } : {}) });
  }
}

/** The document files of a KB folder or file; throws when there is nothing to load. */
function listDocuments(kbPath: string): KnowledgeFiles {
  const listing = listKnowledgeFiles(kbPath);
  const rootUnreadable = listing.unreadable.find((u) => u.path === './');
  if (rootUnreadable) throw new KnowledgeBaseError(`cannot read folder: ${rootUnreadable.code}`, kbPath);
  if (listing.documents.length === 0) {
    throw new KnowledgeBaseError('no documents (.md, .markdown, .mdx, .html, .htm) in this folder', kbPath);
  }
  return listing;
}

/** The KB from the documents loaded: identity, synonyms, sections in file order; throws what the KB cannot be served with. */
function* finishSteps(kbPath: string, state: LoadState, options: LoadOptions, parsing: ParseReport): Steps<KnowledgeBase> {
  const { listing, documents, skipped } = state;
  const { root } = listing;
  const has = (name: string) => listing.config.includes(name);
  const identity = has(IDENTITY_FILE) ? parseIdentity(IDENTITY_FILE, readUtf8(path.join(root, IDENTITY_FILE), IDENTITY_FILE)) : defaultIdentity();
  const { sections, notices } = yield* inFileOrderSteps(documents, identity.language);
  if (sections.length === 0) {
    const why = skipped.length ? `: ${skipped.length} file(s) skipped, the first: ${skipped[0]!.message}` : '';
    throw new KnowledgeBaseError(`the knowledge base has no sections${why}`, kbPath);
  }
  const synonyms = has(SYNONYMS_FILE) ? parseSynonyms(SYNONYMS_FILE, readUtf8(path.join(root, SYNONYMS_FILE), SYNONYMS_FILE), identity.language) : [];
  const refusal = rulesRefusal(identity.rules, sections, skipped);
  if (refusal && options.missingRules !== 'report') throw new KnowledgeBaseError(refusal.reason, refusal.file, refusal.line);
  return {
    root,
    files: documents.map((d) => d.file),
    pageUrls: Object.fromEntries(documents.flatMap((d) => (d.url ? [[d.file, d.url]] : []))),
    sections,
    language: identity.language,
    synonyms,
    synonymsFile: has(SYNONYMS_FILE) ? SYNONYMS_FILE : undefined,
    identity,
    skipped,
    ignored: listing.ignored,
    notices,
    cachedFiles: state.cachedFiles,
    parsing,
    repeatedFolders: listing.repeatedFolders,
    ...(refusal ? { refusal } : {}),
  };
}

/** A folder that could not be listed, or a link that could not be followed: skipped, and nobody knows what it held. */
function unreadableSkip({ path: where, code }: UnreadablePath): SkippedFile {
  const reason = where.endsWith('/') ? `cannot read folder: ${code}` : `cannot follow link: ${code}`;
  return { file: where, reason, message: `${where}: ${reason}`, unread: true };
}

/** Loads and validates a knowledge base from a folder or a single document, on this thread. */
export function loadKnowledgeBase(kbPath: string, options: LoadOptions = {}): KnowledgeBase {
  const state = new LoadState(listDocuments(kbPath), options);
  const count = (options.tokens ?? new TokenCounter()).count;
  for (const file of state.listing.documents) {
    const read = readDocumentFile(state.listing.root, file, state.previous);
    state.settle(read, read.raw && !read.cached ? parseHere(read, count, { scanMarkdown: options.scanMarkdown }) : undefined);
  }
  return runSteps(finishSteps(kbPath, state, options, { parsedFiles: state.parsedFiles, workers: 0, figures: [] }));
}

/** The KB's default language as its identity file gives it, for the workers; undefined when that file is broken (the load says so in the end). */
function languageHint(listing: KnowledgeFiles): string | undefined {
  if (!listing.config.includes(IDENTITY_FILE)) return defaultIdentity().language;
  try {
    return parseIdentity(IDENTITY_FILE, readUtf8(path.join(listing.root, IDENTITY_FILE), IDENTITY_FILE)).language;
  } catch {
    return undefined;
  }
}

/** How many workers parse `misses` (the files whose bytes changed): one per core when they add up to POOL_MIN_BYTES or more, else none (the main thread parses them, yielding between files). */
function workerCount(misses: readonly FileRead[]): number {
  const wanted = misses.reduce((sum, r) => sum + r.raw!.byteLength, 0) >= POOL_MIN_BYTES ? defaultWorkerCount() : 0;
  return Math.min(wanted, misses.length);
}

/** What each worker did since `before` (a pool shared by several loads counts them all). */
function figuresSince(before: readonly WorkerFigures[], after: readonly WorkerFigures[]): WorkerFigures[] {
  return after.map((w, i) => {
    const b = before[i];
    return b ? { ...w, files: w.files - b.files, bytes: w.bytes - b.bytes, busyMs: w.busyMs - b.busyMs } : w;
  });
}

/** A worker that could not start or died: the file is parsed on this thread, and the load says why. */
class PoolFallback {
  reason: string | undefined;
  files = 0;
  note(error: Error): void {
    this.reason ??= error.message;
    this.files++;
  }
  describe(): string | undefined {
    return this.reason && `${this.files} file(s) parsed on the main thread: ${this.reason}`;
  }
}

/**
 * The same load with the event loop kept free: files are read and hashed in slices of ~8 ms,
 * the ones that changed are parsed on a pool of workers (parse-pool.ts) when they are many
 * (else on this thread, between yields), and each outcome is taken in listing order, so a
 * broken pinned file refuses the KB exactly as the sync load does.
 */
export async function loadKnowledgeBaseAsync(kbPath: string, options: LoadOptions = {}): Promise<KnowledgeBase> {
  const state = new LoadState(listDocuments(kbPath), options);
  const { documents: files, root } = state.listing;
  options.onProgress?.({ done: 0, total: files.length });
  const count = (options.tokens ?? new TokenCounter()).count;
  const reads: FileRead[] = [];
  const pauseReading = eventLoopPause();
  for (const file of files) {
    reads.push(await readDocumentFileAsync(root, file, state.previous));
    await pauseReading();
  }
  const misses = reads.filter((r) => r.raw && !r.cached);
  const language = options.sectionTerms && languageHint(state.listing);
  const workers = options.pool ? Math.min(options.pool.size, misses.length) : workerCount(misses);
  const progress = { done: 0, total: files.length };
  const oneDone = () => {
    progress.done++;
    options.onProgress?.({ ...progress });
  };
  const fallback = new PoolFallback();
  const figuresBefore = options.pool?.figures() ?? [];
  const outcomes = new Map<FileRead, Promise<ParseOutcome>>();
  const ownPool = workers > 0 && !options.pool ? new ParsePool(workers, options.workerScript) : undefined;
  const pool = workers > 0 ? (options.pool ?? ownPool) : undefined;
  try {
    if (pool) {
      const bySize = [...misses].sort((a, b) => b.raw!.byteLength - a.raw!.byteLength);
      for (const read of bySize) {
        const parsed = pool
          .parse(read.file, read.raw!, language)
          .catch((error: unknown) => {
            if (!(error instanceof WorkerLostError)) throw error; // the parser itself failed: as it would on this thread
            fallback.note(error);
            const here = bytesForFallback(root, read);
            return here.unreadable ? { failure: { reason: here.unreadable.reason, looksPinned: false } } : parseHere(here, count);
          })
          .finally(oneDone);
        parsed.catch(() => undefined); // awaited in listing order below; a load refused before then must not leave it unhandled
        outcomes.set(read, parsed);
      }
    }
    const pauseSettling = eventLoopPause();
    for (const read of reads) {
      const pending = outcomes.get(read);
      const outcome = pending ? await pending : read.raw && !read.cached ? parseHere(read, count) : undefined;
      if (!pending) oneDone();
      state.settle(read, outcome, options.sectionTerms);
      await pauseSettling();
    }
    const parsing: ParseReport = { parsedFiles: state.parsedFiles, workers, figures: [], ...(fallback.reason ? { fallback: fallback.describe() } : {}) };
    const kb = await runStepsAsync(finishSteps(kbPath, state, options, parsing));
    if (pool && options.onParsed) await options.onParsed(kb, pool);
    parsing.figures = figuresSince(figuresBefore, pool?.figures() ?? []);
    return kb;
  } finally {
    await ownPool?.close();
  }
}
