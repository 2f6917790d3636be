import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { CustomerDataStore, DataSubject, SubjectDeletion, SubjectLinks } from './ports/customer-data';
import { ACCESS_KEEP_SQLITE_MIGRATION, ACCESS_SQLITE_MIGRATION, auditRetentionSql } from './access-sql';
import { SqlAccessStore } from './access-store';
import type { TurnStore, TurnEnd, TurnStart, TurnTrace } from './ports/turns';
import type { TurnFeedback } from './ports/feedback';
import { storagePathProblem } from '../storage-path';
import { GroupCommit } from './group-commit';
import { textHash, type KbVersion, type PromptFrame } from './compact';
import { ftsQuery } from './inspector';
import type { InspectorStore } from './ports/inspector';
import type { AttemptResult, ClaimedDelivery, HandoffRecord, HandoffStart, HandoffStore } from './ports/handoffs';
import {
  attemptParams,
  claimedDelivery,
  claimedHandoffSql,
  finishDeliverySql,
  finishParams,
  HANDOFF_INSERT_COLUMNS,
  handoffInsertValues,
  HANDOFF_SQLITE_MIGRATION,
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
import { LOOP_SQLITE_MIGRATION, setFeedbackParams, setFeedbackSql } from './loop-sql';

/**
 * Turn traces in SQLite (better-sqlite3, WAL): compact.ts's TurnRecord per turn, the KB version
 * once. The tables and the migrations: docs/trace-storage.md.
 */

export const MIGRATIONS: readonly string[] = [
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
];

/**
 * Opens (creating if needed) a trace database and brings its schema up to date. The file
 * must be a regular file in a real, writable folder (storage-path.ts: a folder under /proc
 * would make the mkdir below spin for ever). It holds every customer question and reply, so
 * it is private to the server's user: created 0600 whatever the umask, and an existing one
 * (and its -wal / -shm files, which SQLite gives the database file's mode) tightened to 0600.
 */
export function openTraceDatabase(file: string): Database.Database {
  if (file !== ':memory:') {
    const problem = storagePathProblem(file, 'file');
    if (problem) throw new Error(`the trace database must ${problem}`);
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    createPrivate(file);
  }
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    // What is deleted is overwritten with zeros, not left in free space (a customer's data deleted on request, retention).
    db.pragma('secure_delete = ON');
    migrate(db);
    secureFullTextDelete(db);
    if (file !== ':memory:') for (const companion of ['-wal', '-shm']) keepPrivate(`${file}${companion}`);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

const PRIVATE = 0o600;

/** Creates `file` empty with mode 0600 (SQLite would create it 0644 less the umask); an existing one is kept private. */
function createPrivate(file: string): void {
  try {
    closeSync(openSync(file, 'wx', PRIVATE));
    chmodSync(file, PRIVATE); // the umask may have taken bits off: exactly 0600
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    keepPrivate(file);
  }
}

/** Takes group and other permissions off an existing file (a database created before this rule, or its -wal / -shm). */
function keepPrivate(file: string): void {
  try {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, PRIVATE);
  } catch (error) {
    // Gone (a -shm SQLite has not made), or not ours to change (EPERM): the database still opens.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}

/**
 * FTS5 keeps a deleted question's words in its index (marked deleted) until its segments are
 * merged; with its `secure-delete` option a delete removes them at once. A setting of the index,
 * kept in the database: set once (it costs a write, so not on every open). An index written
 * before keeps what was deleted earlier until FTS5 merges it.
 */
function secureFullTextDelete(db: Database.Database): void {
  const on = db.prepare("SELECT v FROM turns_question_fts_config WHERE k = 'secure-delete'").pluck().get();
  if (Number(on) !== 1) db.prepare("INSERT INTO turns_question_fts (turns_question_fts, rank) VALUES ('secure-delete', 1)").run();
}

function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    throw new Error(
      `trace database ${db.name} has schema version ${version}, newer than this app knows (${MIGRATIONS.length})`,
    );
  }
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/** Times a WAL checkpoint is tried after a customer's data is deleted (each waits up to busy_timeout for readers). */
const CHECKPOINT_ATTEMPTS = 3;

/** FTS5 for the inspector's question filter; `?` placeholders. */
const SQLITE_DIALECT = {
  placeholder: () => '?',
  questionMatch(text: string, param: (value: unknown) => string) {
    const fts = ftsQuery(text);
    return fts && `seq IN (SELECT rowid FROM turns_question_fts WHERE turns_question_fts MATCH ${param(fts)})`;
  },
};

/** Most statements the shared queries keep prepared; past it they are all dropped and prepared again as used. */
const PREPARED_LIMIT = 256;

/**
 * The shared queries' statements (access, hand-off, inspector SQL: a fixed set of texts, filters
 * making a few variants each), prepared once: preparing one on every call (a hand-off offer's
 * conversation read on the chat's way to its first byte) cost more than running it.
 */
function preparedStatements(db: Database.Database): (sql: string) => Database.Statement {
  const prepared = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = prepared.get(sql);
    if (!statement) {
      if (prepared.size >= PREPARED_LIMIT) prepared.clear();
      prepared.set(sql, (statement = db.prepare(sql)));
    }
    return statement;
  };
}

/** What a turn's start wrote that the store remembers once it is committed: its KB version's id and section refs, its prompt frame's id. */
interface StartWritten {
  version: { id: number; refs: number[] };
  frame?: { json: string; id: number };
}

/** The trace store (write path, TurnStore) and the inspector's queries (InspectorStore) over one SQLite database. */
export class SqliteTraceStore extends SqlAccessStore implements TurnStore, InspectorStore, CustomerDataStore, HandoffStore {
  readonly db: Database.Database;
  private readonly ownsDb: boolean;
  private readonly sql: ReturnType<typeof statements>;
  /** KB versions this store wrote or read: database id, and the section ref of each position. */
  private readonly written = new WeakMap<KbVersion, { id: number; refs: number[] }>();
  private readonly read = new KbVersionCache();
  /** Prompt frames written or read: id by their JSON text. */
  private readonly frames = new Map<string, number>();
  private readonly frameTexts = new Map<number, PromptFrame>();
  /** Turn starts and endings, committed in groups (group-commit.ts): under load, a batch's turns share the index pages they change. */
  private readonly starts: GroupCommit<TurnStart, StartWritten>;
  private readonly endings: GroupCommit<{ id: string; end: TurnEnd }, boolean>;

  /**
   * From a file (opened, migrated, closed by `close()`), or from a handle opened with
   * openTraceDatabase and shared with others (left open by `close()`).
   */
  constructor(source: string | Database.Database) {
    const db = typeof source === 'string' ? openTraceDatabase(source) : source;
    const prepared = preparedStatements(db);
    super(async <Row>(sql: string, params: unknown[]) => prepared(sql).all(...params) as Row[], SQLITE_DIALECT);
    this.ownsDb = typeof source === 'string';
    this.db = db;
    this.sql = statements(this.db);
    this.starts = new GroupCommit(db, (turn: TurnStart) => this.writeStart(turn), (turn, written) => this.remember(turn, written));
    this.endings = new GroupCommit(db, ({ id, end }: { id: string; end: TurnEnd }) => this.sql.updateTurn.run({ ...turnFinishValues(end), id }).changes === 1);
  }

  async startTurn(turn: TurnStart): Promise<void> {
    await this.starts.submit(turn);
  }

  private writeStart(turn: TurnStart): StartWritten {
    const { record } = turn;
    const version = this.kbVersionId(turn.kb, turn.createdAt);
    const frame = 'frame' in record.prompt ? this.frameId(record.prompt.frame) : undefined;
    const { seq } = this.sql.insertTurn.get(turnInsertValues(turn, version.id, frame?.id ?? null)) as { seq: number };
    // The inspector's index of sections sent or matched.
    const { keys, codes } = turnSectionReasons(turn);
    keys.forEach((key, i) => this.sql.insertSection.run(typeof key === 'number' ? version.refs[key] : this.sectionRef(key), seq, codes[i]));
    if ('whole' in record.selection || 'whole' in record.prompt) {
      this.sql.insertPayload.run(
        seq,
        'whole' in record.selection ? JSON.stringify(record.selection.whole) : null,
        'whole' in record.prompt ? record.prompt.whole : null,
      );
    }
    return { version, frame };
  }

  /** Remembered once committed: a rolled-back write wrote nothing. */
  private remember(turn: TurnStart, { version, frame }: StartWritten): void {
    this.written.set(turn.kb, version);
    this.read.set(version.id, turn.kb);
    if (frame && 'frame' in turn.record.prompt) {
      this.frames.set(frame.json, frame.id);
      this.frameTexts.set(frame.id, turn.record.prompt.frame);
    }
  }

  /** The database id of a KB version, writing it (texts, sections) the first time it is seen. */
  private kbVersionId(kb: KbVersion, createdAt: string): { id: number; refs: number[] } {
    const known = this.written.get(kb);
    if (known) return known;
    let id = this.sql.kbVersionByHash.get(kb.hash) as number | undefined;
    if (id === undefined) {
      const instructions = this.text(kb.instructions);
      const pinned = this.text(kb.pinnedContext);
      this.sql.insertKbVersion.run(kb.hash, createdAt, instructions, pinned, JSON.stringify(kb.config), kb.avgDocLength, kb.sections.length);
      id = this.sql.kbVersionByHash.get(kb.hash) as number;
      kb.sections.forEach((s, position) => {
        this.sql.insertKbSection.run(
          id, position, this.sectionRef(s.id), s.title, JSON.stringify(s.parents), s.source, s.line, s.tokens, s.pinned ? 1 : 0,
          s.part?.index ?? null, s.part?.count ?? null, s.part?.sectionId ?? null, s.bm25Length ?? null, this.text(s.text),
        );
      });
    }
    const refs = this.sql.kbSectionRefs.all(id) as number[];
    return { id, refs };
  }

  private text(text: string): string {
    const hash = textHash(text);
    this.sql.insertText.run(hash, text);
    return hash;
  }

  private sectionRef(sectionId: string): number {
    this.sql.insertSectionRef.run(sectionId);
    return this.sql.sectionRef.get(sectionId) as number;
  }

  private frameId(frame: PromptFrame): { json: string; id: number } {
    const json = JSON.stringify(frame);
    let id = this.frames.get(json);
    if (id !== undefined) return { json, id };
    const hash = textHash(json);
    this.sql.insertFrame.run(hash, json);
    id = this.sql.frameByHash.get(hash) as number;
    return { json, id };
  }

  private frameOf = (id: number): PromptFrame => {
    let frame = this.frameTexts.get(id);
    if (!frame) {
      frame = JSON.parse(this.sql.frame.get(id) as string) as PromptFrame;
      this.frameTexts.set(id, frame);
    }
    return frame;
  };

  /** A stored KB version, read back once and kept among the few most recently used. */
  private kbVersion(id: number): KbVersion {
    let kb = this.read.get(id);
    if (!kb) {
      kb = kbVersionFromRows(this.sql.kbVersion.get(id) as KbVersionRow, this.sql.kbSections.all(id) as KbSectionRow[]);
      this.read.set(id, kb);
    }
    return kb;
  }

  private fromRow(row: TurnRow, lazy = false): TurnTrace {
    return traceFromRow(row, row.kb_version === null ? undefined : this.kbVersion(row.kb_version), this.frameOf, lazy);
  }

  async finishTurn(id: string, end: TurnEnd): Promise<boolean> {
    return this.endings.submit({ id, end });
  }

  async getTurn(id: string): Promise<TurnTrace | undefined> {
    const row = this.sql.selectTurn.get(id) as TurnRow | undefined;
    return row && this.fromRow(row);
  }

  async listTurnsByConversation(conversationId: string): Promise<TurnTrace[]> {
    return (this.sql.selectConversation.all(conversationId) as TurnRow[]).map((row) => this.fromRow(row, true));
  }

  async listVisitorConversation(conversationId: string, visitorId: string): Promise<TurnTrace[]> {
    return (this.sql.selectVisitorConversation.all(conversationId, visitorId) as TurnRow[]).map((row) => this.fromRow(row, true));
  }

  async latestVisitorConversation(visitorId: string): Promise<string | undefined> {
    return this.sql.latestVisitorConversation.get(visitorId) as string | undefined;
  }

  /**
   * Deletes up to `batchSize` turns made before `cutoff` (ISO 8601), oldest first, with their
   * sections and payloads, in one short transaction; returns how many went. turn_sections has
   * no index leading with turn_seq, so its rows go first, found through the primary key (one
   * range seek per section ref), with foreign keys off for the batch (payloads and feedback are deleted by hand): with them on, SQLite
   * would scan turn_sections once per deleted turn for the cascade. better-sqlite3 is
   * synchronous: nothing else runs on the connection while they are off.
   */
  async deleteTurnsBefore(cutoff: string, batchSize: number): Promise<number> {
    const seqs = this.sql.oldTurns.all(cutoff, batchSize) as number[];
    this.deleteSeqs(seqs);
    return seqs.length;
  }

  async deleteCustomerTurns(subject: DataSubject, links: SubjectLinks): Promise<SubjectDeletion> {
    const rows = await this.access.customerTurnSeqs(subject, links);
    for (let i = 0; i < rows.length; i += 500) this.deleteSeqs(rows.slice(i, i + 500).map((r) => r.seq));
    return SqlAccessStore.turnDeletion(rows);
  }

  /**
   * The deleted rows' bytes are zeroed in the pages that held them (`secure_delete`, set when
   * the database is opened), but the WAL still holds the pages as they were until a checkpoint
   * copies it into the database file: checkpointed here and truncated to nothing. A reader in
   * another connection (a server reading while the CLI deletes) can hold the checkpoint back:
   * it is tried for a few seconds (busy_timeout each time), then refused with a message.
   */
  async purgeDeleted(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
      if (!result || result.busy === 0) return;
      if (attempt === CHECKPOINT_ATTEMPTS) {
        throw new Error(
          `the data is deleted, but the database's write-ahead log (${this.db.name}-wal) still holds it: another connection kept it busy. Run the deletion again to retry.`,
        );
      }
    }
  }

  /** Deletes these turns (ascending seqs) with everything stored for them alone, in one transaction (see deleteTurnsBefore). */
  private deleteSeqs(seqs: number[]): void {
    if (seqs.length === 0) return;
    const list = JSON.stringify(seqs);
    this.db.pragma('foreign_keys = OFF');
    try {
      this.db.transaction(() => {
        this.sql.deleteTurnSections.run(seqs[0], seqs.at(-1), list);
        this.sql.deleteTurnPayloads.run(list);
        this.sql.deleteTurnFeedback.run(list);
        this.sql.deleteTurns.run(list);
      })();
    } finally {
      this.db.pragma('foreign_keys = ON');
    }
  }

  async deleteAuditBefore(cutoff: string, batchSize: number): Promise<number> {
    return this.db.transaction(() => {
      this.sql.auditRetention.declare.run(cutoff);
      const deleted = this.sql.auditRetention.deleteBatch.run(cutoff, batchSize).changes;
      this.sql.auditRetention.withdraw.run();
      return deleted;
    })();
  }

  async closePendingTurnsBefore(cutoff: string, reason: string, batchSize: number): Promise<number> {
    return this.sql.closePending.run(reason, new Date().toISOString(), cutoff, batchSize).changes;
  }

  async ready(): Promise<void> {
    if (!this.db.open) throw new Error(`trace database ${this.db.name} is closed`);
  }

  async close(): Promise<void> {
    if (this.db.open) {
      this.starts.flush();
      this.endings.flush();
    }
    if (this.ownsDb && this.db.open) this.db.close();
  }

  async setFeedback(turnId: string, feedback: TurnFeedback): Promise<boolean> {
    return this.sql.setFeedback.run(...setFeedbackParams(turnId, feedback)).changes === 1;
  }

  async createHandoff(handoff: HandoffStart): Promise<{ created: boolean; handoff: HandoffRecord }> {
    const values = handoffInsertValues(handoff);
    const created = this.db.transaction(() => {
      const row = this.sql.insertHandoff.get(...HANDOFF_INSERT_COLUMNS.map((c) => values[c])) as { seq: number } | undefined;
      if (!row) return false;
      for (const channel of handoff.channels) this.sql.insertDelivery.run(row.seq, channel, handoff.createdAt, handoff.retryUntil);
      return true;
    })();
    return { created, handoff: (await this.conversationHandoff(handoff.conversationId, handoff.visitorId))! };
  }

  /** One UPDATE … RETURNING: SQLite has one writer at a time, so no two claims see the same row. */
  async claimDeliveries(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    const claimed = this.sql.claim.all(leaseUntil, now, now, limit) as ClaimRow[];
    return claimed.map((c) => claimedDelivery(c, this.sql.claimedHandoff.get(c.handoff_seq) as ClaimedHandoffRow));
  }

  async finishAttempt(result: AttemptResult): Promise<void> {
    this.db.transaction(() => {
      this.sql.insertAttempt.run(...attemptParams(result));
      this.sql.finishDelivery.run(...finishParams(result));
      this.sql.refreshStatus.run(result.handoffId);
    })();
  }

  async retryFailed(handoffId: string, now: string, retryUntil: string): Promise<number> {
    return this.db.transaction(() => {
      const changes = this.sql.retryFailed.run(now, retryUntil, handoffId).changes;
      this.sql.refreshStatus.run(handoffId);
      return changes;
    })();
  }
}

