import pg from 'pg';
import type { CustomerDataStore, DataSubject, SubjectDeletion, SubjectLinks } from './ports/customer-data';
import { ACCESS_KEEP_POSTGRES_MIGRATION, ACCESS_POSTGRES_MIGRATION, auditRetentionSql } from './access-sql';
import { SqlAccessStore } from './access-store';
import type { TurnStore, TurnEnd, TurnStart, TurnTrace } from './ports/turns';
import type { TurnFeedback } from './ports/feedback';
import { textHash, type KbVersion, type PromptFrame } from './compact';
import { tsQuery } from './inspector';
import type { InspectorStore } from './ports/inspector';
import type { AttemptResult, ClaimedDelivery, HandoffRecord, HandoffStart, HandoffStore } from './ports/handoffs';
import {
  attemptParams,
  claimedDelivery,
  claimedHandoffSql,
  finishDeliverySql,
  finishParams,
  HANDOFF_INSERT_COLUMNS,
  HANDOFF_POSTGRES_MIGRATION,
  handoffInsertValues,
  insertAttemptSql,
  insertDeliverySql,
  insertHandoffSql,
  refreshStatusSql,
  retryFailedSql,
  type ClaimedHandoffRow,
  type ClaimRow,
} from './handoff-sql';
import {
  KbVersionCache,
  kbVersionFromRows,
  SELECT_KB_SECTIONS,
  SELECT_KB_VERSION,
  SELECT_TURNS,
  traceFromRow,
  TURN_FINISH_COLUMNS,
  TURN_INSERT_COLUMNS,
  turnFinishValues,
  turnInsertValues,
  turnSectionReasons,
  type KbSectionRow,
  type KbVersionRow,
  type TurnRow,
} from './rows';
import { LOOP_POSTGRES_MIGRATION, setFeedbackParams, setFeedbackSql } from './loop-sql';

/**
 * Turn traces in PostgreSQL (node-postgres, one pool per process), for several app
 * instances behind one database: the same tables as sqlite.ts, table for table (rows.ts
 * maps both), with PostgreSQL's types — identity keys, timestamptz, double precision — and
 * its own full-text search for the question filter (a generated `tsvector` column with a GIN
 * index, where SQLite has FTS5). Also holds the chat's shared rate-limit buckets
 * (`rate_limits`, lib/rate-limit) and the admin session generation.
 *
 * Differences from the SQLite schema, on purpose:
 * - turn_sections has no foreign key to turns: PostgreSQL would look up turn_sections by
 *   turn_seq for every deleted turn, and no index leads with turn_seq (it would double the
 *   table). Retention deletes a batch's turn_sections first (`deleteTurnsBefore`).
 * - no legacy payload columns: turns from before compact traces only exist in SQLite files.
 *
 * Migrations: POSTGRES_MIGRATIONS[i] moves the schema from version i to i + 1, recorded in
 * `schema_migrations`; they run when a store opens, under an advisory lock, so instances
 * starting at once migrate one after the other (the second finds nothing to do). Append
 * migrations, never edit a released one.
 */

