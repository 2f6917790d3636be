import 'server-only';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { AdminStateStore } from '../admin/sessions';
import { env } from '../env';
import type { InspectorStore } from './inspector';
import { createPostgresPool, databaseLabel, PostgresTraceStore } from './postgres';
import { startRetention } from './retention';
import { openTraceDatabase, SqliteTraceStore } from './sqlite';
import { startPendingSweep } from './stale';
import type { TraceStore } from './types';

export type * from './types';

/** What the server stores in one database: turn traces, the inspector's queries, the admin session state. */
export type ServerStore = TraceStore & InspectorStore & AdminStateStore;

/**
 * The server's store: PostgreSQL when DATABASE_URL is set (shared by every instance with
 * that URL), else SQLite at TRACE_DB_PATH. The database handle (SQLite) or pool (PostgreSQL)
 * is opened once per process and kept on globalThis, so dev-mode hot reloads and every route
 * bundle share it; each bundle wraps it in its own store object. Retention
 * (TRACE_RETENTION_DAYS) and the pending-turn sweep (TRACE_PENDING_LIMIT_MINUTES, stale.ts)
 * start with the first use. Route handlers that use it run on Node (`runtime = 'nodejs'`).
 */
const cache = globalThis as typeof globalThis & {
  __supportChatTraceDb?: Database.Database;
  __supportChatPostgres?: { pool: pg.Pool; store: PostgresTraceStore };
  __supportChatStoreJobs?: boolean;
};
let sqlite: SqliteTraceStore | undefined;

function sqliteStore(): SqliteTraceStore {
  let db = cache.__supportChatTraceDb;
  if (!db?.open) {
    const file = path.resolve(/* turbopackIgnore: true */ process.cwd(), env().TRACE_DB_PATH);
    db = cache.__supportChatTraceDb = openTraceDatabase(file);
  }
  if (sqlite?.db !== db) sqlite = new SqliteTraceStore(db);
  return sqlite;
}

/** The PostgreSQL store; its migrations start now and every call waits for them. */
function postgresStore(url: string): PostgresTraceStore {
  cache.__supportChatPostgres ??= (() => {
    const pool = createPostgresPool(url);
    return { pool, store: new PostgresTraceStore(pool) };
  })();
  return cache.__supportChatPostgres.store;
}

export function getServerStore(): ServerStore {
  const settings = env();
  const store = settings.DATABASE_URL ? postgresStore(settings.DATABASE_URL) : sqliteStore();
  if (!cache.__supportChatStoreJobs) {
    cache.__supportChatStoreJobs = true;
    if (settings.TRACE_RETENTION_DAYS) startRetention(getServerStore, settings.TRACE_RETENTION_DAYS);
    startPendingSweep(getServerStore, settings.TRACE_PENDING_LIMIT_MINUTES);
  }
  return store;
}

/** The pool behind DATABASE_URL and its migrations (the shared rate limits use both), or undefined on SQLite. */
export function getPostgres(): { pool: pg.Pool; ready: () => Promise<void> } | undefined {
  const url = env().DATABASE_URL;
  if (!url) return undefined;
  const store = postgresStore(url);
  return { pool: store.pool, ready: () => store.migrated };
}

/**
 * At server start: opens the store (on PostgreSQL, runs the migrations) and says which it is,
 * so a database that is unreachable or too new shows in the log before the first customer.
 * Never throws: the server still serves its pages, and /api/health answers 503 until it works.
 */
export async function openServerStore(): Promise<void> {
  const settings = env();
  const where = settings.DATABASE_URL
    ? `PostgreSQL ${databaseLabel(settings.DATABASE_URL)}`
    : `SQLite ${settings.TRACE_DB_PATH}`;
  try {
    await getServerStore().ready();
    console.log(`[store] ${where}: ready${settings.TRACE_RETENTION_DAYS ? `, keeping ${settings.TRACE_RETENTION_DAYS} days of turns` : ''}`);
  } catch (error) {
    console.error(`[store] ${where} IS NOT AVAILABLE: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The server's trace store, as the chat route and the conversation endpoint use it. */
export function getTraceStore(): TraceStore {
  return getServerStore();
}

/** The same store, as the /debug inspector reads it. */
export function getInspectorStore(): InspectorStore {
  return getServerStore();
}

/** The same store, for the admin session generation (lib/admin/sessions.ts). */
export function getAdminStateStore(): AdminStateStore {
  return getServerStore();
}
