import type { AttemptResult, ClaimedDelivery, DeliveryAttempt, DeliveryState, DeliveryStatus, HandoffChannel, HandoffReason, HandoffRecord, ConversationSignals, HandoffStart } from './ports/handoffs';
import type { DeflectionDay, HandoffDetail, HandoffList, HandoffReports, HandoffSummary, SectionBeforeHandoff } from './ports/handoff-reports';
import type { HandoffCustomerData } from './ports/handoff-customer-data';
import type { DataSubject, SubjectDeletion, SubjectLinks } from './ports/customer-data';
import { likePattern } from './access-sql';
import { decodedUrl, mentionsEmail, normalizeEmail } from './email-address';
import type { Dialect } from './dialect';
import { SqlInspector } from './inspector';
import type { Query } from './query';
import { userOwnerKey } from './ports/turns';

/**
 * The SQL of hand-offs (issue 24), in one place for both stores, as loop-sql.ts is for the
 * feedback loop: the tables (one migration per store), the row mappings, and the reads both
 * stores share (SqlHandoffInspector). The writes that need a transaction (create, finish, retry)
 * run these statements in sql-store.ts; the claim, which locks rows, is each dialect's own.
 *
 * - `handoffs`: one row per hand-off, at most one per (conversation, visitor), with the payload
 *   delivered (frozen when written) and a status summarising its deliveries;
 * - `handoff_deliveries`: one row per channel: status, attempts, when the next is due, the lease
 *   of the worker that claimed it (a claim whose worker died runs out and is claimed again),
 *   until when it is retried, the last error;
 * - `handoff_attempts`: every attempt, with its outcome and the instance that made it;
 * - `turns.bm25_confidence`: each turn's BM25 confidence (lib/retrieval/select/score.ts), so the
 *   thin turns of a conversation are counted in SQL (lib/handoff/offer.ts).
 *
 * Every statement's placeholders appear in text order, each once, so `?` and `$n` both work.
 */

const TABLES = (t: { seq: string; text: string; time: string; real: string; int: string }) => `
  CREATE TABLE handoffs (
    seq             ${t.seq},
    id              ${t.text} NOT NULL UNIQUE,
    conversation_id ${t.text} NOT NULL,
    visitor_id      ${t.text} NOT NULL,
    created_at      ${t.time} NOT NULL,
    reason          ${t.text} NOT NULL CHECK (reason IN ('asked', 'thin-answers', 'down-vote')),
    email           ${t.text} NOT NULL,
    note            ${t.text},
    page_url        ${t.text},
    page_title      ${t.text},
    payload         ${t.text} NOT NULL,
    status          ${t.text} NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
    UNIQUE (conversation_id, visitor_id)
  );
  CREATE INDEX handoffs_created_at ON handoffs (created_at);
  CREATE INDEX handoffs_status ON handoffs (status, created_at);
  CREATE TABLE handoff_deliveries (
    handoff_seq     ${t.int} NOT NULL REFERENCES handoffs (seq) ON DELETE CASCADE,
    channel         ${t.text} NOT NULL CHECK (channel IN ('webhook', 'email')),
    status          ${t.text} NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        ${t.int} NOT NULL DEFAULT 0,
    next_attempt_at ${t.time} NOT NULL,
    lease_until     ${t.time},
    retry_until     ${t.time} NOT NULL,
    last_error      ${t.text},
    sent_at         ${t.time},
    PRIMARY KEY (handoff_seq, channel)
  );
  CREATE INDEX handoff_deliveries_due ON handoff_deliveries (status, next_attempt_at);
  CREATE TABLE handoff_attempts (
    handoff_seq ${t.int} NOT NULL REFERENCES handoffs (seq) ON DELETE CASCADE,
    channel     ${t.text} NOT NULL,
    attempt     ${t.int} NOT NULL,
    started_at  ${t.time} NOT NULL,
    duration_ms ${t.real} NOT NULL,
    ok          ${t.int} NOT NULL,
    error       ${t.text},
    instance    ${t.text} NOT NULL,
    PRIMARY KEY (handoff_seq, channel, attempt)
  );
`;

