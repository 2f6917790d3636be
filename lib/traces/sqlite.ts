import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Explanation, Reason, RetrievalConfig } from '../retrieval/index';
import {
  compactTurn,
  decodeQuery,
  decodeSelection,
  encodeQuery,
  encodeSelection,
  expandTurn,
  pinnedPositions,
  REASON_CODES,
  textHash,
  type KbSection,
  type KbVersion,
  type PromptFrame,
  type TurnRecord,
} from './compact';
import { SqliteInspector, type InspectorStore, type SummaryRow, type TurnFilter } from './inspector';
import type { TraceStore, TurnEnd, TurnStart, TurnTrace, TurnTrigger, TurnUsage } from './types';

/**
 * Turn traces in SQLite (better-sqlite3, WAL). What is stored of a turn's explanation and
 * prompt is compact.ts's TurnRecord: the KB version once, per turn only what is specific to
 * it (`npm run bench:traces` measures the bytes per turn).
 *
 * Tables (plain columns, JSON as text, integer keys: each maps 1:1 to a PostgreSQL table,
 * INTEGER PRIMARY KEY to an identity column, JSON text to jsonb, the FTS5 table to a GIN index)
 * - `texts`: text by SHA-256 hash (section bodies, instructions, pinned blocks): each once.
 * - `kb_versions`: one row per KB version (compact.ts `KbVersion`, by content hash), written
 *   with the first turn selected on it: config, average BM25 document length, the hashes of
 *   its instructions and pinned block.
 * - `kb_sections`: a KB version's sections in index order (position): id (via section_refs),
 *   title, parents, source, line, tokens, pinned, part, BM25 length, text hash.
 * - `section_refs`: section id <-> a small integer, so per-turn rows stay small and a section
 *   is the same across KB versions.
 * - `prompt_frames`: a system prompt's text around its slots (compact.ts `PromptFrame`), once
 *   per distinct frame (a handful: with or without the nothing-matched note, …).
 * - `turns`: one row per turn. Fields an inspector filters on are plain indexed columns
 *   (created_at, conversation_id, status, floor_used, question); the query (JSON, without the
 *   question, terms as tuples; NULL when the explanation is whole), the token split, counts, top score, the prompt frame, usage, timings and the
 *   reply beside them, and `selection`: the listed verdicts as compact.ts encodes them (JSON,
 *   versioned: KB position, reason, rank, each term's [query term, tf], the send order).
 * - `turns_question_fts`: FTS5 index over `turns.question` (kept in step by triggers),
 *   for "turns whose question mentions X".
 * - `turn_sections`: the inspector's index, one row per (section, turn) in which the section
 *   was sent or matched, with the reason (a `verdict_reasons` code: over-budget, scored, floor,
 *   pinned; each with whether it means sent). Sections with no match are not stored: for a
 *   turn, any section of its KB version absent here had no match. Keyed by section first.
 *   Examples of what this makes one query (v = verdict_reasons):
 *     turns in which X was sent:     … WHERE section_ref = (ref of X) AND v.sent = 1
 *     turns in which X was dropped:  … WHERE section_ref = (ref of X) AND v.reason = 'over-budget'
 *     sections ever sent:            SELECT DISTINCT section_ref FROM turn_sections JOIN v … WHERE v.sent = 1
 *     (never sent = the KB's section ids minus that set)
 *   No index leads with turn_seq (it would double the table): delete a range of turns'
 *   sections by `turn_seq` before the turns themselves.
 * - `turn_payloads`: the whole explanation and/or system prompt of a turn that is not stored
 *   compactly: turns recorded before schema version 3, or one compact.ts could not reproduce.
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
];

interface TurnRow extends SummaryRow {
  seq: number;
  visitor_id: string | null;
  trigger: string;
  customer_messages: string;
  query: string | null;
  kb_version: number | null;
  n_sections: number;
  n_pinned: number;
  n_matched: number;
  n_scored: number;
  n_floor: number;
  n_over_budget: number;
  n_no_match: number;
  n_omitted: number;
  selection: string | null;
  prompt_frame: number | null;
  selection_us: number;
  reply: string;
  usage: string | null;
  finish_reason: string | null;
  first_token_ms: number | null;
  finished_at: string | null;
  /** From turn_payloads (LEFT JOIN). */
  payload_explanation: string | null;
  payload_system_prompt: string | null;
}

interface KbVersionRow {
  hash: string;
  config: string;
  avg_doc_length: number;
  instructions: string;
  pinned: string;
}

