import { SqlAccessStore } from './access-store';
import { auditRetentionSql } from './access-sql';
import { textHash, type KbVersion, type PromptFrame } from '../retrieval/index';
import { columns, type Dialect } from './dialect';
import {
  attemptParams,
  claimedDelivery,
  claimedHandoffSql,
  finishDeliverySql,
  finishParams,
  HANDOFF_INSERT_COLUMNS,
  handoffInsertValues,
  insertAttemptSql,
  insertDeliverySql,
  insertHandoffSql,
  refreshStatusSql,
  retryFailedSql,
  type ClaimedHandoffRow,
  type ClaimRow,
} from './handoff-sql';
import { setFeedbackParams, setFeedbackSql } from './loop-sql';
import type { AuditStore } from './ports/audit';
import type { ConversationStore } from './ports/conversations';
import type { CustomerDataStore, DataSubject, SubjectDeletion, SubjectLinks } from './ports/customer-data';
import type { FeedbackStore, TurnFeedback } from './ports/feedback';
import type { AttemptResult, ClaimedDelivery, HandoffRecord, HandoffStart, HandoffStore } from './ports/handoffs';
import type { TurnEnd, TurnStart, TurnStore, TurnTrace } from './ports/turns';
import {
  finishTurnSql,
  insertTurnSql,
  KbVersionCache,
  readKbVersion,
  SELECT_TURNS,
  traceFromRow,
  TURN_FINISH_COLUMNS,
  TURN_INSERT_COLUMNS,
  turnFinishValues,
  turnInsertValues,
  type TurnRow,
} from './rows';
import { changesOf, rowsOf, statement, type Steps } from './steps';

/**
 * The store over SQL, once for both databases: every port's statements and the steps between
 * them (steps.ts), with the dialect's syntax where SQLite and PostgreSQL differ (dialect.ts).
 * An adapter (sqlite.ts, postgres.ts) gives it a runner — how it runs a unit of work, alone or
 * in a transaction — and keeps what genuinely differs: the connection, its migrations, how
 * writes are grouped (SQLite's group commit) and what a deletion must do after (checkpoint, VACUUM).
 */

/** How an adapter runs the shared work: statement by statement, or in one transaction (rolled back when a step throws). */
export interface SqlRunner {
  run<T>(steps: Steps<T>): Promise<T>;
  transaction<T>(steps: Steps<T>): Promise<T>;
}

/** What a turn's start wrote that the store remembers once it is committed: its KB version's id and section refs, its prompt frame's id. */
export interface StartWritten {
  version: { id: number; refs: number[] };
  frame?: { json: string; id: number };
}

const TEXT_COLUMNS = columns(['hash', 'text'], ['text', 'text']);
const SECTION_REF_COLUMNS = columns(['section_id', 'text']);
const KB_SECTION_COLUMNS = columns(
  ['kb_version', 'int'],
  ['position', 'int'],
  ['section_ref', 'int'],
  ['title', 'text'],
  ['parents', 'text'],
  ['source', 'text'],
  ['line', 'int'],
  ['tokens', 'int'],
  ['pinned', 'smallint'],
  ['part_index', 'int'],
  ['part_count', 'int'],
  ['part_of', 'text'],
  ['bm25_length', 'float8'],
  ['text_hash', 'text'],
);
const TURN_SECTION_COLUMNS = columns(['section_ref', 'int'], ['turn_seq', 'bigint'], ['reason', 'smallint']);

export abstract class SqlStore extends SqlAccessStore implements TurnStore, ConversationStore, FeedbackStore, AuditStore, CustomerDataStore, HandoffStore {
  /** KB versions this store wrote or read: database id, and the section ref of each position. */
  private readonly written = new WeakMap<KbVersion, { id: number; refs: number[] }>();
  private readonly read = new KbVersionCache();
  /** Prompt frames written or read: id by their JSON text. */
  private readonly frames = new Map<string, number>();
  private readonly frameTexts = new Map<number, PromptFrame>();
  private readonly insertTurn: string;
  private readonly finishTurnText: string;