/** SQLite schema version 6 (appended to sqlite-migrations.ts MIGRATIONS). */
export const HANDOFF_SQLITE_MIGRATION = `
  ALTER TABLE turns ADD COLUMN bm25_confidence REAL;
  ${TABLES({ seq: 'INTEGER PRIMARY KEY', text: 'TEXT', time: 'TEXT', real: 'REAL', int: 'INTEGER' })}
`;

/** The same in PostgreSQL: its version 4 (appended to postgres-migrations.ts POSTGRES_MIGRATIONS). */
export const HANDOFF_POSTGRES_MIGRATION = `
  ALTER TABLE turns ADD COLUMN bm25_confidence double precision;
  ${TABLES({ seq: 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY', text: 'text', time: 'timestamptz', real: 'double precision', int: 'bigint' })}
`;

/** Placeholders: `?` (SQLite) or `$n` (PostgreSQL), numbered in text order. */
export type Placeholder = (n: number) => string;

/** A hand-off row as both stores select it (without the payload, unless asked). */
export interface HandoffRow {
  seq: number;
  id: string;
  conversation_id: string;
  visitor_id: string;
  created_at: string;
  reason: string;
  email: string;
  note: string | null;
  page_url: string | null;
  page_title: string | null;
  status: string;
  payload?: string;
}

export interface DeliveryRow {
  handoff_seq: number;
  channel: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  retry_until: string;
  last_error: string | null;
  sent_at: string | null;
}

export interface AttemptRow {
  channel: string;
  attempt: number;
  started_at: string;
  duration_ms: number;
  ok: number;
  error: string | null;
  instance: string;
}

export const HANDOFF_COLUMNS = 'seq, id, conversation_id, visitor_id, created_at, reason, email, note, page_url, page_title, status';
export const DELIVERY_COLUMNS = 'handoff_seq, channel, status, attempts, next_attempt_at, retry_until, last_error, sent_at';

/** The INSERT of a hand-off (values in HANDOFF_INSERT_COLUMNS order); nothing for a conversation that has one. */
export const HANDOFF_INSERT_COLUMNS = ['id', 'conversation_id', 'visitor_id', 'created_at', 'reason', 'email', 'note', 'page_url', 'page_title', 'payload', 'status'] as const;
export function insertHandoffSql(p: Placeholder): string {
  return `INSERT INTO handoffs (${HANDOFF_INSERT_COLUMNS.join(', ')}) VALUES (${HANDOFF_INSERT_COLUMNS.map((_, i) => p(i + 1)).join(', ')})
    ON CONFLICT (conversation_id, visitor_id) DO NOTHING RETURNING seq`;
}

/** One pending delivery of a new hand-off: (handoff_seq, channel, next_attempt_at, retry_until). */
export function insertDeliverySql(p: Placeholder): string {
  return `INSERT INTO handoff_deliveries (handoff_seq, channel, status, attempts, next_attempt_at, retry_until) VALUES (${p(1)}, ${p(2)}, 'pending', 0, ${p(3)}, ${p(4)})`;
}

/** Records an attempt: (id, channel, attempt, started_at, duration_ms, ok, error, instance). A repeat of the same attempt is ignored. */
export function insertAttemptSql(p: Placeholder): string {
  return `INSERT INTO handoff_attempts (handoff_seq, channel, attempt, started_at, duration_ms, ok, error, instance)
    VALUES ((SELECT seq FROM handoffs WHERE id = ${p(1)}), ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)})
    ON CONFLICT (handoff_seq, channel, attempt) DO NOTHING`;
}

/**
 * An attempt's outcome: (status, next_attempt_at or NULL, error or NULL, sent_at or NULL, id,
 * channel, attempt). Only while the delivery is still this attempt's: a worker whose lease ran
 * out and whose delivery was claimed again changes nothing.
 */
