/**
 * The admin session generation, kept in the database (table `admin_state`) so that every
 * instance sharing the database agrees: a session cookie carries the generation it was
 * issued in, and signing out bumps it, which ends every session issued before (one shared
 * token, so one shared generation). Both trace stores implement it (lib/traces).
 */
export interface AdminStateStore {
  sessionGeneration(): Promise<number>;
  /** Ends every session issued so far; returns the new generation. */
  endAllSessions(): Promise<number>;
}