interface KbSectionRow {
  section_id: string;
  title: string;
  parents: string;
  source: string;
  line: number;
  tokens: number;
  pinned: number;
  part_index: number | null;
  part_count: number | null;
  part_of: string | null;
  bm25_length: number | null;
  text: string;
}

const SELECT_TURNS = `SELECT t.*, p.explanation AS payload_explanation, p.system_prompt AS payload_system_prompt
  FROM turns t LEFT JOIN turn_payloads p ON p.turn_seq = t.seq`;

/** KB versions read back from the database, most recently used last (a few are enough: versions change rarely). */
const KB_CACHE_SIZE = 4;

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
  private readonly ownsDb: boolean;
  private readonly sql: ReturnType<typeof statements>;
  /** KB versions this store wrote or read: database id, and the section ref of each position. */
  private readonly written = new WeakMap<KbVersion, { id: number; refs: number[] }>();
  private readonly read = new Map<number, KbVersion>();
  private readonly frames = new Map<string, number>();
  private readonly frameTexts = new Map<number, PromptFrame>();

  /**
   * From a file (opened, migrated, closed by `close()`), or from a handle opened with
   * openTraceDatabase and shared with others (left open by `close()`).
   */
  constructor(source: string | Database.Database) {
    this.ownsDb = typeof source === 'string';
    this.db = typeof source === 'string' ? openTraceDatabase(source) : source;
    this.inspector = new SqliteInspector(this.db);
    this.sql = statements(this.db);
  }

  async startTurn(turn: TurnStart): Promise<void> {
    const e = turn.explanation;
    const record = compactTurn(e, turn.systemPrompt, turn.kb);
    let version: { id: number; refs: number[] } | undefined;
    let frame: { hash: string; id: number } | undefined;
    this.db.transaction(() => {
      version = this.kbVersionId(turn.kb, turn.createdAt);
      frame = 'frame' in record.prompt ? this.frameId(record.prompt.frame) : undefined;
      const compact = 'compact' in record.selection ? record.selection.compact : undefined;
      const { seq } = this.sql.insertTurn.get({
        id: turn.id,
        conversationId: turn.conversationId,
        visitorId: turn.visitorId ?? null,
        createdAt: turn.createdAt,
        trigger: turn.trigger,
        question: turn.question,
        customerMessages: JSON.stringify(turn.customerMessages),
        query: compact ? encodeQuery(e.query) : null,
        kbVersion: version.id,
        floorUsed: e.floorUsed ? 1 : 0,
        topScore: e.topScore,
        budget: e.budget,
        tokensPinned: e.tokens.pinned,
        tokensScored: e.tokens.scored,
        tokensFloor: e.tokens.floor,
        tokensTotal: e.tokens.total,
        nSections: e.counts.sections,
        nPinned: e.counts.pinned,
        nMatched: e.counts.matched,
        nScored: e.counts.scored,
        nFloor: e.counts.floor,
        nOverBudget: e.counts.overBudget,
        nNoMatch: e.counts.noMatch,
        nOmitted: e.omitted,
        selection: compact ? encodeSelection(compact) : null,
        promptFrame: frame?.id ?? null,
        provider: turn.provider,
        modelId: turn.modelId,
        selectionUs: Math.round(turn.selectionUs),
      }) as { seq: number };
      // The inspector's index of sections sent or matched (no-match is never stored).
      if (compact) {
        if (compact.pinnedLead) for (const at of pinnedPositions(turn.kb)) this.sql.insertSection.run(version!.refs[at], seq, REASON_CODE.get('pinned'));
        for (const v of compact.verdicts) if (v.reason !== 'no-match') this.sql.insertSection.run(version!.refs[v.at], seq, REASON_CODE.get(v.reason));
      } else {
        for (const v of e.sections) if (v.reason !== 'no-match') this.sql.insertSection.run(this.sectionRef(v.id), seq, REASON_CODE.get(v.reason));
      }
      if ('whole' in record.selection || 'whole' in record.prompt) {
        this.sql.insertPayload.run(
          seq,
          'whole' in record.selection ? JSON.stringify(record.selection.whole) : null,
          'whole' in record.prompt ? record.prompt.whole : null,
        );
      }
    })();
    // Remembered once committed: a rolled-back transaction wrote nothing.
    this.written.set(turn.kb, version!);
    this.read.set(version!.id, turn.kb);
    if (frame && 'frame' in record.prompt) {
      this.frames.set(frame.hash, frame.id);
      this.frameTexts.set(frame.id, record.prompt.frame);
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

  private frameId(frame: PromptFrame): { hash: string; id: number } {
    const json = JSON.stringify(frame);
    const hash = textHash(json);
    let id = this.frames.get(hash);
    if (id === undefined) {
      this.sql.insertFrame.run(hash, json);
      id = this.sql.frameByHash.get(hash) as number;
    }
    return { hash, id };
  }

  private frameOf(id: number): PromptFrame {
    let frame = this.frameTexts.get(id);
    if (!frame) {
      frame = JSON.parse(this.sql.frame.get(id) as string) as PromptFrame;
      this.frameTexts.set(id, frame);
    }
    return frame;
  }

  /** A stored KB version, read back once and kept among the few most recently used. */
  private kbVersion(id: number): KbVersion {
    let kb = this.read.get(id);
    if (kb) {
      this.read.delete(id);
    } else {
      const v = this.sql.kbVersion.get(id) as KbVersionRow;
      const sections = (this.sql.kbSections.all(id) as KbSectionRow[]).map(
        (r): KbSection => ({
          id: r.section_id,
          title: r.title,
          parents: JSON.parse(r.parents) as string[],
          source: r.source,
          line: r.line,
          tokens: r.tokens,
          pinned: r.pinned === 1,
          ...(r.part_index === null ? {} : { part: { index: r.part_index, count: r.part_count!, sectionId: r.part_of! } }),
          text: r.text,
          ...(r.bm25_length === null ? {} : { bm25Length: r.bm25_length }),
        }),
      );
      kb = { hash: v.hash, sections, instructions: v.instructions, pinnedContext: v.pinned, config: JSON.parse(v.config) as RetrievalConfig, avgDocLength: v.avg_doc_length };
    }
    this.read.set(id, kb);
    for (const old of this.read.keys()) {
      if (this.read.size <= KB_CACHE_SIZE) break;
      this.read.delete(old);
    }
    return kb;
  }

  /** The turn's record as stored: compact parts from its rows, whole parts from turn_payloads. */
  private record(row: TurnRow, kb: KbVersion | undefined): TurnRecord {
    let selection: TurnRecord['selection'];
    if (row.payload_explanation !== null) selection = { whole: JSON.parse(row.payload_explanation) as Explanation };
    else if (row.selection !== null && kb) selection = { compact: decodeSelection(row.selection) };
    else throw new Error(`turn ${row.id} has neither a whole nor a compact explanation (or no KB version)`);
    const query = 'whole' in selection ? selection.whole.query : decodeQuery(row.question, row.query!);
    const prompt: TurnRecord['prompt'] =
      row.payload_system_prompt !== null ? { whole: row.payload_system_prompt } : { frame: this.frameOf(row.prompt_frame!) };
    return {
      query,
      summary: {
        budget: row.budget,
        tokens: { pinned: row.tokens_pinned, scored: row.tokens_scored, floor: row.tokens_floor, total: row.tokens_total },
        floorUsed: row.floor_used === 1,
        counts: {
          sections: row.n_sections,
          pinned: row.n_pinned,
          matched: row.n_matched,
          scored: row.n_scored,
          floor: row.n_floor,
          overBudget: row.n_over_budget,
          noMatch: row.n_no_match,
        },
        topScore: row.top_score,
        omitted: row.n_omitted,
      },
      selection,
      prompt,
    };
  }

  /** A trace from its row. `lazy`: the explanation and prompt are expanded when first read (conversation lists read only questions and replies). */
  private fromRow(row: TurnRow, lazy = false): TurnTrace {
    const kb = row.kb_version === null ? undefined : this.kbVersion(row.kb_version);
    let expanded: ReturnType<typeof expandTurn> | undefined;
    const expand = () => (expanded ??= expandTurn(this.record(row, kb), kb));
    const trace = {
      id: row.id,
      conversationId: row.conversation_id,
      createdAt: row.created_at,
      trigger: row.trigger as TurnTrigger,
      customerMessages: JSON.parse(row.customer_messages) as string[],
      question: row.question,
      provider: row.provider,
      modelId: row.model_id,
      selectionUs: row.selection_us,
      status: row.status,
      reply: row.reply,
    } as TurnTrace;
    if (lazy) {
      Object.defineProperties(trace, {
        explanation: { enumerable: true, configurable: true, get: () => expand().explanation },
        systemPrompt: { enumerable: true, configurable: true, get: () => expand().systemPrompt },
      });
    } else {
      trace.explanation = expand().explanation;
      trace.systemPrompt = expand().systemPrompt;
    }
    if (kb) trace.kbVersion = kb.hash;
    if (row.visitor_id !== null) trace.visitorId = row.visitor_id;
    if (row.usage !== null) trace.usage = JSON.parse(row.usage) as TurnUsage;
    if (row.finish_reason !== null) trace.finishReason = row.finish_reason;
    if (row.first_token_ms !== null) trace.firstTokenMs = row.first_token_ms;
    if (row.total_ms !== null) trace.totalMs = row.total_ms;
    if (row.error !== null) trace.error = row.error;
    if (row.finished_at !== null) trace.finishedAt = row.finished_at;
    return trace;
  }

  async finishTurn(id: string, end: TurnEnd): Promise<boolean> {
    const result = this.sql.updateTurn.run({
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
    const row = this.sql.selectTurn.get(id) as TurnRow | undefined;
    return row && this.fromRow(row);
  }

  async listTurnsByConversation(conversationId: string): Promise<TurnTrace[]> {
    return (this.sql.selectConversation.all(conversationId) as TurnRow[]).map((row) => this.fromRow(row, true));
  }

  async listVisitorConversation(conversationId: string, visitorId: string): Promise<TurnTrace[]> {
    return (this.sql.selectVisitorConversation.all(conversationId, visitorId) as TurnRow[]).map((row) => this.fromRow(row, true));
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

  recentTurnScores(limit: number) {
    return this.inspector.recentTurnScores(limit);
  }
}

/** turn_sections.reason: the code of verdict_reasons (the same list as compact.ts REASON_CODES). */
const REASON_CODE = new Map<Reason, number>(REASON_CODES.map((r, i) => [r, i]));

function statements(db: Database.Database) {
  return {
    insertTurn: db.prepare(`
      INSERT INTO turns (
        id, conversation_id, visitor_id, created_at, trigger, status, question, customer_messages, query, kb_version,
        floor_used, top_score, budget, tokens_pinned, tokens_scored, tokens_floor, tokens_total,
        n_sections, n_pinned, n_matched, n_scored, n_floor, n_over_budget, n_no_match, n_omitted,
        selection, prompt_frame, provider, model_id, selection_us
      ) VALUES (
        @id, @conversationId, @visitorId, @createdAt, @trigger, 'pending', @question, @customerMessages, @query, @kbVersion,
        @floorUsed, @topScore, @budget, @tokensPinned, @tokensScored, @tokensFloor, @tokensTotal,
        @nSections, @nPinned, @nMatched, @nScored, @nFloor, @nOverBudget, @nNoMatch, @nOmitted,
        @selection, @promptFrame, @provider, @modelId, @selectionUs
      ) RETURNING seq`),
    insertSection: db.prepare('INSERT INTO turn_sections (section_ref, turn_seq, reason) VALUES (?, ?, ?)'),
    insertPayload: db.prepare('INSERT INTO turn_payloads (turn_seq, explanation, system_prompt) VALUES (?, ?, ?)'),
    updateTurn: db.prepare(`
      UPDATE turns SET
        status = @status, reply = @reply, usage = @usage, input_tokens = @inputTokens,
        output_tokens = @outputTokens, finish_reason = @finishReason, first_token_ms = @firstTokenMs,
        total_ms = @totalMs, error = @error, finished_at = @finishedAt
      WHERE id = @id AND status = 'pending'`),
    selectTurn: db.prepare(`${SELECT_TURNS} WHERE t.id = ?`),
    selectConversation: db.prepare(`${SELECT_TURNS} WHERE t.conversation_id = ? ORDER BY t.created_at, t.seq`),
    selectVisitorConversation: db.prepare(`${SELECT_TURNS} WHERE t.conversation_id = ? AND t.visitor_id = ? ORDER BY t.created_at, t.seq`),
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
    kbVersion: db.prepare(`
      SELECT v.hash, v.config, v.avg_doc_length, i.text AS instructions, p.text AS pinned
      FROM kb_versions v JOIN texts i ON i.hash = v.instructions_hash JOIN texts p ON p.hash = v.pinned_hash WHERE v.id = ?`),
    kbSections: db.prepare(`
      SELECT r.section_id, s.title, s.parents, s.source, s.line, s.tokens, s.pinned, s.part_index, s.part_count, s.part_of,
             s.bm25_length, t.text
      FROM kb_sections s JOIN section_refs r ON r.ref = s.section_ref JOIN texts t ON t.hash = s.text_hash
      WHERE s.kb_version = ? ORDER BY s.position`),
    insertFrame: db.prepare('INSERT INTO prompt_frames (hash, frame) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING'),
    frameByHash: db.prepare('SELECT id FROM prompt_frames WHERE hash = ?').pluck(),
    frame: db.prepare('SELECT frame FROM prompt_frames WHERE id = ?').pluck(),
  };
}