export function finishDeliverySql(p: Placeholder): string {
  return `UPDATE handoff_deliveries
    SET status = ${p(1)}, next_attempt_at = COALESCE(${p(2)}, next_attempt_at), last_error = COALESCE(${p(3)}, last_error),
        sent_at = ${p(4)}, lease_until = NULL
    WHERE handoff_seq = (SELECT seq FROM handoffs WHERE id = ${p(5)}) AND channel = ${p(6)} AND attempts = ${p(7)} AND status = 'pending'`;
}

/** The hand-off's status from its deliveries: failed if one failed, else pending while one is, else sent. (id) */
export function refreshStatusSql(p: Placeholder): string {
  return `UPDATE handoffs SET status = CASE
      WHEN EXISTS (SELECT 1 FROM handoff_deliveries d WHERE d.handoff_seq = handoffs.seq AND d.status = 'failed') THEN 'failed'
      WHEN EXISTS (SELECT 1 FROM handoff_deliveries d WHERE d.handoff_seq = handoffs.seq AND d.status = 'pending') THEN 'pending'
      ELSE 'sent' END
    WHERE id = ${p(1)}`;
}

/** "Retry now": the failed deliveries due again. (next_attempt_at, retry_until, id) */
export function retryFailedSql(p: Placeholder): string {
  return `UPDATE handoff_deliveries SET status = 'pending', next_attempt_at = ${p(1)}, retry_until = ${p(2)}, lease_until = NULL
    WHERE handoff_seq = (SELECT seq FROM handoffs WHERE id = ${p(3)}) AND status = 'failed'`;
}

/** A claimed delivery's hand-off: what the worker sends. (seq) */
export function claimedHandoffSql(p: Placeholder): string {
  return `SELECT id, conversation_id, reason, payload FROM handoffs WHERE seq = ${p(1)}`;
}

/** One row of the claim's RETURNING. */
export interface ClaimRow {
  handoff_seq: number;
  channel: string;
  attempts: number;
  retry_until: string;
}

/** A new hand-off's values, by column (HANDOFF_INSERT_COLUMNS). */
export function handoffInsertValues(h: HandoffStart): Record<(typeof HANDOFF_INSERT_COLUMNS)[number], unknown> {
  return {
    id: h.id,
    conversation_id: h.conversationId,
    visitor_id: h.visitorId,
    created_at: h.createdAt,
    reason: h.reason,
    email: h.email,
    note: h.note ?? null,
    page_url: h.page?.url ?? null,
    page_title: h.page?.title ?? null,
    payload: h.payload,
    status: h.channels.length ? 'pending' : 'sent',
  };
}

export interface ClaimedHandoffRow {
  id: string;
  conversation_id: string;
  reason: string;
  payload: string;
}

export function claimedDelivery(claim: ClaimRow, handoff: ClaimedHandoffRow): ClaimedDelivery {
  return {
    handoffId: handoff.id,
    conversationId: handoff.conversation_id,
    reason: handoff.reason as HandoffReason,
    channel: claim.channel as HandoffChannel,
    attempt: Number(claim.attempts),
    payload: handoff.payload,
    retryUntil: claim.retry_until,
  };
}

/** insertAttemptSql's parameters. */
export function attemptParams(r: AttemptResult): unknown[] {
  const error = r.outcome.status === 'sent' ? null : r.outcome.error;
  return [r.handoffId, r.channel, r.attempt, r.startedAt, r.durationMs, r.outcome.status === 'sent' ? 1 : 0, error, r.instance];
}

/** finishDeliverySql's parameters. */
export function finishParams(r: AttemptResult): unknown[] {
  const o = r.outcome;
  const status = o.status === 'retry' ? 'pending' : o.status;
  const sentAt = o.status === 'sent' ? new Date(Date.parse(r.startedAt) + r.durationMs).toISOString() : null;
  return [status, o.status === 'retry' ? o.nextAttemptAt : null, o.status === 'sent' ? null : o.error, sentAt, r.handoffId, r.channel, r.attempt];
}

