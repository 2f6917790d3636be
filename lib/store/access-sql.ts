import type { RedactionCounts } from '../privacy/redact';
import type { AdminSession } from './ports/sessions';
import type { ApiKey, ApiKeyMaker } from './ports/api-keys';
import type { AuditEntry, AuditEvent, AuditFilter, AuditPage } from './ports/audit';
import type { DataSubject, SubjectLinks } from './ports/customer-data';
import type { Member } from './ports/members';
import type { Role } from './ports/role';
import { decodedUrl, localPart, mentionsEmail, normalizeEmail } from './email-address';
import type { Query } from './query';
import { userOwnerKey } from './ports/turns';

/**
 * The SQL of /debug's access (issue 27), once for both stores, as loop-sql.ts is for the
 * support lead's loop: the tables (one migration per store), and the queries behind the
 * ports of access-types.ts. Every write ends in RETURNING, so one `query` function (a
 * statement that returns rows) serves SQLite and PostgreSQL alike.
 *
 * The audit trail is append-only in the schema itself: triggers refuse every UPDATE, every
 * DELETE but audit retention's, and (PostgreSQL) TRUNCATE — see ACCESS_KEEP_SQLITE_MIGRATION.
 */

/**
 * SQLite schema version 7 (appended to sqlite-migrations.ts MIGRATIONS). `turns.user_id` (the verified
 * user) came with the embed's migration (5).
 */
export const ACCESS_SQLITE_MIGRATION = `
  ALTER TABLE turns ADD COLUMN redactions TEXT;
  ALTER TABLE turns ADD COLUMN reply_redactions TEXT;
  CREATE INDEX turns_user ON turns (user_id) WHERE user_id IS NOT NULL;
  CREATE TABLE admin_sessions (
    id          TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL UNIQUE,
    actor       TEXT NOT NULL,
    role        TEXT NOT NULL CHECK (role IN ('viewer', 'admin')),
    via         TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    ended_at    TEXT
  );
  CREATE INDEX admin_sessions_actor ON admin_sessions (actor);
  CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    secret_hash  TEXT NOT NULL UNIQUE,
    name         TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('viewer', 'admin')),
    prefix       TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    created_by   TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at   TEXT,
    revoked_by   TEXT
  );
  CREATE UNIQUE INDEX api_keys_live_name ON api_keys (name) WHERE revoked_at IS NULL;
  CREATE TABLE members (
    email      TEXT PRIMARY KEY,
    role       TEXT NOT NULL CHECK (role IN ('viewer', 'admin', 'none')),
    updated_at TEXT NOT NULL,
    updated_by TEXT NOT NULL
  );
  CREATE TABLE audit_log (
    seq     INTEGER PRIMARY KEY,
    at      TEXT NOT NULL,
    actor   TEXT NOT NULL,
    role    TEXT,
    via     TEXT NOT NULL,
    action  TEXT NOT NULL,
    target  TEXT,
    outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'refused')),
    detail  TEXT,
    source  TEXT NOT NULL
  );
  CREATE INDEX audit_log_at ON audit_log (at);
  CREATE INDEX audit_log_action ON audit_log (action, seq);
  CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log BEGIN
    SELECT RAISE(ABORT, 'the audit trail is append-only');
  END;
`;

/** The same in PostgreSQL: its version 5 (appended to postgres-migrations.ts POSTGRES_MIGRATIONS). */
export const ACCESS_POSTGRES_MIGRATION = `
  ALTER TABLE turns ADD COLUMN redactions text, ADD COLUMN reply_redactions text;
  CREATE INDEX turns_user ON turns (user_id) WHERE user_id IS NOT NULL;
  CREATE TABLE admin_sessions (
    id          text        PRIMARY KEY,
    secret_hash text        NOT NULL UNIQUE,
    actor       text        NOT NULL,
    role        text        NOT NULL CHECK (role IN ('viewer', 'admin')),
    via         text        NOT NULL,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    ended_at    timestamptz
  );
  CREATE INDEX admin_sessions_actor ON admin_sessions (actor);
  CREATE TABLE api_keys (
    id           text        PRIMARY KEY,
    secret_hash  text        NOT NULL UNIQUE,
    name         text        NOT NULL,
    role         text        NOT NULL CHECK (role IN ('viewer', 'admin')),
    prefix       text        NOT NULL,
    created_at   timestamptz NOT NULL,
    created_by   text        NOT NULL,
    last_used_at timestamptz,
    revoked_at   timestamptz,
    revoked_by   text
  );
  CREATE UNIQUE INDEX api_keys_live_name ON api_keys (name) WHERE revoked_at IS NULL;
  CREATE TABLE members (
    email      text        PRIMARY KEY,
    role       text        NOT NULL CHECK (role IN ('viewer', 'admin', 'none')),
    updated_at timestamptz NOT NULL,
    updated_by text        NOT NULL
  );
  CREATE TABLE audit_log (
    seq     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at      timestamptz NOT NULL,
    actor   text        NOT NULL,
    role    text,
    via     text        NOT NULL,
    action  text        NOT NULL,
    target  text,
    outcome text        NOT NULL CHECK (outcome IN ('ok', 'refused')),
    detail  text,
    source  text        NOT NULL
  );
  CREATE INDEX audit_log_at ON audit_log (at);
  CREATE INDEX audit_log_action ON audit_log (action, seq);
  CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    RAISE EXCEPTION 'the audit trail is append-only';
  END $$;
  CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
`;