  protected constructor(
    protected readonly runner: SqlRunner,
    dialect: Dialect,
  ) {
    super(<Row>(sql: string, params: unknown[]) => runner.run(rowsOf<Row>(statement(sql, params))), dialect);
    this.insertTurn = insertTurnSql(this.p);
    this.finishTurnText = finishTurnSql(this.p);
  }

  async startTurn(turn: TurnStart): Promise<void> {
    this.remember(turn, await this.runner.transaction(this.startTurnSteps(turn)));
  }

  /** A turn's start row, its inspector index rows, and its KB version and prompt frame when they are new. */
  protected *startTurnSteps(turn: TurnStart): Steps<StartWritten> {
    const { record } = turn;
    const version = yield* this.kbVersionSteps(turn.kb, turn.createdAt);
    const frame = record.frame ? yield* this.frameSteps(record.frame) : undefined;
    const values = turnInsertValues(turn, version.id, frame?.id ?? null);
    const [{ seq }] = (yield* rowsOf<{ seq: number }>(statement(this.insertTurn, TURN_INSERT_COLUMNS.map((c) => values[c])))) as [{ seq: number }];
    // The inspector's index of sections sent or matched.
    const { keys, codes } = record.selection.reasons;
    const byId = yield* this.sectionRefsSteps(keys.filter((key): key is string => typeof key === 'string'));
    const rows = keys.map((key, i) => [typeof key === 'number' ? version.refs[key] : byId.get(key), seq, codes[i]]);
    for (const s of this.dialect.insertRows('turn_sections', TURN_SECTION_COLUMNS, rows)) yield s;
    return { version, frame };
  }

  /** Remembered once committed: a rolled-back write wrote nothing. */
  protected remember(turn: TurnStart, { version, frame }: StartWritten): void {
    this.written.set(turn.kb, version);
    this.read.set(version.id, turn.kb);
    if (frame && turn.record.frame) {
      this.frames.set(frame.json, frame.id);
      this.frameTexts.set(frame.id, turn.record.frame);
    }
  }

  /**
   * The database id of a KB version, writing it (texts, section refs, sections) the first
   * time any instance sees it. Two instances writing the same new version at once: the
   * second's insert waits for the first's commit, then finds the row and writes nothing.
   */
  private *kbVersionSteps(kb: KbVersion, createdAt: string): Steps<{ id: number; refs: number[] }> {
    const known = this.written.get(kb);
    if (known) return known;
    const byHash = statement(`SELECT id FROM kb_versions WHERE hash = ${this.p(1)}`, [kb.hash]);
    let id = (yield* rowsOf<{ id: number }>(byHash))[0]?.id;
    if (id === undefined) {
      const texts = new Map([kb.instructions, kb.pinnedContext, ...kb.sections.map((s) => s.text)].map((t) => [textHash(t), t]));
      const hashes = [...texts.keys()].sort();
      for (const s of this.dialect.insertRows('texts', TEXT_COLUMNS, hashes.map((h) => [h, texts.get(h)]), 'ON CONFLICT (hash) DO NOTHING')) yield s;
      const refs = yield* this.sectionRefsSteps(kb.sections.map((s) => s.id));
      const p = this.p;
      const inserted = yield* rowsOf<{ id: number }>(
        statement(
          `INSERT INTO kb_versions (hash, created_at, instructions_hash, pinned_hash, config, avg_doc_length, sections)
           VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}) ON CONFLICT (hash) DO NOTHING RETURNING id`,
          [kb.hash, createdAt, textHash(kb.instructions), textHash(kb.pinnedContext), JSON.stringify(kb.config), kb.avgDocLength, kb.sections.length],
        ),
      );
      id = inserted[0]?.id;
      if (id === undefined) id = (yield* rowsOf<{ id: number }>(byHash))[0]!.id;
      else {
        const sections = kb.sections.map((s, position) => [
          id, position, refs.get(s.id), s.title, JSON.stringify(s.parents), s.source, s.line, s.tokens, s.pinned ? 1 : 0,
          s.part?.index ?? null, s.part?.count ?? null, s.part?.sectionId ?? null, s.bm25Length ?? null, textHash(s.text),
        ]);
        for (const s of this.dialect.insertRows('kb_sections', KB_SECTION_COLUMNS, sections)) yield s;
      }
    }
    const refs = yield* rowsOf<{ section_ref: number }>(statement(`SELECT section_ref FROM kb_sections WHERE kb_version = ${this.p(1)} ORDER BY position`, [id]));
    return { id, refs: refs.map((r) => r.section_ref) };
  }