export function handoffFromRows(row: HandoffRow, deliveries: DeliveryRow[]): HandoffRecord {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    visitorId: row.visitor_id,
    createdAt: row.created_at,
    reason: row.reason as HandoffReason,
    email: row.email,
    ...(row.note !== null ? { note: row.note } : {}),
    ...(row.page_url !== null ? { page: { url: row.page_url, ...(row.page_title !== null ? { title: row.page_title } : {}) } } : {}),
    status: row.status as DeliveryStatus,
    deliveries: deliveries
      .filter((d) => Number(d.handoff_seq) === Number(row.seq))
      .sort((a, b) => a.channel.localeCompare(b.channel))
      .map(deliveryFromRow),
  };
}

function deliveryFromRow(d: DeliveryRow): DeliveryState {
  const status = d.status as DeliveryStatus;
  return {
    channel: d.channel as HandoffChannel,
    status,
    attempts: Number(d.attempts),
    ...(status === 'pending' ? { nextAttemptAt: d.next_attempt_at } : {}),
    retryUntil: d.retry_until,
    ...(d.last_error !== null ? { lastError: d.last_error } : {}),
    ...(d.sent_at !== null ? { sentAt: d.sent_at } : {}),
  };
}

function attemptFromRow(a: AttemptRow): DeliveryAttempt {
  return {
    channel: a.channel as HandoffChannel,
    attempt: Number(a.attempt),
    startedAt: a.started_at,
    durationMs: Number(a.duration_ms),
    ok: Number(a.ok) === 1,
    ...(a.error !== null ? { error: a.error } : {}),
    instance: a.instance,
  };
}

/**
 * The reads both stores share: the inspector's (SqlInspector) and the hand-offs' — the
 * widget's state, the chat's signals, /debug's reports. Both stores extend it.
 */
export class SqlHandoffInspector extends SqlInspector implements HandoffReports, HandoffCustomerData {
  protected readonly p: Placeholder;

  constructor(query: Query, dialect: Dialect) {
    super(query, dialect);
    this.p = dialect.placeholder;
  }

