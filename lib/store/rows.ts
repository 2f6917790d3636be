import { decodeQuery, encodeQuery, turnFromRecord, type KbSection, type KbVersion, type PromptFrame, type RetrievalConfig, type StoredRecord, type TurnSummary } from '../retrieval/index';
import { rowsOf, statement, type Steps } from './steps';
import type { SummaryRow } from './inspector';
import { decodeRedactions, encodeRedactions } from './access-sql';
import { decodeNumberCheck, decodeSources, encodeNumberCheck, encodeSources, feedbackOf, LOOP_TURN_COLUMNS, LOOP_TURN_JOIN } from './loop-sql';
import type { TurnEnd, TurnStart, TurnTrace, TurnTrigger, TurnUsage } from './ports/turns';

/**
 * The rows both trace stores keep (sqlite.ts, postgres.ts), and the mapping between them and
 * TurnStart / TurnEnd / TurnTrace: one schema in two SQL dialects, so a turn is written and
 * read back the same way whichever store holds it. Flags are 0/1 integers, JSON is text
 * (the record's own encodings: record/), times are ISO 8601 strings on the way in and out.
 */

/** A `turns` row, as both stores select it. */
export interface TurnRow extends SummaryRow {
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
  /** The support lead's loop (loop-sql.ts): the reply's sources and number check, and its vote (LEFT JOIN turn_feedback). */
  sources: string | null;
  number_check: string | null;
  feedback_vote: string | null;
  feedback_reason: string | null;
  feedback_at: string | null;
  /** The embed's page context and verified user (embed migration). */
  page_url: string | null;
  page_title: string | null;
  user_id: string | null;
  /** /debug's access (access-sql.ts): the personal data redacted from the turn. */
  redactions: string | null;
  reply_redactions: string | null;
}

export const SELECT_TURNS = `SELECT t.*, ${LOOP_TURN_COLUMNS} FROM turns t ${LOOP_TURN_JOIN}`;

export interface KbVersionRow {
  hash: string;
  config: string;
  avg_doc_length: number;
  instructions: string;
  pinned: string;
}