/**
 * SQLite schema version 8: the audit trail refuses DELETE as well, but for audit retention's.
 * Retention declares its cutoff in `audit_retention` inside the transaction of its batch
 * (auditRetentionSql) and removes it before the commit: the trigger lets an entry go only
 * while such a declaration, older than the entry's cutoff, is there — so a stray
 * `DELETE FROM audit_log`, even of old entries, is refused. It guards against the app's own
 * mistakes and a stray statement, not against the database's owner, who may drop a trigger.
 * And an API key remembers the key it was made with (`created_by_key`), so revoking a key
 * revokes the keys made with it.
 */
export const ACCESS_KEEP_SQLITE_MIGRATION = `
  CREATE TABLE audit_retention (cutoff TEXT NOT NULL);
  CREATE TRIGGER audit_log_retention_only BEFORE DELETE ON audit_log
  WHEN NOT EXISTS (SELECT 1 FROM audit_retention WHERE OLD.at < cutoff)
  BEGIN
    SELECT RAISE(ABORT, 'the audit trail is append-only: only its retention deletes entries');
  END;
  ALTER TABLE api_keys ADD COLUMN created_by_key TEXT;
`;

/** The same in PostgreSQL: its version 6; TRUNCATE (which skips row triggers) is refused outright. */
export const ACCESS_KEEP_POSTGRES_MIGRATION = `
  CREATE TABLE audit_retention (cutoff timestamptz NOT NULL);
  CREATE FUNCTION audit_log_retention_only() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM audit_retention WHERE OLD.at < cutoff) THEN
      RAISE EXCEPTION 'the audit trail is append-only: only its retention deletes entries';
    END IF;
    RETURN OLD;
  END $$;
  CREATE TRIGGER audit_log_retention_only BEFORE DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_retention_only();
  CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
  ALTER TABLE api_keys ADD COLUMN created_by_key text;
`;

/**
 * Audit retention's batch, three statements in one transaction (each store runs them in its
 * own): declare the cutoff, delete up to a batch of entries older than it, take the
 * declaration back.
 */
export function auditRetentionSql(p: (n: number) => string): { declare: string; deleteBatch: string; withdraw: string } {
  return {
    declare: `INSERT INTO audit_retention (cutoff) VALUES (${p(1)})`,
    deleteBatch: `DELETE FROM audit_log WHERE seq IN (SELECT seq FROM audit_log WHERE at < ${p(1)} ORDER BY seq LIMIT ${p(2)})`,
    withdraw: 'DELETE FROM audit_retention',
  };
}

/** A turn's redaction counts as stored (JSON text), and back. */
export function encodeRedactions(counts: RedactionCounts | undefined): string | null {
  return counts && Object.keys(counts).length > 0 ? JSON.stringify(counts) : null;
}

export function decodeRedactions(text: string | null | undefined): RedactionCounts | undefined {
  if (!text) return undefined;
  const parsed = JSON.parse(text) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(parsed).filter(([, n]) => typeof n === 'number')) as RedactionCounts;
}

interface SessionRow {
  id: string;
  actor: string;
  role: Role;
  via: AdminSession['via'];
  created_at: string;
  expires_at: string;
  ended_at: string | null;
}

interface KeyRow {
  id: string;
  name: string;
  role: Role;
  prefix: string;
  created_at: string;
  created_by: string;
  created_by_key: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
}

interface MemberRow {
  email: string;
  role: Member['role'];
  updated_at: string;
  updated_by: string;
}

interface AuditRow {
  seq: number;
  at: string;
  actor: string;
  role: Role | null;
  via: string;
  action: string;
  target: string | null;
  outcome: AuditEvent['outcome'];
  detail: string | null;
  source: string;
}

