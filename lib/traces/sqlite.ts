import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteInspector, type InspectorStore, type TurnFilter } from './inspector';
import type { TraceStore, TurnEnd, TurnStart, TurnStatus, TurnTrace, TurnTrigger, TurnUsage } from './types';

/**
 * Turn traces in SQLite (better-sqlite3, WAL).
 *
 * Tables
 * - `turns`: one row per turn. Fields an inspector filters on are plain indexed columns
 *   (created_at, conversation_id, status, floor_used, question); the full explanation,
 *   usage and customer messages are JSON text beside them.
 * - `turns_question_fts`: FTS5 index over `turns.question` (kept in step by triggers),
 *   for "turns whose question mentions X".
 * - `turn_sections`: one row per section that was sent or matched in a turn (pinned,
 *   scored, floor, over-budget). Sections with no match are not stored: for a given turn,
 *   any KB section absent here had no match (the explanation JSON lists them).
 *   Examples of what this makes one query:
 *     turns in which X was sent:     SELECT turn_id FROM turn_sections WHERE section_id = ? AND sent = 1
 *     turns in which X was dropped:  … WHERE section_id = ? AND reason = 'over-budget'
 *     sections ever sent:            SELECT DISTINCT section_id FROM turn_sections WHERE sent = 1
 *     (never sent = the KB's section ids minus that set)
 *
 * The schema version is `PRAGMA user_version`; MIGRATIONS[i] moves it from i to i + 1 and
 * runs at open, in a transaction. Append migrations, never edit a released one.
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
];

interface TurnRow {
  id: string;
  conversation_id: string;
  visitor_id: string | null;
  created_at: string;
  trigger: string;
  status: string;
  question: string;
  customer_messages: string;
  explanation: string;
  system_prompt: string;
  provider: string;
  model_id: string;
  selection_us: number;
  reply: string;
  usage: string | null;
  finish_reason: string | null;
  first_token_ms: number | null;
  total_ms: number | null;
  error: string | null;
  finished_at: string | null;
}

function fromRow(row: TurnRow): TurnTrace {
  const trace: TurnTrace = {
    id: row.id,
    conversationId: row.conversation_id,
    createdAt: row.created_at,
    trigger: row.trigger as TurnTrigger,
    customerMessages: JSON.parse(row.customer_messages) as string[],
    question: row.question,
    explanation: JSON.parse(row.explanation) as TurnTrace['explanation'],
    systemPrompt: row.system_prompt,
    provider: row.provider,
    modelId: row.model_id,
    selectionUs: row.selection_us,
    status: row.status as TurnStatus,
    reply: row.reply,
  };
  if (row.visitor_id !== null) trace.visitorId = row.visitor_id;
  if (row.usage !== null) trace.usage = JSON.parse(row.usage) as TurnUsage;
  if (row.finish_reason !== null) trace.finishReason = row.finish_reason;
  if (row.first_token_ms !== null) trace.firstTokenMs = row.first_token_ms;
  if (row.total_ms !== null) trace.totalMs = row.total_ms;
  if (row.error !== null) trace.error = row.error;
  if (row.finished_at !== null) trace.finishedAt = row.finished_at;
  return trace;
}

/** Opens (creating if needed) a trace database and brings its schema up to date. */
export function openTraceDatabase(file: string): Database.Database {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
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

/** The trace store (write path, TraceStore) and the inspector's queries (InspectorStore) over one SQLite database. */
export class SqliteTraceStore implements TraceStore, InspectorStore {
  readonly db: Database.Database;
  private readonly inspector: SqliteInspector;
  private readonly insertTurn: Database.Statement;
  private readonly insertSection: Database.Statement;
  private readonly updateTurn: Database.Statement;
  private readonly selectTurn: Database.Statement<[string], TurnRow>;
  private readonly selectConversation: Database.Statement<[string], TurnRow>;
  private readonly selectVisitorConversation: Database.Statement<[string, string], TurnRow>;

  private readonly ownsDb: boolean;

  /**
   * From a file (opened, migrated, closed by `close()`), or from a handle opened with
   * openTraceDatabase and shared with others (left open by `close()`).
   */
  constructor(source: string | Database.Database) {
    this.ownsDb = typeof source === 'string';
    this.db = typeof source === 'string' ? openTraceDatabase(source) : source;
    this.inspector = new SqliteInspector(this.db);
    this.insertTurn = this.db.prepare(`
      INSERT INTO turns (
        id, conversation_id, visitor_id, created_at, trigger, status, question, customer_messages, query_terms,
        floor_used, top_score, budget, tokens_pinned, tokens_scored, tokens_floor, tokens_total,
        explanation, system_prompt, provider, model_id, selection_us
      ) VALUES (
        @id, @conversationId, @visitorId, @createdAt, @trigger, 'pending', @question, @customerMessages, @queryTerms,
        @floorUsed, @topScore, @budget, @tokensPinned, @tokensScored, @tokensFloor, @tokensTotal,
        @explanation, @systemPrompt, @provider, @modelId, @selectionUs
      )`);
    this.insertSection = this.db.prepare(`
      INSERT INTO turn_sections (turn_id, section_id, position, reason, sent, score, rank, tokens)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    this.updateTurn = this.db.prepare(`
      UPDATE turns SET
        status = @status, reply = @reply, usage = @usage, input_tokens = @inputTokens,
        output_tokens = @outputTokens, finish_reason = @finishReason, first_token_ms = @firstTokenMs,
        total_ms = @totalMs, error = @error, finished_at = @finishedAt
      WHERE id = @id AND status = 'pending'`);
    this.selectTurn = this.db.prepare('SELECT * FROM turns WHERE id = ?');
    this.selectConversation = this.db.prepare(
      'SELECT * FROM turns WHERE conversation_id = ? ORDER BY created_at, seq',
    );
    this.selectVisitorConversation = this.db.prepare(
      'SELECT * FROM turns WHERE conversation_id = ? AND visitor_id = ? ORDER BY created_at, seq',
    );
  }

  async startTurn(turn: TurnStart): Promise<void> {
    const e = turn.explanation;
    this.db.transaction(() => {
      this.insertTurn.run({
        id: turn.id,
        conversationId: turn.conversationId,
        visitorId: turn.visitorId ?? null,
        createdAt: turn.createdAt,
        trigger: turn.trigger,
        question: turn.question,
        customerMessages: JSON.stringify(turn.customerMessages),
        queryTerms: JSON.stringify(e.query.terms),
        floorUsed: e.floorUsed ? 1 : 0,
        topScore: e.topScore,
        budget: e.budget,
        tokensPinned: e.tokens.pinned,
        tokensScored: e.tokens.scored,
        tokensFloor: e.tokens.floor,
        tokensTotal: e.tokens.total,
        explanation: JSON.stringify(e),
        systemPrompt: turn.systemPrompt,
        provider: turn.provider,
        modelId: turn.modelId,
        selectionUs: Math.round(turn.selectionUs),
      });
      e.sections.forEach((v, position) => {
        if (v.reason === 'no-match') return;
        this.insertSection.run(turn.id, v.id, position, v.reason, v.sent ? 1 : 0, v.score, v.rank ?? null, v.tokens);
      });
    })();
  }

  async finishTurn(id: string, end: TurnEnd): Promise<boolean> {
    const result = this.updateTurn.run({
      id,
      status: end.status,
      reply: end.reply,
      usage: end.usage === undefined ? null : JSON.stringify(end.usage),
      inputTokens: end.usage?.inputTokens ?? null,
      outputTokens: end.usage?.outputTokens ?? null,
      finishReason: end.finishReason ?? null,
      firstTokenMs: end.firstTokenMs ?? null,
      totalMs: end.totalMs,
      error: end.error ?? null,
      finishedAt: new Date().toISOString(),
    });
    return result.changes === 1;
  }

  async getTurn(id: string): Promise<TurnTrace | undefined> {
    const row = this.selectTurn.get(id);
    return row && fromRow(row);
  }

  async listTurnsByConversation(conversationId: string): Promise<TurnTrace[]> {
    return this.selectConversation.all(conversationId).map(fromRow);
  }

  async listVisitorConversation(conversationId: string, visitorId: string): Promise<TurnTrace[]> {
    return this.selectVisitorConversation.all(conversationId, visitorId).map(fromRow);
  }

  async close(): Promise<void> {
    if (this.ownsDb && this.db.open) this.db.close();
  }

  listTurns(filter: TurnFilter, page: number, pageSize: number) {
    return this.inspector.listTurns(filter, page, pageSize);
  }

  countTurns() {
    return this.inspector.countTurns();
  }

  sectionTraffic() {
    return this.inspector.sectionTraffic();
  }

  thinMatchTurns(options?: { lowScore?: number; maxTurns?: number }) {
    return this.inspector.thinMatchTurns(options);
  }
}