  /** Section id → its small integer, creating the missing ones (sorted, so concurrent writers lock them in one order). */
  private *sectionRefsSteps(sectionIds: string[]): Steps<Map<string, number>> {
    if (sectionIds.length === 0) return new Map();
    const ids = [...new Set(sectionIds)].sort();
    for (const s of this.dialect.insertRows('section_refs', SECTION_REF_COLUMNS, ids.map((id) => [id]), 'ON CONFLICT (section_id) DO NOTHING')) yield s;
    const rows = yield* rowsOf<{ ref: number; section_id: string }>(
      statement(`SELECT ref, section_id FROM section_refs WHERE ${this.dialect.inList('section_id', this.p(1), 'text')}`, [this.dialect.listParam(ids)]),
    );
    return new Map(rows.map((r) => [r.section_id, r.ref]));
  }

  private *frameSteps(frame: PromptFrame): Steps<{ json: string; id: number }> {
    const json = JSON.stringify(frame);
    const known = this.frames.get(json);
    if (known !== undefined) return { json, id: known };
    const hash = textHash(json);
    yield statement(`INSERT INTO prompt_frames (hash, frame) VALUES (${this.p(1)}, ${this.p(2)}) ON CONFLICT (hash) DO NOTHING`, [hash, json]);
    const [row] = yield* rowsOf<{ id: number }>(statement(`SELECT id FROM prompt_frames WHERE hash = ${this.p(1)}`, [hash]));
    return { json, id: row!.id };
  }

  async finishTurn(id: string, end: TurnEnd): Promise<boolean> {
    return this.runner.run(this.finishTurnSteps(id, end));
  }

  protected *finishTurnSteps(id: string, end: TurnEnd): Steps<boolean> {
    const values = turnFinishValues(end);
    return (yield* changesOf(statement(this.finishTurnText, [...TURN_FINISH_COLUMNS.map((c) => values[c]), id]))) === 1;
  }

  async getTurn(id: string): Promise<TurnTrace | undefined> {
    return (await this.runner.run(this.tracesSteps(`${SELECT_TURNS} WHERE t.id = ${this.p(1)}`, [id], false)))[0];
  }

  async listTurnsByConversation(conversationId: string): Promise<TurnTrace[]> {
    return this.runner.run(this.tracesSteps(`${SELECT_TURNS} WHERE t.conversation_id = ${this.p(1)} ORDER BY t.created_at, t.seq`, [conversationId], true));
  }

  async listVisitorConversation(conversationId: string, visitorId: string): Promise<TurnTrace[]> {
    const sql = `${SELECT_TURNS} WHERE t.conversation_id = ${this.p(1)} AND t.visitor_id = ${this.p(2)} ORDER BY t.created_at, t.seq`;
    return this.runner.run(this.tracesSteps(sql, [conversationId, visitorId], true));
  }

