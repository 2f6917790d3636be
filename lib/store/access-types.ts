/**
 * The store's ports for who may use /debug (issue 27): sign-in sessions, API keys, the
 * members list, the audit trail, and deleting one customer's data. Both adapters implement
 * them (the SQL: access-sql.ts); store-contract.test.ts runs each case on both. How they are
 * used: docs/security.md "Who can do what".
 */

/** What a person or key may do on /debug: `viewer` reads; `admin` also manages access and exports and deletes data. */
export type Role = 'viewer' | 'admin';
export const ROLES: readonly Role[] = ['viewer', 'admin'];

/** How a session was signed in: the ADMIN_TOKEN form, or the company's OpenID Connect provider. */
export type SessionVia = 'token' | 'oidc';

/** A sign-in session, kept server-side: its cookie holds a secret whose SHA-256 is stored, never the secret. */
export interface AdminSession {
  /** Public id (shown on /debug, used to end it); not the cookie's secret. */
  id: string;
  /** Who: `admin-token`, or the person's email. */
  actor: string;
  role: Role;
  via: SessionVia;
  createdAt: string;
  expiresAt: string;
  endedAt?: string;
}

export interface AdminSessionStore {
  createSession(session: AdminSession & { secretHash: string }): Promise<void>;
  /** The session whose secret hashes to `secretHash`, if it is neither ended nor expired at `now` (ISO 8601). */
  findSession(secretHash: string, now: string): Promise<AdminSession | undefined>;
  /** Ends one session; false if it was unknown or already ended. */
  endSession(id: string, at: string): Promise<boolean>;
  /** Ends every live session of `actor`; returns how many. */
  endSessionsOf(actor: string, at: string): Promise<number>;
  /** Gives `actor`'s live sessions another role; returns how many. */
  setSessionsRole(actor: string, role: Role): Promise<number>;
  /** The live sessions at `now`, newest first. */
  listSessions(now: string): Promise<AdminSession[]>;
}

/** A named API key (Authorization: Bearer …): the secret is shown once, its SHA-256 kept. */
export interface ApiKey {
  id: string;
  name: string;
  role: Role;
  /** The key's first characters, to tell keys apart (`tsk_3fa9…`). */
  prefix: string;
  createdAt: string;
  /** Who made it: a person's email, `admin-token`, `key:<name>`. */
  createdBy: string;
  /** The key it was made with, if a key made it: revoking that key revokes this one too. */
  createdByKey?: string;
  lastUsedAt?: string;
  revokedAt?: string;
  revokedBy?: string;
}

export interface ApiKeyStore {
  /** Throws if a live key has the same name. */
  createApiKey(key: ApiKey & { secretHash: string }): Promise<void>;
  /** The live (not revoked) key whose secret hashes to `secretHash`. */
  findApiKey(secretHash: string): Promise<ApiKey | undefined>;
  /** Records a use of the key (at most the time given). */
  touchApiKey(id: string, at: string): Promise<void>;
  /** Revokes a live key; undefined if it is unknown or revoked already. */
  revokeApiKey(id: string, at: string, by: string): Promise<ApiKey | undefined>;
  /** Every key, live and revoked, newest first. */
  listApiKeys(): Promise<ApiKey[]>;
  /** Revokes the live keys a person made (`createdBy`), or that were made with these keys (`createdByKey`); returns them. */
  revokeApiKeysMadeBy(maker: ApiKeyMaker, at: string, by: string): Promise<ApiKey[]>;
}

/** Whose keys to revoke: a person's (their email), or the keys made with these keys (by id). */
export type ApiKeyMaker = { person: string } | { keys: readonly string[] };

/** An entry of the members list an admin keeps: a person's role, or `none` (may not enter). */
export interface Member {
  /** Lowercase. */
  email: string;
  role: Role | 'none';
  updatedAt: string;
  updatedBy: string;
}

