import 'server-only';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { env } from '../env';
import type { InspectorStore } from './inspector';
import { openTraceDatabase, SqliteTraceStore } from './sqlite';
import type { TraceStore } from './types';

export type * from './types';

/**
 * The server's trace store: SQLite at TRACE_DB_PATH. The database handle is opened (and
 * migrated) once per process and kept on globalThis, so dev-mode hot reloads and every
 * route bundle share it. Each bundle wraps it in its own SqliteTraceStore, so
 * `instanceof SqliteTraceStore` holds wherever the store is used.
 * Route handlers that use it run on Node (`runtime = 'nodejs'`).
 */
const cache = globalThis as typeof globalThis & { __supportChatTraceDb?: Database.Database };
let store: SqliteTraceStore | undefined;

/** The server's database handle (turn traces, and the admin session generation: lib/admin/sessions.ts). */
export function getTraceDatabase(): Database.Database {
  let db = cache.__supportChatTraceDb;
  if (!db?.open) {
    const file = path.resolve(/* turbopackIgnore: true */ process.cwd(), env().TRACE_DB_PATH);
    db = cache.__supportChatTraceDb = openTraceDatabase(file);
  }
  return db;
}

function sqliteStore(): SqliteTraceStore {
  const db = getTraceDatabase();
  if (store?.db !== db) store = new SqliteTraceStore(db);
  return store;
}

/** The server's trace store, as the chat route and the conversation endpoint use it. */
export function getTraceStore(): TraceStore {
  return sqliteStore();
}

/** The same store, as the /debug inspector reads it. */
export function getInspectorStore(): InspectorStore {
  return sqliteStore();
}
