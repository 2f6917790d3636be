import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PartsCache, TokenCounter, type BuiltDocument, type PartText } from '../retrieval/index';

/**
 * The parsed KB on disk: every document's sections by path and content hash, the token counts
 * by block hash and the parts of long sections by block hash — what the loader's in-memory
 * caches hold (lib/retrieval/kb/load.ts, lib/retrieval/select/parts-cache.ts).
 * A process that starts on a KB it (or another instance with the same file) has seen
 * re-reads and hashes the files, and parses and tokenizes only those that changed.
 *
 * The file is only a cache: a missing, unreadable, corrupt or older-format file is ignored
 * (the KB is parsed as if it were not there) and rewritten after the next load. Written to
 * a temporary file and renamed, so a reader never sees half a file.
 */

/**
 * Bump when what the parser produces for the same bytes changes (formats.ts, markdown.ts, ids.ts,
 * context.ts; 3: a page's `lang`; 4: the split parts; 5: HTML headings without permalinks, raised
 * to level 1; 6: HTML tables of contents by id dropped; 7: HTML anchors without href kept as text; 8: DocBook's
 * admonitions as quotes; 9: DocBook, gtk-doc and Texinfo navigation panels and <hr> dropped; 10: their stricter shapes;
 * 11: DocBook's Q&A tables as headings; 12: only DocBook's, questions' code kept).
 */
export const KB_CACHE_FORMAT = 'kb-sections-12';

/**
 * The cache file of one KB: one file per KB folder (by a hash of its absolute path, `kbPath`) in
 * the cache folder, so servers on different KBs in one working directory do not overwrite each
 * other's cache. Undefined when the cache is off (empty folder setting).
 */
export function kbCacheFile(cacheDir: string, kbPath: string): string | undefined {
  if (!cacheDir) return undefined;
  const key = createHash('sha1').update(kbPath).digest('hex').slice(0, 16);
  return path.join(cacheDir, `${key}.json`);
}

export interface KbCaches {
  tokens: TokenCounter;
  documents: Map<string, BuiltDocument>;
  parts: PartsCache;
}

interface CacheFile {
  format: string;
  tokens: [string, number][];
  documents: [string, BuiltDocument][];
  parts: [string, PartText[]][];
}

export function readKbCache(file: string): KbCaches | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    if (data.format !== KB_CACHE_FORMAT || !Array.isArray(data.documents)) return undefined;
    return { tokens: TokenCounter.from(data.tokens), documents: new Map(data.documents), parts: PartsCache.from(data.parts) };
  } catch {
    return undefined;
  }
}

export function writeKbCache(file: string, caches: KbCaches): void {
  const data: CacheFile = { format: KB_CACHE_FORMAT, tokens: caches.tokens.toJSON(), documents: [...caches.documents], parts: caches.parts.toJSON() };
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(data));
  renameSync(temporary, file);
}
