import 'server-only';
import path from 'node:path';
import { env } from '../env';
import { SqliteTraceStore } from './sqlite';
import type { TraceStore } from './types';

export type * from './types';

/**
 * The server's trace store: SQLite at TRACE_DB_PATH, opened once per process and kept on
 * globalThis so dev-mode hot reloads do not open a new handle on every edit.
 * Route handlers that use it run on Node (`runtime = 'nodejs'`).
 */
const cache = globalThis as typeof globalThis & { __lumacastTraceStore?: TraceStore };

export function getTraceStore(): TraceStore {
  if (!cache.__lumacastTraceStore) {
    const file = path.resolve(/* turbopackIgnore: true */ process.cwd(), env().TRACE_DB_PATH);
    cache.__lumacastTraceStore = new SqliteTraceStore(file);
  }
  return cache.__lumacastTraceStore;
}