  /** The deliveries of these hand-off rows. */
  private async deliveriesOf(rows: HandoffRow[]): Promise<DeliveryRow[]> {
    if (rows.length === 0) return [];
    const seqs = rows.map((r) => r.seq);
    return this.query<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM handoff_deliveries WHERE handoff_seq IN (${seqs.map((_, i) => this.p(i + 1)).join(', ')})`, seqs);
  }

  async findCustomerHandoffs(subject: DataSubject): Promise<SubjectLinks> {
    const rows =
      subject.kind === 'email' ? await this.handoffsOfEmail(subject.value) : await this.handoffsOf(subject.kind === 'user' ? userOwnerKey(subject.value) : subject.value);
    return { visitors: [...new Set(rows.map((r) => r.visitor_id))], conversations: [...new Set(rows.map((r) => r.conversation_id))] };
  }

  /** The hand-offs made under this owner key (a visitor id, or a verified user's `user:<id>`). */
  private handoffsOf(ownerKey: string): Promise<{ visitor_id: string; conversation_id: string }[]> {
    return this.query(`SELECT visitor_id, conversation_id FROM handoffs WHERE visitor_id = ${this.p(1)}`, [ownerKey]);
  }

  /** The hand-offs that gave this address (compared whole, normalised), or whose note or page holds it; narrowed in SQL as the turns are (access-sql.ts). */
  private async handoffsOfEmail(value: string): Promise<{ visitor_id: string; conversation_id: string }[]> {
    const address = normalizeEmail(value);
    if (!address) return [];
    const like = likePattern(address);
    const columns = ['email', 'note', 'page_title', 'page_url'];
    const rows = await this.query<{ visitor_id: string; conversation_id: string; email: string; note: string | null; page_title: string | null; page_url: string | null }>(
      `SELECT visitor_id, conversation_id, email, note, page_title, page_url FROM handoffs
       WHERE ${columns.map((c, i) => `lower(${c}) LIKE ${this.p(i + 1)} ESCAPE '\\'`).join(' OR ')}`,
      columns.map(() => like),
    );
    return rows.filter(
      (r) => normalizeEmail(r.email) === address || [r.note, r.page_title, decodedUrl(r.page_url)].some((text) => mentionsEmail(text, address)),
    );
  }

  async deleteCustomerHandoffs(links: SubjectLinks): Promise<SubjectDeletion> {
    if (links.visitors.length === 0) return { counts: { 'hand-offs': 0 }, visitors: [], conversations: [] };
    const seqs = `SELECT seq FROM handoffs WHERE visitor_id IN (${links.visitors.map((_, i) => this.p(i + 1)).join(', ')})`;
    // Children first: the same statements serve both stores, whatever their foreign-key setting.
    await this.query(`DELETE FROM handoff_attempts WHERE handoff_seq IN (${seqs}) RETURNING handoff_seq`, links.visitors);
    await this.query(`DELETE FROM handoff_deliveries WHERE handoff_seq IN (${seqs}) RETURNING handoff_seq`, links.visitors);
    const gone = await this.query<{ visitor_id: string; conversation_id: string }>(`DELETE FROM handoffs WHERE seq IN (${seqs}) RETURNING visitor_id, conversation_id`, links.visitors);
    return {
      counts: { 'hand-offs': gone.length },
      visitors: [...new Set(gone.map((r) => r.visitor_id))],
      conversations: [...new Set(gone.map((r) => r.conversation_id))],
    };
  }

  async conversationHandoff(conversationId: string, visitorId: string): Promise<HandoffRecord | undefined> {
    const rows = await this.query<HandoffRow>(`SELECT ${HANDOFF_COLUMNS} FROM handoffs WHERE conversation_id = ${this.p(1)} AND visitor_id = ${this.p(2)}`, [conversationId, visitorId]);
    return rows[0] && handoffFromRows(rows[0], await this.deliveriesOf(rows));
  }

  async conversationSignals(conversationId: string, visitorId: string, thinBelowConfidence: number): Promise<ConversationSignals> {
    const p = this.p;
    const [row] = await this.query<{ thin: number; handed_off: number }>(
      `SELECT
         (SELECT COUNT(*) FROM turns WHERE conversation_id = ${p(1)} AND visitor_id = ${p(2)} AND trigger = 'submit-message'
            AND (floor_used = 1 OR bm25_confidence < ${p(3)})) AS thin,
         (SELECT COUNT(*) FROM handoffs WHERE conversation_id = ${p(4)} AND visitor_id = ${p(5)}) AS handed_off`,
      [conversationId, visitorId, thinBelowConfidence, conversationId, visitorId],
    );
    return { thinTurns: Number(row!.thin), handedOff: Number(row!.handed_off) > 0 };
  }

  async listHandoffs(filter: { status?: DeliveryStatus }, page: number, pageSize: number): Promise<HandoffList> {
    const where = filter.status ? `WHERE status = ${this.p(1)}` : '';
    const params: unknown[] = filter.status ? [filter.status] : [];
    const total = Number((await this.query<{ n: number }>(`SELECT COUNT(*) AS n FROM handoffs ${where}`, params))[0]!.n);
    const size = Math.min(Math.max(1, Math.floor(pageSize)), 200);
    const pages = Math.max(1, Math.ceil(total / size));
    const current = Math.min(Math.max(1, Math.floor(page)), pages);
    const n = params.length;
    const rows = await this.query<HandoffRow>(
      `SELECT ${HANDOFF_COLUMNS} FROM handoffs ${where} ORDER BY seq DESC LIMIT ${this.p(n + 1)} OFFSET ${this.p(n + 2)}`,
      [...params, size, (current - 1) * size],
    );
    const deliveries = await this.deliveriesOf(rows);
    const handoffs = rows.map((row): HandoffSummary => {
      const record = handoffFromRows(row, deliveries);
      const lastError = record.deliveries.find((d) => d.status !== 'sent' && d.lastError)?.lastError;
      return { ...record, attempts: record.deliveries.reduce((sum, d) => sum + d.attempts, 0), ...(lastError ? { lastError } : {}) };
    });
    return { handoffs, total, page: current, pageSize: size, pages };
  }

  async getHandoff(id: string): Promise<HandoffDetail | undefined> {
    const [row] = await this.query<HandoffRow>(`SELECT ${HANDOFF_COLUMNS}, payload FROM handoffs WHERE id = ${this.p(1)}`, [id]);
    if (!row) return undefined;
    const attempts = await this.query<AttemptRow>(
      `SELECT channel, attempt, started_at, duration_ms, ok, error, instance FROM handoff_attempts WHERE handoff_seq = ${this.p(1)} ORDER BY started_at, channel, attempt`,
      [row.seq],
    );
    return { ...handoffFromRows(row, await this.deliveriesOf([row])), payload: row.payload!, attempts: attempts.map(attemptFromRow) };
  }

  async deflectionByDay({ since }: { since: string }): Promise<DeflectionDay[]> {
    const day = 'substr(CAST(c.started AS text), 1, 10)';
    const rows = await this.query<{ day: string; conversations: number; handed_off: number }>(
      `SELECT ${day} AS day, COUNT(*) AS conversations,
              SUM(CASE WHEN EXISTS (SELECT 1 FROM handoffs h WHERE h.conversation_id = c.conversation_id) THEN 1 ELSE 0 END) AS handed_off
       FROM (SELECT conversation_id, MIN(created_at) AS started FROM turns GROUP BY conversation_id) c
       WHERE c.started >= ${this.p(1)}
       GROUP BY ${day} ORDER BY day`,
      [since],
    );
    return rows.map((r) => ({ day: r.day, conversations: Number(r.conversations), handedOff: Number(r.handed_off) }));
  }

  async handoffsByReason({ since }: { since: string }): Promise<{ reason: HandoffReason; count: number }[]> {
    const rows = await this.query<{ reason: string; n: number }>(
      `SELECT reason, COUNT(*) AS n FROM handoffs WHERE created_at >= ${this.p(1)} GROUP BY reason ORDER BY n DESC, reason`,
      [since],
    );
    return rows.map((r) => ({ reason: r.reason as HandoffReason, count: Number(r.n) }));
  }

  async sectionsBeforeHandoffs(turnsBefore: number, limit: number): Promise<SectionBeforeHandoff[]> {
    const rows = await this.query<{ sectionId: string; handoffs: number }>(
      `SELECT r.section_id AS "sectionId", COUNT(DISTINCT b.handoff_seq) AS handoffs
       FROM (SELECT h.seq AS handoff_seq, t.seq AS turn_seq, ROW_NUMBER() OVER (PARTITION BY h.seq ORDER BY t.seq DESC) AS n
             FROM handoffs h JOIN turns t ON t.conversation_id = h.conversation_id AND t.visitor_id = h.visitor_id AND t.created_at <= h.created_at) b
       JOIN turn_sections ts ON ts.turn_seq = b.turn_seq
       JOIN verdict_reasons v ON v.code = ts.reason
       JOIN section_refs r ON r.ref = ts.section_ref
       WHERE b.n <= ${this.p(1)} AND v.reason = 'scored'
       GROUP BY r.section_id ORDER BY handoffs DESC, r.section_id LIMIT ${this.p(2)}`,
      [turnsBefore, limit],
    );
    return rows.map((r) => ({ sectionId: r.sectionId, handoffs: Number(r.handoffs) }));
  }
}