  /** The turns a query selects, with what their traces need (KB versions, prompt frames) read first where not held; `lazy` as traceFromRow. */
  private *tracesSteps(sql: string, params: unknown[], lazy: boolean): Steps<TurnTrace[]> {
    const rows = yield* rowsOf<TurnRow>(statement(sql, params));
    const versions = new Map<number, KbVersion>();
    for (const id of new Set(rows.map((r) => r.kb_version))) {
      if (id !== null) versions.set(id, yield* this.kbVersionRead(id));
    }
    const missing = [...new Set(rows.map((r) => r.prompt_frame))].filter((id): id is number => id !== null && !this.frameTexts.has(id));
    if (missing.length) {
      const frames = yield* rowsOf<{ id: number; frame: string }>(
        statement(`SELECT id, frame FROM prompt_frames WHERE ${this.dialect.inList('id', this.p(1), 'int')}`, [this.dialect.listParam(missing)]),
      );
      for (const r of frames) this.frameTexts.set(r.id, JSON.parse(r.frame) as PromptFrame);
    }
    const frame = (id: number) => this.frameTexts.get(id)!;
    return rows.map((row) => traceFromRow(row, row.kb_version === null ? undefined : versions.get(row.kb_version), frame, lazy));
  }

  /** A stored KB version, read back once and kept among the few most recently used. */
  private *kbVersionRead(id: number): Steps<KbVersion> {
    let kb = this.read.get(id);
    if (!kb) this.read.set(id, (kb = yield* readKbVersion(this.p, id)));
    return kb;
  }

  async latestVisitorConversation(visitorId: string): Promise<string | undefined> {
    const sql = `SELECT conversation_id FROM turns WHERE visitor_id = ${this.p(1)} ORDER BY created_at DESC, seq DESC LIMIT 1`;
    return (await this.runner.run(rowsOf<{ conversation_id: string }>(statement(sql, [visitorId]))))[0]?.conversation_id;
  }

  /**
   * Deletes up to `batchSize` turns made before `cutoff`, oldest first, with everything stored
   * for them alone, in one short transaction; returns how many went. With PostgreSQL one
   * instance at a time (the dialect's retention lock): the others delete nothing and return 0.
   */
  async deleteTurnsBefore(cutoff: string, batchSize: number): Promise<number> {
    return this.deleting(this.expiredTurnsSteps(cutoff, batchSize));
  }

  private *expiredTurnsSteps(cutoff: string, batchSize: number): Steps<number> {
    const lock = this.dialect.retentionLock;
    if (lock && !(yield* rowsOf<{ locked: boolean }>(lock))[0]!.locked) return 0;
    const sql = `SELECT seq FROM turns WHERE created_at < ${this.p(1)} ORDER BY seq LIMIT ${this.p(2)}`;
    const seqs = (yield* rowsOf<{ seq: number }>(statement(sql, [cutoff, batchSize]))).map((r) => r.seq);
    yield* this.deleteSeqsSteps(seqs);
    return seqs.length;
  }

  /** Runs a deletion of turns in one transaction (SQLite turns its foreign keys off around it: sqlite.ts). */
  protected deleting<T>(steps: Steps<T>): Promise<T> {
    return this.runner.transaction(steps);
  }

  /**
   * Deletes these turns (ascending seqs) with everything stored for them alone. turn_sections
   * has no index leading with turn_seq, so its rows go first, found through the primary key (one
   * range seek per section ref); then the feedback and the turns themselves.
   */
  protected *deleteSeqsSteps(seqs: number[]): Steps<void> {
    if (seqs.length === 0) return;
    const { inList } = this.dialect;
    const list = this.dialect.listParam(seqs);
    const p = this.p;
    yield statement(
      `DELETE FROM turn_sections
       WHERE section_ref IN (SELECT ref FROM section_refs) AND turn_seq BETWEEN ${p(1)} AND ${p(2)} AND ${inList('turn_seq', p(3), 'bigint')}`,
      [seqs[0], seqs.at(-1), list],
    );
    yield statement(`DELETE FROM turn_feedback WHERE ${inList('turn_seq', p(1), 'bigint')}`, [list]);
    yield statement(`DELETE FROM turns WHERE ${inList('seq', p(1), 'bigint')}`, [list]);
  }

  async deleteCustomerTurns(subject: DataSubject, links: SubjectLinks): Promise<SubjectDeletion> {
    const rows = await this.access.customerTurnSeqs(subject, links);
    await this.deleteTurnSeqs(rows.map((r) => r.seq));
    return SqlAccessStore.turnDeletion(rows);
  }

