import { ACCESS_KEEP_POSTGRES_MIGRATION, ACCESS_POSTGRES_MIGRATION } from './access-sql';
import { HANDOFF_POSTGRES_MIGRATION } from './handoff-sql';
import type { Migration } from './dialect';
import { LOOP_POSTGRES_MIGRATION } from './loop-sql';
import { oneStoredForm } from './one-form';

/**
 * The PostgreSQL schema's migrations: the same tables as SQLite's (sqlite-migrations.ts), table
 * for table, in PostgreSQL's types — identity keys, timestamptz, double precision — with its own
 * full-text search for the question filter (a generated `tsvector` column with a GIN index, where
 * SQLite has FTS5); also the chat's shared rate-limit buckets (`rate_limits`, lib/rate-limit) and
 * the admin session generation.
 *
 * Differences from the SQLite schema, on purpose:
 * - turn_sections has no foreign key to turns: PostgreSQL would look up turn_sections by
 *   turn_seq for every deleted turn, and no index leads with turn_seq (it would double the
 *   table). A batch's turn_sections are deleted first (sql-store.ts `deleteSeqsSteps`).
 * - no legacy payload columns: turns from before compact traces only exist in SQLite files.
 * - a turn in an older form than the packed record is refused by a CHECK constraint (SQLite: a trigger).
 *
 * POSTGRES_MIGRATIONS[i] moves the schema from version i to i + 1, recorded in
 * `schema_migrations`; they run when a store opens, under an advisory lock (postgres.ts
 * migratePostgres). Append migrations, never edit a released one.
 */

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
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
  // 7: one stored form of a turn's selection (one-form.ts, as SQLite's schema 9).
  (dialect) =>
    oneStoredForm(dialect, [
      `ALTER TABLE turns ADD CONSTRAINT turns_one_form
       CHECK (selection IS NOT NULL AND selection NOT LIKE '{"v":1,%' AND selection NOT LIKE '{"v":2,%')`,
    ]),
];
