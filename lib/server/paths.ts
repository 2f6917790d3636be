import path from 'node:path';
import { parseEnv, type Env } from '../env';
import { kbCacheFile } from '../knowledge/disk-cache';

/**
 * Every path the server uses, resolved once against its working directory (the composition
 * root, app.ts, and the CLIs read them from here; nothing else resolves KB_PATH).
 */
export interface ServerPaths {
  /** The knowledge base folder or file (KB_PATH). */
  kb: string;
  /** The parsed KB's cache file (KB_CACHE_PATH, one file per KB folder); undefined when the cache is off. */
  kbCache: string | undefined;
  /** The SQLite file (TRACE_DB_PATH; unused with DATABASE_URL). */
  traceDb: string;
  /** Where the server keeps its own files (the visitor secret): TRACE_DB_PATH's folder. */
  dataDir: string;
}

export function resolvePaths(settings: Pick<Env, 'KB_PATH' | 'KB_CACHE_PATH' | 'TRACE_DB_PATH'>, cwd = process.cwd()): ServerPaths {
  const kb = path.resolve(/* turbopackIgnore: true */ cwd, settings.KB_PATH);
  const cache = kbCacheFile(settings.KB_CACHE_PATH, kb);
  const traceDb = path.resolve(/* turbopackIgnore: true */ cwd, settings.TRACE_DB_PATH);
  return { kb, kbCache: cache && path.resolve(/* turbopackIgnore: true */ cwd, cache), traceDb, dataDir: path.dirname(traceDb) };
}

/** The environment (validated: lib/env.ts) and the paths, as the server and the CLIs read them: parsed once, resolved once. */
export function serverSettings(source: Record<string, string | undefined> = process.env, cwd = process.cwd()): { env: Env; paths: ServerPaths } {
  const env = parseEnv(source);
  return { env, paths: resolvePaths(env, cwd) };
}
