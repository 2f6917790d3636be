import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderSectionBlock } from '../context-text';
import { KnowledgeBaseError } from '../errors';
import { rulesRefusal } from './declared-rules';
import { IDENTITY_FILE, parseIdentity, defaultIdentity } from './identity';
import { SYNONYMS_FILE, listKnowledgeFiles } from './list-files';
import { type ParsedDocument, parseDocument, looksPinned } from './parse-document';
import { assignSectionIds } from './section-ids';
import { ENGLISH } from '../query/languages';
import { parseSynonyms } from '../query/synonyms';
import { type CountTokens, TokenCounter } from '../tokens';
import type { KnowledgeBase, LoadNotice, Section, SkippedFile, UnreadablePath } from '../types';

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
}

interface LoadedDocument extends ParsedDocument {
  file: string;
}

function decodeUtf8(bytes: Buffer, relative: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const lenient = new TextDecoder('utf-8').decode(bytes);
    const line = lenient.slice(0, lenient.indexOf('\uFFFD')).split('\n').length;
    throw new KnowledgeBaseError('not valid UTF-8', relative, line);
  }
}

function readBytes(absolute: string, relative: string): Buffer {
  try {
    return readFileSync(absolute);
  } catch (error) {
    throw new KnowledgeBaseError(`cannot read file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, relative);
  }
}

function readUtf8(absolute: string, relative: string): string {
  return decodeUtf8(readBytes(absolute, relative), relative);
}

/** One document's sections, with ids and token counts (file order is set later, by `inFileOrder`). */
function documentSections(doc: LoadedDocument, count: CountTokens): { sections: Section[]; notices: LoadNotice[] } {
  const { ids, notices } = assignSectionIds(doc.file, doc.sections);
  const sections = doc.sections.map((parsed, i) => {
    const section: Section = {
      id: ids[i]!,
      title: parsed.title,
      parents: parsed.parents,
      source: doc.file,
      line: parsed.line,
      text: parsed.text,
      tokens: 0,
      order: 0,
      pinned: parsed.pinned,
    };
    section.tokens = count(renderSectionBlock(section));
    return section;
  });
  return { sections, notices: [...doc.notices, ...notices] };
}

export interface BuiltDocument {
  file: string;
  order?: number;
  /** Front matter `url`: where customers read the page. */
  url?: string;
  /** The page's own language (front matter `lang:`, `<html lang>`); absent: the KB's default. */
  lang?: string;
  sections: Section[];
  notices: LoadNotice[];
}

/** All sections in file order (front matter `order` first, ascending; then as given), `order` numbered, each with its file's language or `language`. */
function inFileOrder(documents: readonly BuiltDocument[], language: string): { sections: Section[]; notices: LoadNotice[] } {
  const ordered = documents.map((doc, i) => ({ doc, i })).sort((a, b) => (a.doc.order ?? Infinity) - (b.doc.order ?? Infinity) || a.i - b.i);
  // Copies: a cached document's sections are shared with the previous load, which may still be in service.
  const sections = ordered.flatMap(({ doc }) => doc.sections.map((s) => ({ ...s, language: doc.lang ?? language }))).map((s, i) => ({ ...s, order: i }));
  return { sections, notices: ordered.flatMap(({ doc }) => doc.notices) };
}

function buildDocument(doc: LoadedDocument, count: CountTokens): BuiltDocument {
  return { file: doc.file, order: doc.order, ...(doc.url ? { url: doc.url } : {}), ...(doc.lang ? { lang: doc.lang } : {}), ...documentSections(doc, count) };
}

/**
 * Parses in-memory sources (path relative to the root → text) into sections, strictly:
 * any source that cannot be parsed throws. For tests, benchmarks and fixtures.
 */
export function sectionsFromSources(sources: ReadonlyArray<{ file: string; text: string }>, count: CountTokens = new TokenCounter().count, language = ENGLISH): Section[] {
  return inFileOrder(sources.map(({ file, text }) => buildDocument({ file, ...parseDocument(file, text) }, count)), language).sections;
}

/** One document read and parsed (or taken from `cache` when its bytes did not change), or the reason it was skipped; throws when a pinned file is broken. */
function loadDocument(
  root: string,
  file: string,
  pinnedFiles: ReadonlySet<string>,
  count: CountTokens,
  cache: { previous?: ReadonlyMap<string, BuiltDocument>; next: Map<string, BuiltDocument>; hits: number },
): BuiltDocument | SkippedFile {
  let raw: Buffer | undefined;
  try {
    raw = readBytes(path.join(root, file), file);
    const key = `${file}\0${createHash('sha1').update(raw).digest('base64')}`;
    const cached = cache.previous?.get(key);
    if (cached) cache.hits++;
    const built = cached ?? buildDocument({ file, ...parseDocument(file, decodeUtf8(raw, file)) }, count);
    cache.next.set(key, built);
    return built;
  } catch (error) {
    if (!(error instanceof KnowledgeBaseError)) throw error;
    const pinned = pinnedFiles.has(file) || (raw !== undefined && looksPinned(new TextDecoder('utf-8').decode(raw)));
    if (pinned) throw new KnowledgeBaseError(`${error.reason} (a pinned file: the knowledge base is not served without it)`, error.file, error.line);
    return { file, line: error.line, reason: error.reason, message: error.message, ...(raw === undefined ? { unread: true as const } : {}) };
  }
}

/**
 * The loader as steps: it yields after every few files, so the async form can keep the
 * event loop responsive while a large KB loads; the sync form runs it straight through.
 */
function* loadSteps(kbPath: string, options: LoadOptions): Generator<void, KnowledgeBase> {
  const listing = listKnowledgeFiles(kbPath);
  const { root } = listing;
  const rootUnreadable = listing.unreadable.find((u) => u.path === './');
  if (rootUnreadable) throw new KnowledgeBaseError(`cannot read folder: ${rootUnreadable.code}`, kbPath);
  if (listing.documents.length === 0) {
    throw new KnowledgeBaseError('no documents (.md, .markdown, .mdx, .html, .htm) in this folder', kbPath);
  }
  const count = (options.tokens ?? new TokenCounter()).count;
  const pinnedFiles = options.pinnedFiles ?? new Set<string>();
  const documents: BuiltDocument[] = [];
  const skipped: SkippedFile[] = listing.unreadable.map(unreadableSkip);
  const cache = { previous: options.documents && new Map(options.documents), next: options.documents ?? new Map<string, BuiltDocument>(), hits: 0 };
  cache.next.clear();
  let since = performance.now();
  for (const file of listing.documents) {
    const loaded = loadDocument(root, file, pinnedFiles, count, cache);
    if ('sections' in loaded) documents.push(loaded);
    else skipped.push(loaded);
    if (performance.now() - since > 8) {
      yield;
      since = performance.now();
    }
  }
  const has = (name: string) => listing.config.includes(name);
  const identity = has(IDENTITY_FILE) ? parseIdentity(IDENTITY_FILE, readUtf8(path.join(root, IDENTITY_FILE), IDENTITY_FILE)) : defaultIdentity();
  const { sections, notices } = inFileOrder(documents, identity.language);
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
    cachedFiles: cache.hits,
    repeatedFolders: listing.repeatedFolders,
    ...(refusal ? { refusal } : {}),
  };
}

/** A folder that could not be listed, or a link that could not be followed: skipped, and nobody knows what it held. */
function unreadableSkip({ path: where, code }: UnreadablePath): SkippedFile {
  const reason = where.endsWith('/') ? `cannot read folder: ${code}` : `cannot follow link: ${code}`;
  return { file: where, reason, message: `${where}: ${reason}`, unread: true };
}

/** Loads and validates a knowledge base from a folder or a single document. */
export function loadKnowledgeBase(kbPath: string, options: LoadOptions = {}): KnowledgeBase {
  const steps = loadSteps(kbPath, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The same load, yielding to the event loop every ~8 ms of work (for reloads in a running server). */
export async function loadKnowledgeBaseAsync(kbPath: string, options: LoadOptions = {}): Promise<KnowledgeBase> {
  const steps = loadSteps(kbPath, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