const session = (r: SessionRow): AdminSession => ({
  id: r.id,
  actor: r.actor,
  role: r.role,
  via: r.via,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  ...(r.ended_at ? { endedAt: r.ended_at } : {}),
});

const apiKey = (r: KeyRow): ApiKey => ({
  id: r.id,
  name: r.name,
  role: r.role,
  prefix: r.prefix,
  createdAt: r.created_at,
  createdBy: r.created_by,
  ...(r.created_by_key ? { createdByKey: r.created_by_key } : {}),
  ...(r.last_used_at ? { lastUsedAt: r.last_used_at } : {}),
  ...(r.revoked_at ? { revokedAt: r.revoked_at } : {}),
  ...(r.revoked_by ? { revokedBy: r.revoked_by } : {}),
});

const member = (r: MemberRow): Member => ({ email: r.email, role: r.role, updatedAt: r.updated_at, updatedBy: r.updated_by });

const auditEntry = (r: AuditRow): AuditEntry => ({
  seq: Number(r.seq),
  at: r.at,
  actor: r.actor,
  ...(r.role ? { role: r.role } : {}),
  via: r.via,
  action: r.action,
  ...(r.target ? { target: r.target } : {}),
  outcome: r.outcome,
  ...(r.detail ? { detail: JSON.parse(r.detail) as AuditEvent['detail'] } : {}),
  source: r.source,
});

const KEY_COLUMNS = 'id, name, role, prefix, created_at, created_by, created_by_key, last_used_at, revoked_at, revoked_by';
const SESSION_COLUMNS = 'id, actor, role, via, created_at, expires_at, ended_at';

