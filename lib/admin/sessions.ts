import type Database from 'better-sqlite3';

/**
 * The admin session generation, kept in the database (table `admin_state`, migration 2 of
 * lib/traces/sqlite.ts) so that every instance sharing the database agrees: a session
 * cookie carries the generation it was issued in, and signing out bumps it, which ends
 * every session issued before (one shared token, so one shared generation).
 */

const KEY = 'session_generation';

export function sessionGeneration(db: Database.Database): number {
  const row = db.prepare('SELECT value FROM admin_state WHERE key = ?').get(KEY) as { value: number } | undefined;
  return row?.value ?? 0;
}

/** Ends every session issued so far; returns the new generation. */
export function endAllSessions(db: Database.Database): number {
  db.prepare('INSERT INTO admin_state (key, value) VALUES (?, 1) ON CONFLICT (key) DO UPDATE SET value = value + 1').run(KEY);
  return sessionGeneration(db);
}