export const POSTGRES_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE texts (
    hash text PRIMARY KEY,
    text text NOT NULL
  );
  CREATE TABLE kb_versions (
    id                integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hash              text             NOT NULL UNIQUE,
    created_at        timestamptz      NOT NULL,
    instructions_hash text             NOT NULL REFERENCES texts (hash),
    pinned_hash       text             NOT NULL REFERENCES texts (hash),
    config            text             NOT NULL,
    avg_doc_length    double precision NOT NULL,
    sections          integer          NOT NULL
  );
  CREATE TABLE section_refs (
    ref        integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    section_id text NOT NULL UNIQUE
  );
  CREATE TABLE kb_sections (
    kb_version  integer          NOT NULL REFERENCES kb_versions (id) ON DELETE CASCADE,
    position    integer          NOT NULL,
    section_ref integer          NOT NULL REFERENCES section_refs (ref),
    title       text             NOT NULL,
    parents     text             NOT NULL,
    source      text             NOT NULL,
    line        integer          NOT NULL,
    tokens      integer          NOT NULL,
    pinned      smallint         NOT NULL,
    part_index  integer,
    part_count  integer,
    part_of     text,
    bm25_length double precision,
    text_hash   text             NOT NULL REFERENCES texts (hash),
    PRIMARY KEY (kb_version, position)
  );
  CREATE TABLE prompt_frames (
    id    integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hash  text NOT NULL UNIQUE,
    frame text NOT NULL
  );
  CREATE TABLE turns (
    seq               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id                text             NOT NULL UNIQUE,
    conversation_id   text             NOT NULL,
    visitor_id        text,
    created_at        timestamptz      NOT NULL,
    trigger           text             NOT NULL,
    status            text             NOT NULL CHECK (status IN ('pending', 'ok', 'error', 'aborted')),
    question          text             NOT NULL,
    question_tsv      tsvector GENERATED ALWAYS AS (to_tsvector('english', question)) STORED,
    customer_messages text             NOT NULL,
    query             text,
    kb_version        integer REFERENCES kb_versions (id),
    floor_used        smallint         NOT NULL,
    top_score         double precision NOT NULL,
    budget            integer          NOT NULL,
    tokens_pinned     integer          NOT NULL,
    tokens_scored     integer          NOT NULL,
    tokens_floor      integer          NOT NULL,
    tokens_total      integer          NOT NULL,
    n_sections        integer          NOT NULL,
    n_pinned          integer          NOT NULL,
    n_matched         integer          NOT NULL,
    n_scored          integer          NOT NULL,
    n_floor           integer          NOT NULL,
    n_over_budget     integer          NOT NULL,
    n_no_match        integer          NOT NULL,
    n_omitted         integer          NOT NULL,
    selection         text,
    prompt_frame      integer REFERENCES prompt_frames (id),
    provider          text             NOT NULL,
    model_id          text             NOT NULL,
    selection_us      integer          NOT NULL,
    reply             text             NOT NULL DEFAULT '',
    usage             text,
    input_tokens      integer,
    output_tokens     integer,
    finish_reason     text,
    first_token_ms    double precision,
    total_ms          double precision,
    error             text,
    finished_at       timestamptz
  );
  CREATE INDEX turns_created_at ON turns (created_at);
  CREATE INDEX turns_conversation ON turns (conversation_id, created_at);
  CREATE INDEX turns_status ON turns (status, created_at);
  CREATE INDEX turns_floor_used ON turns (floor_used, created_at);
  CREATE INDEX turns_visitor_conversation ON turns (visitor_id, conversation_id, created_at);
  CREATE INDEX turns_question_tsv ON turns USING gin (question_tsv);

  CREATE TABLE turn_payloads (
    turn_seq      bigint PRIMARY KEY REFERENCES turns (seq) ON DELETE CASCADE,
    explanation   text,
    system_prompt text
  );
  CREATE TABLE verdict_reasons (
    code   smallint PRIMARY KEY,
    reason text     NOT NULL UNIQUE,
    sent   smallint NOT NULL
  );
  INSERT INTO verdict_reasons (code, reason, sent) VALUES
    (0, 'over-budget', 0), (1, 'scored', 1), (2, 'floor', 1), (3, 'pinned', 1), (4, 'no-match', 0);
  CREATE TABLE turn_sections (
    section_ref integer  NOT NULL REFERENCES section_refs (ref),
    turn_seq    bigint   NOT NULL,
    reason      smallint NOT NULL REFERENCES verdict_reasons (code),
    PRIMARY KEY (section_ref, turn_seq)
  );

  CREATE TABLE admin_state (
    key   text PRIMARY KEY,
    value integer NOT NULL
  );
  -- rate-limiter-flexible's RateLimiterPostgres table (created here, not by the library, so
  -- that instances starting at once do not race to create it).
  CREATE TABLE rate_limits (
    key    varchar(255) PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint
  );
  `,
  // 2: a reply's sources and number check, feedback on replies (loop-sql.ts, as SQLite's schema 4).
  LOOP_POSTGRES_MIGRATION,
  // 3: the embed's page context and verified user, a visitor's newest conversation (as SQLite's schema 5).
  `
  ALTER TABLE turns ADD COLUMN page_url text, ADD COLUMN page_title text, ADD COLUMN user_id text;
  CREATE INDEX turns_visitor_latest ON turns (visitor_id, created_at);
  `,
  // 4: hand-offs to a person and their deliveries, and each turn's BM25 confidence (handoff-sql.ts, as SQLite's schema 6).
  HANDOFF_POSTGRES_MIGRATION,
  // 5: /debug's access (access-sql.ts, as SQLite's schema 7).
  ACCESS_POSTGRES_MIGRATION,
  // 6: the audit trail refuses DELETE but its retention's, and TRUNCATE; a key remembers the key it was made with (as SQLite's schema 8).
  ACCESS_KEEP_POSTGRES_MIGRATION,
];

/** The tables whose rows hold what customers wrote (their questions, votes, hand-offs), vacuumed after a customer's data is deleted. */
const CUSTOMER_TEXT_TABLES = ['turns', 'turn_payloads', 'turn_feedback', 'handoffs', 'handoff_attempts'];
/** How long that VACUUM may take: it reads the tables' pages that changed and their indexes. */
const VACUUM_TIMEOUT_MS = 10 * 60_000;

/** Advisory lock keys (any two 32-bit numbers; these spell "trst" and a purpose). */
const MIGRATION_LOCK = [0x74727374, 1];
const RETENTION_LOCK = [0x74727374, 2];

const parseTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);

/**
 * Result types as the stores share them: bigint (identity keys, counts, sums) as numbers —
 * none comes near 2^53 — and timestamptz as an ISO 8601 string, as it was written.
 */
const TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    if (oid === pg.types.builtins.NUMERIC) return (value: string) => Number(value);
    if (oid === pg.types.builtins.TIMESTAMPTZ) return (value: string) => (parseTimestamptz(value) as Date).toISOString();
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as unknown as pg.CustomTypesConfig;

/** A DATABASE_URL as logs and /debug may show it: host, port and database, never the user or password. */
export function databaseLabel(url: string): string {
  const { hostname, port, pathname } = new URL(url);
  return `${hostname}:${port || 5432}${pathname}`;
}

export interface PostgresOptions {
  /** Connections this process keeps at most (default 10). */
  max?: number;
  /** How long to wait for a connection before a query fails, ms (default 2000): the chat must not hang on a database that is gone. */
  connectionTimeoutMillis?: number;
  /** How long one query may take before it fails, ms (default 5000). */
  queryTimeoutMillis?: number;
}

/** A pool for DATABASE_URL. Connections are made when first used; errors of idle ones are logged, not thrown. */
export function createPostgresPool(url: string, options: PostgresOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 2000,
    query_timeout: options.queryTimeoutMillis ?? 5000,
    idleTimeoutMillis: 30_000,
    application_name: 'trusty-support-chat',
    options: '-c TimeZone=UTC',
    types: TYPES,
  });
  pool.on('error', (error) => console.error(`[postgres] idle connection failed: ${error.message}`));
  return pool;
}

/** Brings the schema up to date, one instance at a time (advisory lock). */
export async function migratePostgres(pool: pg.Pool, migrations = POSTGRES_MIGRATIONS): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', MIGRATION_LOCK);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      const { rows } = await client.query<{ version: number }>('SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations');
      const version = rows[0]!.version;
      if (version > migrations.length) {
        throw new Error(`the database has schema version ${version}, newer than this app knows (${migrations.length})`);
      }
      for (let v = version; v < migrations.length; v++) {
        await transaction(client, async () => {
          await client.query(migrations[v]!);
          await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [v + 1]);
        });
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', MIGRATION_LOCK);
    }
  } finally {
    client.release();
  }
}

async function transaction<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** Deletes these turns (ascending seqs): their sections first (found through the primary key: one range seek per section ref), the rest cascades. */
async function deleteSeqs(client: pg.PoolClient, seqs: number[]): Promise<void> {
  if (seqs.length === 0) return;
  await client.query(
    `DELETE FROM turn_sections
     WHERE section_ref IN (SELECT ref FROM section_refs) AND turn_seq BETWEEN $1 AND $2 AND turn_seq = ANY($3::bigint[])`,
    [seqs[0], seqs.at(-1), seqs],
  );
  await client.query('DELETE FROM turns WHERE seq = ANY($1::bigint[])', [seqs]);
}

const PG_DIALECT = {
  placeholder: (n: number) => `$${n}`,
  questionMatch(text: string, param: (value: unknown) => string) {
    const query = tsQuery(text);
    return query && `question_tsv @@ to_tsquery('english', ${param(query)})`;
  },
};

const SET_FEEDBACK = setFeedbackSql((n) => `$${n}`);
const dollar = (n: number) => `$${n}`;
const INSERT_HANDOFF = insertHandoffSql(dollar);
const INSERT_DELIVERY = insertDeliverySql(dollar);
const INSERT_ATTEMPT = insertAttemptSql(dollar);
const FINISH_DELIVERY = finishDeliverySql(dollar);
const REFRESH_STATUS = refreshStatusSql(dollar);
const RETRY_FAILED = retryFailedSql(dollar);
const CLAIMED_HANDOFF = claimedHandoffSql(dollar);
/**
 * Claims due deliveries for one instance: the rows are locked as they are picked, and rows
 * another instance's claim holds are skipped, not waited for, so two instances never claim the
 * same delivery ($1 lease until, $2 now, $3 limit).
 */
const CLAIM_DELIVERIES = `
  WITH due AS (
    SELECT handoff_seq, channel FROM handoff_deliveries
    WHERE status = 'pending' AND next_attempt_at <= $2 AND (lease_until IS NULL OR lease_until <= $2)
    ORDER BY next_attempt_at LIMIT $3
    FOR UPDATE SKIP LOCKED)
  UPDATE handoff_deliveries d SET attempts = d.attempts + 1, lease_until = $1
  FROM due WHERE d.handoff_seq = due.handoff_seq AND d.channel = due.channel
  RETURNING d.handoff_seq, d.channel, d.attempts, d.retry_until`;
const INSERT_TURN = `INSERT INTO turns (${TURN_INSERT_COLUMNS.join(', ')})
  VALUES (${TURN_INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING seq`;
const FINISH_TURN = `UPDATE turns SET ${TURN_FINISH_COLUMNS.map((c, i) => `${c} = $${i + 2}`).join(', ')}
  WHERE id = $1 AND status = 'pending'`;

/**
 * The migrations of one store: run once, shared by every call that waits for them. A run that
 * failed (PostgreSQL down at start, or a blip) is tried again by the first call at least
 * `retryAfterMs` after it failed, so a server started before its database recovers without a
 * restart; calls in between get the failure at once instead of piling up connections.
 */
export class Migrations {
  private run: Promise<void> | undefined;
  private failedAt: number | undefined;

  constructor(
    private readonly migrate: () => Promise<void>,
    private readonly retryAfterMs = 2000,
    private readonly now: () => number = Date.now,
  ) {}

  current(): Promise<void> {
    if (!this.run || (this.failedAt !== undefined && this.now() - this.failedAt >= this.retryAfterMs)) {
      this.failedAt = undefined;
      const run = this.migrate();
      this.run = run;
      // A failed run is reported by the calls that wait for it, not as an unhandled rejection.
      run.catch(() => {
        if (this.run === run) this.failedAt = this.now();
      });
    }
    return this.run;
  }
}

/** The trace store, the inspector's queries and the admin state over one PostgreSQL database. */
export class PostgresTraceStore extends SqlAccessStore implements TurnStore, InspectorStore, CustomerDataStore, HandoffStore {
  private readonly written = new WeakMap<KbVersion, { id: number; refs: number[] }>();
  private readonly read = new KbVersionCache();
  /** Prompt frames written or read: id by their JSON text. */
  private readonly frames = new Map<string, number>();
  private readonly frameTexts = new Map<number, PromptFrame>();

  private readonly migrations: Migrations;

  /** `migrate`: brings the schema up to date; every call waits for it, and a failed run is tried again (Migrations). */
  constructor(
    readonly pool: pg.Pool,
    migrate: () => Promise<void> = () => migratePostgres(pool),
  ) {
    // Every read (the inspector's and this store's) waits for the migrations.
    super(async <Row>(sql: string, params: unknown[]) => {
      await this.migrated;
      return (await pool.query(sql, params)).rows as Row[];
    }, PG_DIALECT);
    this.migrations = new Migrations(migrate);
  }

  /** Resolves once the schema is up to date: the current run of the migrations, or a new one when the last failed. */
  get migrated(): Promise<void> {
    return this.migrations.current();
  }

  /** Resolves when the schema is up to date and the database answers. */
  async latestVisitorConversation(visitorId: string): Promise<string | undefined> {
    const rows = await this.query<{ conversation_id: string }>(
      'SELECT conversation_id FROM turns WHERE visitor_id = $1 ORDER BY created_at DESC, seq DESC LIMIT 1',
      [visitorId],
    );
    return rows[0]?.conversation_id;
  }

  async ready(): Promise<void> {
    await this.migrated;
    await this.pool.query('SELECT 1');
  }

  async startTurn(turn: TurnStart): Promise<void> {
    await this.migrated;
    const { record } = turn;
    const client = await this.pool.connect();
    let version: { id: number; refs: number[] } | undefined;
    let frame: { json: string; id: number } | undefined;
    try {
      await transaction(client, async () => {
        version = await this.kbVersionId(client, turn.kb, turn.createdAt);
        frame = 'frame' in record.prompt ? await this.frameId(client, record.prompt.frame) : undefined;
        const values = turnInsertValues(turn, version.id, frame?.id ?? null);
        const { rows } = await client.query<{ seq: number }>(INSERT_TURN, TURN_INSERT_COLUMNS.map((c) => values[c]));
        const seq = rows[0]!.seq;
        // The inspector's index of sections sent or matched.
        const { keys, codes } = turnSectionReasons(turn);
        const byId = await this.sectionRefs(client, keys.filter((key): key is string => typeof key === 'string'));
        await client.query(
          'INSERT INTO turn_sections (section_ref, turn_seq, reason) SELECT ref, $2, reason FROM unnest($1::int[], $3::smallint[]) AS s (ref, reason)',
          [keys.map((key) => (typeof key === 'number' ? version!.refs[key] : byId.get(key))), seq, codes],
        );
        if ('whole' in record.selection || 'whole' in record.prompt) {
          await client.query('INSERT INTO turn_payloads (turn_seq, explanation, system_prompt) VALUES ($1, $2, $3)', [
            seq,
            'whole' in record.selection ? JSON.stringify(record.selection.whole) : null,
            'whole' in record.prompt ? record.prompt.whole : null,
          ]);
        }
      });
    } finally {
      client.release();
    }
    // Remembered once committed: a rolled-back transaction wrote nothing.
    this.written.set(turn.kb, version!);
    this.read.set(version!.id, turn.kb);
    if (frame && 'frame' in record.prompt) {
      this.frames.set(frame.json, frame.id);
      this.frameTexts.set(frame.id, record.prompt.frame);
    }
  }

  /**
   * The database id of a KB version, writing it (texts, section refs, sections) the first
   * time any instance sees it. Two instances writing the same new version at once: the
   * second's insert waits for the first's commit, then finds the row and writes nothing.
   */
  private async kbVersionId(client: pg.PoolClient, kb: KbVersion, createdAt: string): Promise<{ id: number; refs: number[] }> {
    const known = this.written.get(kb);
    if (known) return known;
    const byHash = 'SELECT id FROM kb_versions WHERE hash = $1';
    let id = (await client.query<{ id: number }>(byHash, [kb.hash])).rows[0]?.id;
    if (id === undefined) {
      const texts = new Map([kb.instructions, kb.pinnedContext, ...kb.sections.map((s) => s.text)].map((t) => [textHash(t), t]));
      const hashes = [...texts.keys()].sort();
      await client.query('INSERT INTO texts (hash, text) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (hash) DO NOTHING', [
        hashes,
        hashes.map((h) => texts.get(h)),
      ]);
      const refs = await this.sectionRefs(client, kb.sections.map((s) => s.id));
      const inserted = await client.query<{ id: number }>(
        `INSERT INTO kb_versions (hash, created_at, instructions_hash, pinned_hash, config, avg_doc_length, sections)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (hash) DO NOTHING RETURNING id`,
        [kb.hash, createdAt, textHash(kb.instructions), textHash(kb.pinnedContext), JSON.stringify(kb.config), kb.avgDocLength, kb.sections.length],
      );
      id = inserted.rows[0]?.id;
      if (id === undefined) id = (await client.query<{ id: number }>(byHash, [kb.hash])).rows[0]!.id;
      else await this.insertKbSections(client, id, kb, refs);
    }
    const { rows } = await client.query<{ section_ref: number }>('SELECT section_ref FROM kb_sections WHERE kb_version = $1 ORDER BY position', [id]);
    return { id, refs: rows.map((r) => r.section_ref) };
  }

  private async insertKbSections(client: pg.PoolClient, id: number, kb: KbVersion, refs: Map<string, number>): Promise<void> {
    const s = kb.sections;
    await client.query(
      `INSERT INTO kb_sections (kb_version, position, section_ref, title, parents, source, line, tokens, pinned,
         part_index, part_count, part_of, bm25_length, text_hash)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::smallint[],
         $10::int[], $11::int[], $12::text[], $13::float8[], $14::text[])`,
      [
        id,
        s.map((_, position) => position),
        s.map((x) => refs.get(x.id)),
        s.map((x) => x.title),
        s.map((x) => JSON.stringify(x.parents)),
        s.map((x) => x.source),
        s.map((x) => x.line),
        s.map((x) => x.tokens),
        s.map((x) => (x.pinned ? 1 : 0)),
        s.map((x) => x.part?.index ?? null),
        s.map((x) => x.part?.count ?? null),
        s.map((x) => x.part?.sectionId ?? null),
        s.map((x) => x.bm25Length ?? null),
        s.map((x) => textHash(x.text)),
      ],
    );
  }

  /** Section id → its small integer, creating the missing ones (sorted, so concurrent writers lock in one order). */
  private async sectionRefs(client: pg.PoolClient, sectionIds: string[]): Promise<Map<string, number>> {
    if (sectionIds.length === 0) return new Map();
    const ids = [...new Set(sectionIds)].sort();
    await client.query('INSERT INTO section_refs (section_id) SELECT unnest($1::text[]) ORDER BY 1 ON CONFLICT (section_id) DO NOTHING', [ids]);
    const { rows } = await client.query<{ ref: number; section_id: string }>('SELECT ref, section_id FROM section_refs WHERE section_id = ANY($1)', [ids]);
    return new Map(rows.map((r) => [r.section_id, r.ref]));
  }

  private async frameId(client: pg.PoolClient, frame: PromptFrame): Promise<{ json: string; id: number }> {
    const json = JSON.stringify(frame);
    let id = this.frames.get(json);
    if (id !== undefined) return { json, id };
    const hash = textHash(json);
    await client.query('INSERT INTO prompt_frames (hash, frame) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING', [hash, json]);
    id = (await client.query<{ id: number }>('SELECT id FROM prompt_frames WHERE hash = $1', [hash])).rows[0]!.id;
    return { json, id };
  }

  /** Reads what the rows' traces will need (KB versions, prompt frames) and not yet held, then builds them. */
  private async traces(rows: TurnRow[], lazy: boolean): Promise<TurnTrace[]> {
    const versions = new Map<number, KbVersion>();
    for (const id of new Set(rows.map((r) => r.kb_version))) {
      if (id === null) continue;
      let kb = this.read.get(id);
      if (!kb) {
        const [version] = await this.query<KbVersionRow>(`${SELECT_KB_VERSION} WHERE v.id = $1`, [id]);
        const sections = await this.query<KbSectionRow>(`${SELECT_KB_SECTIONS} WHERE s.kb_version = $1 ORDER BY s.position`, [id]);
        kb = kbVersionFromRows(version!, sections);
        this.read.set(id, kb);
      }
      versions.set(id, kb);
    }
    const missing = [...new Set(rows.map((r) => r.prompt_frame))].filter((id): id is number => id !== null && !this.frameTexts.has(id));
    if (missing.length) {
      for (const r of await this.query<{ id: number; frame: string }>('SELECT id, frame FROM prompt_frames WHERE id = ANY($1)', [missing])) {
        this.frameTexts.set(r.id, JSON.parse(r.frame) as PromptFrame);
      }
    }
    const frame = (id: number) => this.frameTexts.get(id)!;
    return rows.map((row) => traceFromRow(row, row.kb_version === null ? undefined : versions.get(row.kb_version), frame, lazy));
  }

  async finishTurn(id: string, end: TurnEnd): Promise<boolean> {
    await this.migrated;
    const values = turnFinishValues(end);
    const result = await this.pool.query(FINISH_TURN, [id, ...TURN_FINISH_COLUMNS.map((c) => values[c])]);
    return result.rowCount === 1;
  }

  async getTurn(id: string): Promise<TurnTrace | undefined> {
    const rows = await this.query<TurnRow>(`${SELECT_TURNS} WHERE t.id = $1`, [id]);
    return (await this.traces(rows, false))[0];
  }

  async listTurnsByConversation(conversationId: string): Promise<TurnTrace[]> {
    const rows = await this.query<TurnRow>(`${SELECT_TURNS} WHERE t.conversation_id = $1 ORDER BY t.created_at, t.seq`, [conversationId]);
    return this.traces(rows, true);
  }

  async listVisitorConversation(conversationId: string, visitorId: string): Promise<TurnTrace[]> {
    const rows = await this.query<TurnRow>(`${SELECT_TURNS} WHERE t.conversation_id = $1 AND t.visitor_id = $2 ORDER BY t.created_at, t.seq`, [
      conversationId,
      visitorId,
    ]);
    return this.traces(rows, true);
  }

  /**
   * Deletes up to `batchSize` turns made before `cutoff`, oldest first, with their sections
   * (found through the primary key: one range seek per section ref) and payloads (cascade),
   * in one short transaction; returns how many went. One instance at a time: the others,
   * finding the lock taken, delete nothing and return 0.
   */
  async deleteTurnsBefore(cutoff: string, batchSize: number): Promise<number> {
    await this.migrated;
    const client = await this.pool.connect();
    try {
      return await transaction(client, async () => {
        const { rows: lock } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1, $2) AS locked', RETENTION_LOCK);
        if (!lock[0]!.locked) return 0;
        const { rows } = await client.query<{ seq: number }>('SELECT seq FROM turns WHERE created_at < $1 ORDER BY seq LIMIT $2', [cutoff, batchSize]);
        const seqs = rows.map((r) => r.seq);
        await deleteSeqs(client, seqs);
        return seqs.length;
      });
    } finally {
      client.release();
    }
  }

  async deleteCustomerTurns(subject: DataSubject, links: SubjectLinks): Promise<SubjectDeletion> {
    const rows = await this.access.customerTurnSeqs(subject, links);
    const client = await this.pool.connect();
    try {
      await transaction(client, () => deleteSeqs(client, rows.map((r) => r.seq)));
    } finally {
      client.release();
    }
    return SqlAccessStore.turnDeletion(rows);
  }

  /**
   * A deleted row stays in its table's file (a dead tuple) until VACUUM removes it: the tables
   * that hold customer text are vacuumed now (plain VACUUM: reads and writes go on meanwhile).
   * What it does not reach: a transaction older than the deletion that is still open keeps the
   * rows it can see; the full-text index keeps the question's words as keys (without their
   * rows) until it is rebuilt; the WAL and backups keep them for their own retention.
   */
  async purgeDeleted(): Promise<void> {
    await this.migrated;
    // node-postgres reads a query's own query_timeout (its types do not list it).
    const vacuum: pg.QueryConfig & { query_timeout: number } = { text: `VACUUM ${CUSTOMER_TEXT_TABLES.join(', ')}`, query_timeout: VACUUM_TIMEOUT_MS };
    await this.pool.query(vacuum);
  }

  async deleteAuditBefore(cutoff: string, batchSize: number): Promise<number> {
    await this.migrated;
    const sql = auditRetentionSql(PG_DIALECT.placeholder);
    return this.inTransaction(async (client) => {
      await client.query(sql.declare, [cutoff]);
      const deleted = (await client.query(sql.deleteBatch, [cutoff, batchSize])).rowCount ?? 0;
      await client.query(sql.withdraw);
      return deleted;
    });
  }

  /** Rows another transaction holds (a finishTurn in flight) are skipped, not waited for: that ending wins. */
  async closePendingTurnsBefore(cutoff: string, reason: string, batchSize: number): Promise<number> {
    await this.migrated;
    const result = await this.pool.query(
      `UPDATE turns SET status = 'error', error = $1, finished_at = $2
       WHERE seq IN (SELECT seq FROM turns WHERE status = 'pending' AND created_at < $3 ORDER BY created_at LIMIT $4 FOR UPDATE SKIP LOCKED)`,
      [reason, new Date().toISOString(), cutoff, batchSize],
    );
    return result.rowCount ?? 0;
  }

  /** Ends the pool. */
  async close(): Promise<void> {
    await this.migrated.catch(() => {});
    await this.pool.end();
  }

  async setFeedback(turnId: string, feedback: TurnFeedback): Promise<boolean> {
    await this.migrated;
    const result = await this.pool.query(SET_FEEDBACK, setFeedbackParams(turnId, feedback));
    return result.rowCount === 1;
  }

  async createHandoff(handoff: HandoffStart): Promise<{ created: boolean; handoff: HandoffRecord }> {
    await this.migrated;
    const values = handoffInsertValues(handoff);
    const created = await this.inTransaction(async (client) => {
      const { rows } = await client.query<{ seq: number }>(INSERT_HANDOFF, HANDOFF_INSERT_COLUMNS.map((c) => values[c]));
      if (!rows[0]) return false;
      for (const channel of handoff.channels) await client.query(INSERT_DELIVERY, [rows[0].seq, channel, handoff.createdAt, handoff.retryUntil]);
      return true;
    });
    return { created, handoff: (await this.conversationHandoff(handoff.conversationId, handoff.visitorId))! };
  }

  async claimDeliveries(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    const claimed = await this.query<ClaimRow>(CLAIM_DELIVERIES, [leaseUntil, now, limit]);
    const deliveries: ClaimedDelivery[] = [];
    for (const claim of claimed) {
      const [handoff] = await this.query<ClaimedHandoffRow>(CLAIMED_HANDOFF, [claim.handoff_seq]);
      deliveries.push(claimedDelivery(claim, handoff!));
    }
    return deliveries;
  }

  async finishAttempt(result: AttemptResult): Promise<void> {
    await this.migrated;
    await this.inTransaction(async (client) => {
      await client.query(INSERT_ATTEMPT, attemptParams(result));
      await client.query(FINISH_DELIVERY, finishParams(result));
      await client.query(REFRESH_STATUS, [result.handoffId]);
    });
  }

  async retryFailed(handoffId: string, now: string, retryUntil: string): Promise<number> {
    await this.migrated;
    return this.inTransaction(async (client) => {
      const result = await client.query(RETRY_FAILED, [now, retryUntil, handoffId]);
      await client.query(REFRESH_STATUS, [handoffId]);
      return result.rowCount ?? 0;
    });
  }

  private async inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      return await transaction(client, () => work(client));
    } finally {
      client.release();
    }
  }
}