/** `%value%` for LIKE, with the pattern characters escaped (ESCAPE '\'). */
const containing = (value: string) => `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Rows read at a time when turns are scanned for an email address. */
const SCAN_PAGE = 500;

/**
 * The LIKE pattern that narrows a search for a normalised address: its local part when that is
 * printable ASCII (which lower() folds alike in both stores), else any text with an `@` in it.
 */
export function likePattern(address: string): string {
  const local = localPart(address);
  return /^[\x21-\x7e]+$/.test(local) ? containing(local) : '%@%';
}

interface MentionRow {
  seq: number;
  visitor_id: string | null;
  conversation_id: string;
  question: string;
  customer_messages: string;
  page_title: string | null;
  page_url: string | null;
  vote_reason: string | null;
}

/** Whether a turn's customer text holds the address: the question or an earlier message, the vote reason, the page's title or URL. */
function turnMentions(row: MentionRow, address: string): boolean {
  const messages = JSON.parse(row.customer_messages) as string[];
  return [row.question, ...messages, row.vote_reason, row.page_title, decodedUrl(row.page_url)].some((text) => mentionsEmail(text, address));
}

/** A turn deleteCustomerTurns deletes: its seq, whose and which conversation it was, and whether it has a vote. */
export interface CustomerTurnRow {
  seq: number;
  visitor_id: string | null;
  conversation_id: string;
  voted: number;
}

/** The access ports' queries, with a store's query function and placeholders. */
export class AccessQueries {
  constructor(
    private readonly query: Query,
    private readonly p: (n: number) => string,
  ) {}

  /** `(p1, p2, …)` for a list parameter starting at placeholder `from`. */
  private list(values: readonly unknown[], from: number): string {
    return `(${values.map((_, i) => this.p(from + i)).join(', ')})`;
  }

  async createSession(s: AdminSession & { secretHash: string }): Promise<void> {
    const p = this.p;
    await this.query(
      `INSERT INTO admin_sessions (id, secret_hash, actor, role, via, created_at, expires_at)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}) RETURNING id`,
      [s.id, s.secretHash, s.actor, s.role, s.via, s.createdAt, s.expiresAt],
    );
  }

  async findSession(secretHash: string, now: string): Promise<AdminSession | undefined> {
    const [row] = await this.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM admin_sessions WHERE secret_hash = ${this.p(1)} AND ended_at IS NULL AND expires_at > ${this.p(2)}`,
      [secretHash, now],
    );
    return row && session(row);
  }

  async endSession(id: string, at: string): Promise<boolean> {
    const rows = await this.query(`UPDATE admin_sessions SET ended_at = ${this.p(1)} WHERE id = ${this.p(2)} AND ended_at IS NULL RETURNING id`, [at, id]);
    return rows.length === 1;
  }

  async endSessionsOf(actor: string, at: string): Promise<number> {
    return (await this.query(`UPDATE admin_sessions SET ended_at = ${this.p(1)} WHERE actor = ${this.p(2)} AND ended_at IS NULL RETURNING id`, [at, actor])).length;
  }

  async setSessionsRole(actor: string, role: Role): Promise<number> {
    return (await this.query(`UPDATE admin_sessions SET role = ${this.p(1)} WHERE actor = ${this.p(2)} AND ended_at IS NULL RETURNING id`, [role, actor])).length;
  }

  async listSessions(now: string): Promise<AdminSession[]> {
    const rows = await this.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM admin_sessions WHERE ended_at IS NULL AND expires_at > ${this.p(1)} ORDER BY created_at DESC, id`,
      [now],
    );
    return rows.map(session);
  }

  async createApiKey(k: ApiKey & { secretHash: string }): Promise<void> {
    const p = this.p;
    await this.query(
      `INSERT INTO api_keys (id, secret_hash, name, role, prefix, created_at, created_by, created_by_key)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}) RETURNING id`,
      [k.id, k.secretHash, k.name, k.role, k.prefix, k.createdAt, k.createdBy, k.createdByKey ?? null],
    );
  }

  async findApiKey(secretHash: string): Promise<ApiKey | undefined> {
    const [row] = await this.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE secret_hash = ${this.p(1)} AND revoked_at IS NULL`, [secretHash]);
    return row && apiKey(row);
  }

  async touchApiKey(id: string, at: string): Promise<void> {
    await this.query(
      `UPDATE api_keys SET last_used_at = ${this.p(1)} WHERE id = ${this.p(2)} AND (last_used_at IS NULL OR last_used_at < ${this.p(3)}) RETURNING id`,
      [at, id, at],
    );
  }

  async revokeApiKey(id: string, at: string, by: string): Promise<ApiKey | undefined> {
    const [row] = await this.query<KeyRow>(
      `UPDATE api_keys SET revoked_at = ${this.p(1)}, revoked_by = ${this.p(2)} WHERE id = ${this.p(3)} AND revoked_at IS NULL RETURNING ${KEY_COLUMNS}`,
      [at, by, id],
    );
    return row && apiKey(row);
  }

  async listApiKeys(): Promise<ApiKey[]> {
    return (await this.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at DESC, id`, [])).map(apiKey);
  }

  async revokeApiKeysMadeBy(maker: ApiKeyMaker, at: string, by: string): Promise<ApiKey[]> {
    const makers = 'person' in maker ? [maker.person] : maker.keys;
    if (makers.length === 0) return [];
    const column = 'person' in maker ? 'created_by' : 'created_by_key';
    const rows = await this.query<KeyRow>(
      `UPDATE api_keys SET revoked_at = ${this.p(1)}, revoked_by = ${this.p(2)}
       WHERE revoked_at IS NULL AND ${column} IN ${this.list(makers, 3)} RETURNING ${KEY_COLUMNS}`,
      [at, by, ...makers],
    );
    return rows.map(apiKey).sort((a, b) => a.id.localeCompare(b.id));
  }

  async getMember(email: string): Promise<Member | undefined> {
    const [row] = await this.query<MemberRow>(`SELECT email, role, updated_at, updated_by FROM members WHERE email = ${this.p(1)}`, [email.toLowerCase()]);
    return row && member(row);
  }

  async setMember(m: Member): Promise<Member | undefined> {
    const before = await this.getMember(m.email);
    const p = this.p;
    await this.query(
      `INSERT INTO members (email, role, updated_at, updated_by) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})
       ON CONFLICT (email) DO UPDATE SET role = excluded.role, updated_at = excluded.updated_at, updated_by = excluded.updated_by RETURNING email`,
      [m.email.toLowerCase(), m.role, m.updatedAt, m.updatedBy],
    );
    return before;
  }

  async removeMember(email: string): Promise<Member | undefined> {
    const [row] = await this.query<MemberRow>(`DELETE FROM members WHERE email = ${this.p(1)} RETURNING email, role, updated_at, updated_by`, [email.toLowerCase()]);
    return row && member(row);
  }

  async listMembers(): Promise<Member[]> {
    return (await this.query<MemberRow>('SELECT email, role, updated_at, updated_by FROM members ORDER BY email', [])).map(member);
  }

  async appendAudit(e: AuditEvent): Promise<void> {
    const p = this.p;
    await this.query(
      `INSERT INTO audit_log (at, actor, role, via, action, target, outcome, detail, source)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}) RETURNING seq`,
      [e.at, e.actor, e.role ?? null, e.via, e.action, e.target ?? null, e.outcome, e.detail ? JSON.stringify(e.detail) : null, e.source],
    );
  }

  async listAudit(filter: AuditFilter, page: number, pageSize: number): Promise<AuditPage> {
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return this.p(params.length);
    };
    const where: string[] = [];
    if (filter.action) where.push(`action = ${param(filter.action)}`);
    if (filter.actor) where.push(`actor = ${param(filter.actor)}`);
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = Number((await this.query<{ n: number }>(`SELECT COUNT(*) AS n FROM audit_log ${whereSql}`, params))[0]!.n);
    const size = Math.min(Math.max(1, Math.floor(pageSize)), 200);
    const pages = Math.max(1, Math.ceil(total / size));
    const current = Math.min(Math.max(1, Math.floor(page)), pages);
    const limit = param(size);
    const offset = param((current - 1) * size);
    const rows = await this.query<AuditRow>(`SELECT * FROM audit_log ${whereSql} ORDER BY seq DESC LIMIT ${limit} OFFSET ${offset}`, params);
    return { entries: rows.map(auditEntry), total, page: current, pageSize: size, pages };
  }

  async findCustomerTurns(subject: DataSubject): Promise<SubjectLinks> {
    const p = this.p;
    let rows: { visitor_id: string | null; conversation_id: string }[];
    if (subject.kind === 'visitor') {
      rows = await this.query(`SELECT DISTINCT visitor_id, conversation_id FROM turns WHERE visitor_id = ${p(1)}`, [subject.value]);
    } else if (subject.kind === 'user') {
      rows = await this.query(`SELECT DISTINCT visitor_id, conversation_id FROM turns WHERE user_id = ${p(1)} OR visitor_id = ${p(2)}`, [
        subject.value,
        userOwnerKey(subject.value),
      ]);
    } else {
      rows = await this.turnsMentioning(subject.value);
    }
    return {
      visitors: [...new Set(rows.flatMap((r) => (r.visitor_id === null ? [] : [r.visitor_id])))],
      conversations: [...new Set(rows.map((r) => r.conversation_id))],
    };
  }

  /**
   * The turns whose customer text — messages, vote reason, page title and URL — holds the
   * address as a whole address (email-address.ts). SQL narrows them to the rows holding its
   * local part (LIKE, ASCII case folded: every store's lower() does that much); the whole
   * comparison is made here, a page at a time.
   */
  private async turnsMentioning(value: string): Promise<{ visitor_id: string | null; conversation_id: string }[]> {
    const address = normalizeEmail(value);
    if (!address) return [];
    const p = this.p;
    const like = likePattern(address);
    const columns = ['t.question', 't.customer_messages', 't.page_title', 't.page_url', 'f.reason'];
    const found: { visitor_id: string | null; conversation_id: string }[] = [];
    for (let after = 0; ; ) {
      const rows = await this.query<MentionRow>(
        `SELECT t.seq, t.visitor_id, t.conversation_id, t.question, t.customer_messages, t.page_title, t.page_url, f.reason AS vote_reason
         FROM turns t LEFT JOIN turn_feedback f ON f.turn_seq = t.seq
         WHERE t.seq > ${p(1)} AND (${columns.map((c, i) => `lower(${c}) LIKE ${p(i + 2)} ESCAPE '\\'`).join(' OR ')})
         ORDER BY t.seq LIMIT ${p(columns.length + 2)}`,
        [after, ...columns.map(() => like), SCAN_PAGE],
      );
      for (const row of rows) if (turnMentions(row, address)) found.push(row);
      if (rows.length < SCAN_PAGE) return found;
      after = Number(rows.at(-1)!.seq);
    }
  }

  /** The turns deleteCustomerTurns deletes: seq, conversation and whether it has feedback. */
  async customerTurnSeqs(subject: DataSubject, links: SubjectLinks): Promise<CustomerTurnRow[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (links.visitors.length) {
      where.push(`visitor_id IN ${this.list(links.visitors, params.length + 1)}`);
      params.push(...links.visitors);
    }
    if (links.conversations.length) {
      where.push(`(visitor_id IS NULL AND conversation_id IN ${this.list(links.conversations, params.length + 1)})`);
      params.push(...links.conversations);
    }
    if (subject.kind === 'user') {
      params.push(subject.value);
      where.push(`user_id = ${this.p(params.length)}`);
    }
    if (where.length === 0) return [];
    const rows = await this.query<CustomerTurnRow>(
      `SELECT seq, visitor_id, conversation_id, (SELECT COUNT(*) FROM turn_feedback f WHERE f.turn_seq = turns.seq) AS voted
       FROM turns WHERE ${where.join(' OR ')} ORDER BY seq`,
      params,
    );
    return rows.map((r) => ({ seq: Number(r.seq), visitor_id: r.visitor_id, conversation_id: r.conversation_id, voted: Number(r.voted) }));
  }
}