  /** Deletes a customer's turns (ascending seqs), in one transaction. */
  protected deleteTurnSeqs(seqs: number[]): Promise<void> {
    return this.deleting(this.deleteSeqsSteps(seqs));
  }

  /** Rows another transaction holds (a finishTurn in flight) are skipped where the database can (skipLocked): that ending wins. */
  async closePendingTurnsBefore(cutoff: string, reason: string, batchSize: number): Promise<number> {
    const p = this.p;
    const sql = `UPDATE turns SET status = 'error', error = ${p(1)}, finished_at = ${p(2)}
       WHERE seq IN (SELECT seq FROM turns WHERE status = 'pending' AND created_at < ${p(3)} ORDER BY created_at LIMIT ${p(4)}${this.dialect.skipLocked})`;
    return this.runner.run(changesOf(statement(sql, [reason, new Date().toISOString(), cutoff, batchSize])));
  }

  async setFeedback(turnId: string, feedback: TurnFeedback): Promise<boolean> {
    return (await this.runner.run(changesOf(statement(setFeedbackSql(this.p), setFeedbackParams(turnId, feedback))))) === 1;
  }

  async deleteAuditBefore(cutoff: string, batchSize: number): Promise<number> {
    const sql = auditRetentionSql(this.p);
    return this.runner.transaction(
      (function* () {
        yield statement(sql.declare, [cutoff]);
        const deleted = yield* changesOf(statement(sql.deleteBatch, [cutoff, batchSize]));
        yield statement(sql.withdraw);
        return deleted;
      })(),
    );
  }

  async createHandoff(handoff: HandoffStart): Promise<{ created: boolean; handoff: HandoffRecord }> {
    const values = handoffInsertValues(handoff);
    const p = this.p;
    const created = await this.runner.transaction(
      (function* () {
        const [row] = yield* rowsOf<{ seq: number }>(statement(insertHandoffSql(p), HANDOFF_INSERT_COLUMNS.map((c) => values[c])));
        if (!row) return false;
        for (const channel of handoff.channels) yield statement(insertDeliverySql(p), [row.seq, channel, handoff.createdAt, handoff.retryUntil]);
        return true;
      })(),
    );
    return { created, handoff: (await this.conversationHandoff(handoff.conversationId, handoff.visitorId))! };
  }

  /** The dialect's claim (one UPDATE … RETURNING in SQLite, whose one writer claims alone; rows locked as picked, SKIP LOCKED, in PostgreSQL). */
  async claimDeliveries(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    const { dialect, p } = this;
    return this.runner.run(
      (function* () {
        const claimed = yield* rowsOf<ClaimRow>(dialect.claimDeliveries(leaseUntil, now, limit));
        const deliveries: ClaimedDelivery[] = [];
        for (const claim of claimed) {
          const [handoff] = yield* rowsOf<ClaimedHandoffRow>(statement(claimedHandoffSql(p), [claim.handoff_seq]));
          deliveries.push(claimedDelivery(claim, handoff!));
        }
        return deliveries;
      })(),
    );
  }

  async finishAttempt(result: AttemptResult): Promise<void> {
    const p = this.p;
    await this.runner.transaction(
      (function* () {
        yield statement(insertAttemptSql(p), attemptParams(result));
        yield statement(finishDeliverySql(p), finishParams(result));
        yield statement(refreshStatusSql(p), [result.handoffId]);
      })(),
    );
  }

  async retryFailed(handoffId: string, now: string, retryUntil: string): Promise<number> {
    const p = this.p;
    return this.runner.transaction(
      (function* () {
        const changed = yield* changesOf(statement(retryFailedSql(p), [now, retryUntil, handoffId]));
        yield statement(refreshStatusSql(p), [handoffId]);
        return changed;
      })(),
    );
  }

  abstract purgeDeleted(): Promise<void>;
  abstract ready(): Promise<void>;
  abstract close(): Promise<void>;
}