function statements(db: Database.Database) {
  const p = () => '?';
  const auditRetention = auditRetentionSql(p);
  return {
    auditRetention: {
      declare: db.prepare(auditRetention.declare),
      deleteBatch: db.prepare(auditRetention.deleteBatch),
      withdraw: db.prepare(auditRetention.withdraw),
    },
    insertHandoff: db.prepare(insertHandoffSql(p)),
    insertDelivery: db.prepare(insertDeliverySql(p)),
    claim: db.prepare(`
      UPDATE handoff_deliveries SET attempts = attempts + 1, lease_until = ?
      WHERE (handoff_seq, channel) IN (
        SELECT handoff_seq, channel FROM handoff_deliveries
        WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
        ORDER BY next_attempt_at LIMIT ?)
      RETURNING handoff_seq, channel, attempts, retry_until`),
    claimedHandoff: db.prepare(claimedHandoffSql(p)),
    insertAttempt: db.prepare(insertAttemptSql(p)),
    finishDelivery: db.prepare(finishDeliverySql(p)),
    refreshStatus: db.prepare(refreshStatusSql(p)),
    retryFailed: db.prepare(retryFailedSql(p)),
    insertTurn: db.prepare(
      `INSERT INTO turns (${TURN_INSERT_COLUMNS.join(', ')}) VALUES (${TURN_INSERT_COLUMNS.map((c) => `@${c}`).join(', ')}) RETURNING seq`,
    ),
    insertSection: db.prepare('INSERT INTO turn_sections (section_ref, turn_seq, reason) VALUES (?, ?, ?)'),
    insertPayload: db.prepare('INSERT INTO turn_payloads (turn_seq, explanation, system_prompt) VALUES (?, ?, ?)'),
    updateTurn: db.prepare(
      `UPDATE turns SET ${TURN_FINISH_COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id AND status = 'pending'`,
    ),
    closePending: db.prepare(
      `UPDATE turns SET status = 'error', error = ?, finished_at = ?
       WHERE seq IN (SELECT seq FROM turns WHERE status = 'pending' AND created_at < ? ORDER BY created_at LIMIT ?)`,
    ),
    selectTurn: db.prepare(`${SELECT_TURNS} WHERE t.id = ?`),
    setFeedback: db.prepare(setFeedbackSql(() => '?')),
    selectConversation: db.prepare(`${SELECT_TURNS} WHERE t.conversation_id = ? ORDER BY t.created_at, t.seq`),
    selectVisitorConversation: db.prepare(`${SELECT_TURNS} WHERE t.conversation_id = ? AND t.visitor_id = ? ORDER BY t.created_at, t.seq`),
    latestVisitorConversation: db.prepare('SELECT conversation_id FROM turns WHERE visitor_id = ? ORDER BY created_at DESC, seq DESC LIMIT 1').pluck(),
    insertText: db.prepare('INSERT INTO texts (hash, text) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING'),
    insertSectionRef: db.prepare('INSERT INTO section_refs (section_id) VALUES (?) ON CONFLICT (section_id) DO NOTHING'),
    sectionRef: db.prepare('SELECT ref FROM section_refs WHERE section_id = ?').pluck(),
    kbVersionByHash: db.prepare('SELECT id FROM kb_versions WHERE hash = ?').pluck(),
    insertKbVersion: db.prepare(`
      INSERT INTO kb_versions (hash, created_at, instructions_hash, pinned_hash, config, avg_doc_length, sections)
      VALUES (?, ?, ?, ?, ?, ?, ?)`),
    insertKbSection: db.prepare(`
      INSERT INTO kb_sections (kb_version, position, section_ref, title, parents, source, line, tokens, pinned,
        part_index, part_count, part_of, bm25_length, text_hash)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    kbSectionRefs: db.prepare('SELECT section_ref FROM kb_sections WHERE kb_version = ? ORDER BY position').pluck(),
    kbVersion: db.prepare(`${SELECT_KB_VERSION} WHERE v.id = ?`),
    kbSections: db.prepare(`${SELECT_KB_SECTIONS} WHERE s.kb_version = ? ORDER BY s.position`),
    insertFrame: db.prepare('INSERT INTO prompt_frames (hash, frame) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING'),
    frameByHash: db.prepare('SELECT id FROM prompt_frames WHERE hash = ?').pluck(),
    frame: db.prepare('SELECT frame FROM prompt_frames WHERE id = ?').pluck(),
    oldTurns: db.prepare('SELECT seq FROM turns WHERE created_at < ? ORDER BY seq LIMIT ?').pluck(),
    deleteTurnSections: db.prepare(`
      DELETE FROM turn_sections
      WHERE section_ref IN (SELECT ref FROM section_refs) AND turn_seq BETWEEN ? AND ?
        AND turn_seq IN (SELECT value FROM json_each(?))`),
    deleteTurnPayloads: db.prepare('DELETE FROM turn_payloads WHERE turn_seq IN (SELECT value FROM json_each(?))'),
    // With foreign keys off for the batch nothing cascades: every table keyed by turn_seq is listed here.
    deleteTurnFeedback: db.prepare('DELETE FROM turn_feedback WHERE turn_seq IN (SELECT value FROM json_each(?))'),
    deleteTurns: db.prepare('DELETE FROM turns WHERE seq IN (SELECT value FROM json_each(?))'),
  };
}
