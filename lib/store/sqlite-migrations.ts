import { ACCESS_KEEP_SQLITE_MIGRATION, ACCESS_SQLITE_MIGRATION } from './access-sql';
import { HANDOFF_SQLITE_MIGRATION } from './handoff-sql';
import type { Migration } from './dialect';
import { LOOP_SQLITE_MIGRATION } from './loop-sql';
import { oneStoredForm } from './one-form';

/**
 * The SQLite schema's migrations: MIGRATIONS[i] moves it from version i to i + 1 (`PRAGMA
 * user_version`), run when the database is opened (sqlite.ts), each in a transaction. The tables:
 * docs/trace-storage.md. Append migrations, never edit a released one.
 */

export const MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE turns (
    seq               INTEGER PRIMARY KEY,
    id                TEXT    NOT NULL UNIQUE,
    conversation_id   TEXT    NOT NULL,
    created_at        TEXT    NOT NULL,
    trigger           TEXT    NOT NULL,
    status            TEXT    NOT NULL CHECK (status IN ('pending', 'ok', 'error', 'aborted')),
    question          TEXT    NOT NULL,
    customer_messages TEXT    NOT NULL,
    query_terms       TEXT    NOT NULL,
    floor_used        INTEGER NOT NULL,
    top_score         REAL    NOT NULL,
    budget            INTEGER NOT NULL,
    tokens_pinned     INTEGER NOT NULL,
    tokens_scored     INTEGER NOT NULL,
    tokens_floor      INTEGER NOT NULL,
    tokens_total      INTEGER NOT NULL,
    explanation       TEXT    NOT NULL,
    system_prompt     TEXT    NOT NULL,
    provider          TEXT    NOT NULL,
    model_id          TEXT    NOT NULL,
    selection_us      INTEGER NOT NULL,
    reply             TEXT    NOT NULL DEFAULT '',
    usage             TEXT,
    input_tokens      INTEGER,
    output_tokens     INTEGER,
    finish_reason     TEXT,
    first_token_ms    REAL,
    total_ms          REAL,
    error             TEXT,
    finished_at       TEXT
  );
  CREATE INDEX turns_created_at ON turns (created_at);
  CREATE INDEX turns_conversation ON turns (conversation_id, created_at);
  CREATE INDEX turns_status ON turns (status, created_at);
  CREATE INDEX turns_floor_used ON turns (floor_used, created_at);
  CREATE INDEX turns_question ON turns (question COLLATE NOCASE);

  CREATE VIRTUAL TABLE turns_question_fts USING fts5 (
    question, content = 'turns', content_rowid = 'seq', tokenize = 'porter unicode61'
  );
  CREATE TRIGGER turns_question_fts_insert AFTER INSERT ON turns BEGIN
    INSERT INTO turns_question_fts (rowid, question) VALUES (new.seq, new.question);
  END;
  CREATE TRIGGER turns_question_fts_delete AFTER DELETE ON turns BEGIN
    INSERT INTO turns_question_fts (turns_question_fts, rowid, question) VALUES ('delete', old.seq, old.question);
  END;

  CREATE TABLE turn_sections (
    turn_id    TEXT    NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    section_id TEXT    NOT NULL,
    position   INTEGER NOT NULL,
    reason     TEXT    NOT NULL CHECK (reason IN ('pinned', 'scored', 'floor', 'over-budget', 'no-match')),
    sent       INTEGER NOT NULL,
    score      REAL    NOT NULL,
    rank       INTEGER,
    tokens     INTEGER NOT NULL,
    PRIMARY KEY (turn_id, section_id)
  ) WITHOUT ROWID;
  CREATE INDEX turn_sections_by_section ON turn_sections (section_id, sent, reason);
  CREATE INDEX turn_sections_by_sent ON turn_sections (sent, section_id);
  `,
  // 2: the visitor a turn came from (lib/chat/visitor.ts): a conversation is read and
  // continued by (conversation id, visitor) only. Older turns have none: nobody reads them.
  // The admin session generation (lib/admin/sessions.ts): signing out bumps it.
  `
  ALTER TABLE turns ADD COLUMN visitor_id TEXT;
  CREATE INDEX turns_visitor_conversation ON turns (visitor_id, conversation_id, created_at);
  CREATE TABLE admin_state (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
  );
  `,
  // 3: compact traces (compact.ts). A KB version's sections are stored once (kb_versions,
  // kb_sections, texts by content hash, section_refs); a turn keeps its query, summary and
  // the listed verdicts (turn_sections, now with each term's tf and the send order); the
  // system prompt is a frame around slots (prompt_frames). Turns written before keep their
  // whole explanation and prompt in turn_payloads. turns and turn_sections are rebuilt
  // (SQLite cannot drop NOT NULL columns): renamed, copied, dropped. The unused
  // case-insensitive index on the question goes (the question filter is the FTS index).
  `
  DROP TRIGGER turns_question_fts_insert;
  DROP TRIGGER turns_question_fts_delete;
  DROP TABLE turns_question_fts;
  DROP INDEX turns_created_at;
  DROP INDEX turns_conversation;
  DROP INDEX turns_status;
  DROP INDEX turns_floor_used;
  DROP INDEX turns_question;
  DROP INDEX turns_visitor_conversation;
  DROP INDEX turn_sections_by_section;
  DROP INDEX turn_sections_by_sent;
  ALTER TABLE turn_sections RENAME TO turn_sections_v2;
  ALTER TABLE turns RENAME TO turns_v2;

  CREATE TABLE texts (
    hash TEXT PRIMARY KEY,
    text TEXT NOT NULL
  );
  CREATE TABLE kb_versions (
    id                INTEGER PRIMARY KEY,
    hash              TEXT    NOT NULL UNIQUE,
    created_at        TEXT    NOT NULL,
    instructions_hash TEXT    NOT NULL REFERENCES texts (hash),
    pinned_hash       TEXT    NOT NULL REFERENCES texts (hash),
    config            TEXT    NOT NULL,
    avg_doc_length    REAL    NOT NULL,
    sections          INTEGER NOT NULL
  );
  CREATE TABLE section_refs (
    ref        INTEGER PRIMARY KEY,
    section_id TEXT    NOT NULL UNIQUE
  );
  CREATE TABLE kb_sections (
    kb_version  INTEGER NOT NULL REFERENCES kb_versions (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    section_ref INTEGER NOT NULL REFERENCES section_refs (ref),
    title       TEXT    NOT NULL,
    parents     TEXT    NOT NULL,
    source      TEXT    NOT NULL,
    line        INTEGER NOT NULL,
    tokens      INTEGER NOT NULL,
    pinned      INTEGER NOT NULL,
    part_index  INTEGER,
    part_count  INTEGER,
    part_of     TEXT,
    bm25_length REAL,
    text_hash   TEXT    NOT NULL REFERENCES texts (hash),
    PRIMARY KEY (kb_version, position)
  );
  CREATE TABLE prompt_frames (
    id    INTEGER PRIMARY KEY,
    hash  TEXT    NOT NULL UNIQUE,
    frame TEXT    NOT NULL
  );

  CREATE TABLE turns (
    seq               INTEGER PRIMARY KEY,
    id                TEXT    NOT NULL UNIQUE,
    conversation_id   TEXT    NOT NULL,
    visitor_id        TEXT,
    created_at        TEXT    NOT NULL,
    trigger           TEXT    NOT NULL,
    status            TEXT    NOT NULL CHECK (status IN ('pending', 'ok', 'error', 'aborted')),
    question          TEXT    NOT NULL,
    customer_messages TEXT    NOT NULL,
    query             TEXT,
    kb_version        INTEGER REFERENCES kb_versions (id),
    floor_used        INTEGER NOT NULL,
    top_score         REAL    NOT NULL,
    budget            INTEGER NOT NULL,
    tokens_pinned     INTEGER NOT NULL,
    tokens_scored     INTEGER NOT NULL,
    tokens_floor      INTEGER NOT NULL,
    tokens_total      INTEGER NOT NULL,
    n_sections        INTEGER NOT NULL,
    n_pinned          INTEGER NOT NULL,
    n_matched         INTEGER NOT NULL,
    n_scored          INTEGER NOT NULL,
    n_floor           INTEGER NOT NULL,
    n_over_budget     INTEGER NOT NULL,
    n_no_match        INTEGER NOT NULL,
    n_omitted         INTEGER NOT NULL,
    selection         TEXT,
    prompt_frame      INTEGER REFERENCES prompt_frames (id),
    provider          TEXT    NOT NULL,
    model_id          TEXT    NOT NULL,
    selection_us      INTEGER NOT NULL,
    reply             TEXT    NOT NULL DEFAULT '',
    usage             TEXT,
    input_tokens      INTEGER,
    output_tokens     INTEGER,
    finish_reason     TEXT,
    first_token_ms    REAL,
    total_ms          REAL,
    error             TEXT,
    finished_at       TEXT
  );
  INSERT INTO turns
  SELECT seq, id, conversation_id, visitor_id, created_at, trigger, status, question, customer_messages,
         NULL, NULL,
         floor_used, top_score, budget, tokens_pinned, tokens_scored, tokens_floor, tokens_total,
         json_extract(explanation, '$.counts.sections'), json_extract(explanation, '$.counts.pinned'),
         json_extract(explanation, '$.counts.matched'), json_extract(explanation, '$.counts.scored'),
         json_extract(explanation, '$.counts.floor'), json_extract(explanation, '$.counts.overBudget'),
         json_extract(explanation, '$.counts.noMatch'), json_extract(explanation, '$.omitted'),
         NULL, NULL,
         provider, model_id, selection_us, reply, usage, input_tokens, output_tokens, finish_reason,
         first_token_ms, total_ms, error, finished_at
  FROM turns_v2;

  CREATE TABLE turn_payloads (
    turn_seq      INTEGER PRIMARY KEY REFERENCES turns (seq) ON DELETE CASCADE,
    explanation   TEXT,
    system_prompt TEXT
  );
  INSERT INTO turn_payloads (turn_seq, explanation, system_prompt) SELECT seq, explanation, system_prompt FROM turns_v2;

  CREATE TABLE verdict_reasons (
    code   INTEGER PRIMARY KEY,
    reason TEXT    NOT NULL UNIQUE,
    sent   INTEGER NOT NULL
  );
  INSERT INTO verdict_reasons (code, reason, sent) VALUES
    (0, 'over-budget', 0), (1, 'scored', 1), (2, 'floor', 1), (3, 'pinned', 1), (4, 'no-match', 0);
  CREATE TABLE turn_sections (
    section_ref INTEGER NOT NULL REFERENCES section_refs (ref),
    turn_seq    INTEGER NOT NULL REFERENCES turns (seq) ON DELETE CASCADE,
    reason      INTEGER NOT NULL REFERENCES verdict_reasons (code),
    PRIMARY KEY (section_ref, turn_seq)
  ) WITHOUT ROWID;
  INSERT INTO section_refs (section_id) SELECT DISTINCT section_id FROM turn_sections_v2 ORDER BY section_id;
  INSERT INTO turn_sections (section_ref, turn_seq, reason)
  SELECT r.ref, t.seq, v.code
  FROM turn_sections_v2 s JOIN turns t ON t.id = s.turn_id JOIN section_refs r ON r.section_id = s.section_id
  JOIN verdict_reasons v ON v.reason = s.reason;
  DROP TABLE turn_sections_v2;
  DROP TABLE turns_v2;

  CREATE INDEX turns_created_at ON turns (created_at);
  CREATE INDEX turns_conversation ON turns (conversation_id, created_at);
  CREATE INDEX turns_status ON turns (status, created_at);
  CREATE INDEX turns_floor_used ON turns (floor_used, created_at);
  CREATE INDEX turns_visitor_conversation ON turns (visitor_id, conversation_id, created_at);

  CREATE VIRTUAL TABLE turns_question_fts USING fts5 (
    question, content = 'turns', content_rowid = 'seq', tokenize = 'porter unicode61'
  );
  INSERT INTO turns_question_fts (turns_question_fts) VALUES ('rebuild');
  CREATE TRIGGER turns_question_fts_insert AFTER INSERT ON turns BEGIN
    INSERT INTO turns_question_fts (rowid, question) VALUES (new.seq, new.question);
  END;
  CREATE TRIGGER turns_question_fts_delete AFTER DELETE ON turns BEGIN
    INSERT INTO turns_question_fts (turns_question_fts, rowid, question) VALUES ('delete', old.seq, old.question);
  END;
  `,
  // 4: a reply's sources and number check, feedback on replies (loop-sql.ts). Older turns have none.
  LOOP_SQLITE_MIGRATION,
  // 5: the embed (docs/embedding.md "Page context"): the host page a turn was asked on (untrusted,
  // as the embed reported it) and the signed-in user it verified. Older turns have none. The index
  // finds a visitor's newest conversation (latestVisitorConversation).
  `
  ALTER TABLE turns ADD COLUMN page_url TEXT;
  ALTER TABLE turns ADD COLUMN page_title TEXT;
  ALTER TABLE turns ADD COLUMN user_id TEXT;
  CREATE INDEX turns_visitor_latest ON turns (visitor_id, created_at);
  `,
  // 6: hand-offs to a person and their deliveries, and each turn's BM25 confidence (handoff-sql.ts).
  HANDOFF_SQLITE_MIGRATION,
  // 7: /debug's access (access-sql.ts): sessions, API keys, members, the audit trail; a turn's
  // verified user and the personal data redacted from it.
  ACCESS_SQLITE_MIGRATION,
  // 8: the audit trail refuses DELETE but its retention's; a key remembers the key it was made with (access-sql.ts).
  ACCESS_KEEP_SQLITE_MIGRATION,
  // 9: one stored form of a turn's selection (one-form.ts): every turn rewritten into the packed
  // record, turn_payloads dropped, and a turn in an older form (no selection, or formats 1 and 2) refused.
  (dialect) =>
    oneStoredForm(dialect, [
      `CREATE TRIGGER turns_one_form BEFORE INSERT ON turns
       WHEN NEW.selection IS NULL OR NEW.selection LIKE '{"v":1,%' OR NEW.selection LIKE '{"v":2,%'
       BEGIN
         SELECT RAISE(ABORT, 'a turn''s selection must be in its one stored form (the packed record)');
       END`,
    ]),
];