export interface KbSectionRow {
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

export const SELECT_KB_VERSION = `SELECT v.hash, v.config, v.avg_doc_length, i.text AS instructions, p.text AS pinned
  FROM kb_versions v JOIN texts i ON i.hash = v.instructions_hash JOIN texts p ON p.hash = v.pinned_hash`;

export const SELECT_KB_SECTIONS = `SELECT r.section_id, s.title, s.parents, s.source, s.line, s.tokens, s.pinned,
  s.part_index, s.part_count, s.part_of, s.bm25_length, t.text
  FROM kb_sections s JOIN section_refs r ON r.ref = s.section_ref JOIN texts t ON t.hash = s.text_hash`;

/** The columns of a new turn, in insert order (`status` is 'pending'). */
export const TURN_INSERT_COLUMNS = [
  'id', 'conversation_id', 'visitor_id', 'created_at', 'trigger', 'status', 'question', 'customer_messages', 'query',
  'kb_version', 'floor_used', 'top_score', 'budget', 'tokens_pinned', 'tokens_scored', 'tokens_floor', 'tokens_total',
  'n_sections', 'n_pinned', 'n_matched', 'n_scored', 'n_floor', 'n_over_budget', 'n_no_match', 'n_omitted',
  'selection', 'prompt_frame', 'provider', 'model_id', 'selection_us', 'sources', 'page_url', 'page_title', 'user_id', 'bm25_confidence', 'redactions',
] as const;

export type TurnInsertColumn = (typeof TURN_INSERT_COLUMNS)[number];

/** A new turn's INSERT (values in TURN_INSERT_COLUMNS order), returning its seq. */
export function insertTurnSql(p: (n: number) => string): string {
  return `INSERT INTO turns (${TURN_INSERT_COLUMNS.join(', ')}) VALUES (${TURN_INSERT_COLUMNS.map((_, i) => p(i + 1)).join(', ')}) RETURNING seq`;
}

/** A new turn's column values: its record's query, summary and selection (record/record.ts), and the ids of its KB version and prompt frame. */
export function turnInsertValues(turn: TurnStart, kbVersion: number, promptFrame: number | null): Record<TurnInsertColumn, unknown> {
  const { record } = turn;
  const e = record.summary;
  return {
    id: turn.id,
    conversation_id: turn.conversationId,
    visitor_id: turn.visitorId ?? null,
    created_at: turn.createdAt,
    trigger: turn.trigger,
    status: 'pending',
    question: turn.question,
    customer_messages: JSON.stringify(turn.customerMessages),
    query: encodeQuery(record.query),
    kb_version: kbVersion,
    floor_used: e.floorUsed ? 1 : 0,
    top_score: e.topScore,
    budget: e.budget,
    tokens_pinned: e.tokens.pinned,
    tokens_scored: e.tokens.scored,
    tokens_floor: e.tokens.floor,
    tokens_total: e.tokens.total,
    n_sections: e.counts.sections,
    n_pinned: e.counts.pinned,
    n_matched: e.counts.matched,
    n_scored: e.counts.scored,
    n_floor: e.counts.floor,
    n_over_budget: e.counts.overBudget,
    n_no_match: e.counts.noMatch,
    n_omitted: e.omitted,
    selection: record.selection.text,
    prompt_frame: promptFrame,
    provider: turn.provider,
    model_id: turn.modelId,
    selection_us: Math.round(turn.selectionUs),
    sources: encodeSources(turn.sources),
    page_url: turn.page?.url ?? null,
    page_title: turn.page?.title ?? null,
    user_id: turn.userId ?? null,
    bm25_confidence: turn.confidence ?? null,
    redactions: encodeRedactions(turn.redactions),
  };
}

/** The columns a finished turn sets, in update order. */
export const TURN_FINISH_COLUMNS = [
  'status', 'reply', 'usage', 'input_tokens', 'output_tokens', 'finish_reason', 'first_token_ms', 'total_ms', 'error', 'finished_at',
  'number_check', 'n_unverified', 'reply_redactions',
] as const;

/** A turn's ending (values in TURN_FINISH_COLUMNS order, then the turn's id): only while it is pending. */
export function finishTurnSql(p: (n: number) => string): string {
  return `UPDATE turns SET ${TURN_FINISH_COLUMNS.map((c, i) => `${c} = ${p(i + 1)}`).join(', ')} WHERE id = ${p(TURN_FINISH_COLUMNS.length + 1)} AND status = 'pending'`;
}

export function turnFinishValues(end: TurnEnd, finishedAt = new Date().toISOString()): Record<(typeof TURN_FINISH_COLUMNS)[number], unknown> {
  return {
    status: end.status,
    reply: end.reply,
    usage: end.usage === undefined ? null : JSON.stringify(end.usage),
    input_tokens: end.usage?.inputTokens ?? null,
    output_tokens: end.usage?.outputTokens ?? null,
    finish_reason: end.finishReason ?? null,
    first_token_ms: end.firstTokenMs ?? null,
    total_ms: end.totalMs,
    error: end.error ?? null,
    finished_at: finishedAt,
    ...encodeNumberCheck(end.numbers),
    reply_redactions: encodeRedactions(end.replyRedactions),
  };
}

/** A stored KB version, read back (`p`: the dialect's placeholders). */
export function* readKbVersion(p: (n: number) => string, id: number): Steps<KbVersion> {
  const [version] = yield* rowsOf<KbVersionRow>(statement(`${SELECT_KB_VERSION} WHERE v.id = ${p(1)}`, [id]));
  const sections = yield* rowsOf<KbSectionRow>(statement(`${SELECT_KB_SECTIONS} WHERE s.kb_version = ${p(1)} ORDER BY s.position`, [id]));
  return kbVersionFromRows(version!, sections);
}

/** A KB version from its stored rows. */
export function kbVersionFromRows(v: KbVersionRow, rows: KbSectionRow[]): KbVersion {
  const sections = rows.map(
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
  return { hash: v.hash, sections, instructions: v.instructions, pinnedContext: v.pinned, config: JSON.parse(v.config) as RetrievalConfig, avgDocLength: v.avg_doc_length };
}

/** The turn's record as stored: its query, summary and selection columns, and its prompt frame. */
function recordFromRow(row: TurnRow, frame: (id: number) => PromptFrame): StoredRecord {
  return {
    query: decodeQuery(row.question, row.query!),
    summary: summaryFromRow(row),
    text: row.selection!,
    ...(row.prompt_frame === null ? {} : { frame: frame(row.prompt_frame) }),
  };
}

/** The summary columns of a turn. */
export function summaryFromRow(row: TurnRow): TurnSummary {
  return {
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
  };
}

/**
 * A trace from its row, its KB version (already read) and the prompt frames. `lazy`: the
 * explanation and prompt are expanded when first read (conversation lists read only
 * questions and replies); `frame` must then still work when they are.
 */
export function traceFromRow(row: TurnRow, kb: KbVersion | undefined, frame: (id: number) => PromptFrame, lazy = false): TurnTrace {
  let expanded: ReturnType<typeof turnFromRecord> | undefined;
  const expand = () => (expanded ??= turnFromRecord(recordFromRow(row, frame), kb));
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
  if (row.user_id !== null && row.user_id !== undefined) trace.userId = row.user_id;
  const redactions = decodeRedactions(row.redactions);
  if (redactions) trace.redactions = redactions;
  const replyRedactions = decodeRedactions(row.reply_redactions);
  if (replyRedactions) trace.replyRedactions = replyRedactions;
  if (row.usage !== null) trace.usage = JSON.parse(row.usage) as TurnUsage;
  if (row.finish_reason !== null) trace.finishReason = row.finish_reason;
  if (row.first_token_ms !== null) trace.firstTokenMs = row.first_token_ms;
  if (row.total_ms !== null) trace.totalMs = row.total_ms;
  if (row.error !== null) trace.error = row.error;
  if (row.finished_at !== null) trace.finishedAt = row.finished_at;
  const sources = decodeSources(row.sources);
  if (sources) trace.sources = sources;
  const numbers = decodeNumberCheck(row.number_check);
  if (numbers) trace.numbers = numbers;
  const feedback = feedbackOf(row);
  if (feedback) trace.feedback = feedback;
  if (row.page_url) trace.page = { url: row.page_url, ...(row.page_title ? { title: row.page_title } : {}) };
  return trace;
}

/** A few KB versions read back, most recently used last (versions change rarely). */
export class KbVersionCache {
  private readonly versions = new Map<number, KbVersion>();
  constructor(private readonly size = 4) {}

  get(id: number): KbVersion | undefined {
    const kb = this.versions.get(id);
    if (kb) this.set(id, kb);
    return kb;
  }

  set(id: number, kb: KbVersion): void {
    this.versions.delete(id);
    this.versions.set(id, kb);
    for (const old of this.versions.keys()) {
      if (this.versions.size <= this.size) break;
      this.versions.delete(old);
    }
  }
}