export interface MemberStore {
  /** Adds or changes a member; returns the entry it replaced. */
  setMember(member: Member): Promise<Member | undefined>;
  removeMember(email: string): Promise<Member | undefined>;
  getMember(email: string): Promise<Member | undefined>;
  listMembers(): Promise<Member[]>;
}

/** One line of the audit trail: who did what, when, from where. Append-only. */
export interface AuditEvent {
  at: string;
  /** `admin-token`, `key:<name>`, a person's email, `cli`, `development`, or what a failed sign-in claimed. */
  actor: string;
  role?: Role;
  /** How the actor was identified: token, key, oidc, cli, development. */
  via: string;
  /** `sign-in`, `sign-in.failed`, `sign-out`, `session.end`, `key.create`, `key.revoke`, `member.set`, `member.remove`, `turn.list`, `turn.view`, `conversation.view`, `handoff.list`, `handoff.view`, `handoff.retry`, `health.view`, `data.export`, `data.delete`, `access.refused`. */
  action: string;
  /** What it was done to: a turn or conversation id, a key's name, a member's email, a deletion's subject kind. Never customer text. */
  target?: string;
  outcome: 'ok' | 'refused';
  /** Small facts (counts, a reason); never customer text. */
  detail?: Record<string, string | number | boolean>;
  /** The client address (lib/rate-limit/client.ts), or `cli`. */
  source: string;
}

export interface AuditEntry extends AuditEvent {
  seq: number;
}

export interface AuditFilter {
  action?: string;
  actor?: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
}

export interface AuditStore {
  appendAudit(event: AuditEvent): Promise<void>;
  /** Newest first. */
  listAudit(filter: AuditFilter, page: number, pageSize: number): Promise<AuditPage>;
  /**
   * Audit retention (AUDIT_RETENTION_DAYS): deletes up to `batchSize` entries made before
   * `cutoff`, oldest first — the one DELETE the schema lets through (access-sql.ts).
   */
  deleteAuditBefore(cutoff: string, batchSize: number): Promise<number>;
}

/**
 * Whose data to delete: an anonymous visitor (their owner key: the visitor id, or `user:<id>`),
 * a verified user (their id), or whoever wrote an email address. Exact identifiers: an email is
 * compared whole after normalising (lib/store/email-address.ts), never as part of other text.
 */
export interface DataSubject {
  kind: 'visitor' | 'user' | 'email';
  value: string;
}

/** What one port found of a subject: the visitors (owner keys) and conversations that hold their data. */
export interface SubjectLinks {
  visitors: string[];
  conversations: string[];
}

/** What one port deleted of a subject: counts by what went, and the visitors and conversations it was of. */
export interface SubjectDeletion {
  counts: Record<string, number>;
  visitors: string[];
  conversations: string[];
}

export interface CustomerDataStore {
  /**
   * The visitors and conversations of a subject in the turn log: the visitor's; the verified
   * user's (turns with their user id or their owner key); or, for an email, the visitors (and,
   * for turns without one, the conversations) whose messages, vote reason or page (title, URL)
   * hold the address as a whole address. Only what holds data: nothing found, nothing listed.
   */
  findCustomerTurns(subject: DataSubject): Promise<SubjectLinks>;
  /**
   * Deletes the turns of these visitors (every conversation of theirs), of the subject's user
   * id, and of these conversations where they have no visitor — with their feedback (votes and
   * their reasons), sections and payloads. Another visitor's turns under the same conversation
   * id are kept. Counts: `turns`, `feedback`.
   */
  deleteCustomerTurns(subject: DataSubject, links: SubjectLinks): Promise<SubjectDeletion>;
  /**
   * After a deletion, makes what was deleted unreadable outside the store's queries too:
   * SQLite checkpoints its WAL into the database file and truncates it (freed pages are zeroed:
   * `secure_delete`); PostgreSQL vacuums the tables that hold customer text. Throws if that
   * could not be done now (the rows are deleted all the same; running the deletion again retries it).
   */
  purgeDeleted(): Promise<void>;
}
