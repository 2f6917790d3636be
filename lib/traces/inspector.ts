import type Database from 'better-sqlite3';
import type { TurnStatus } from './types';

/**
 * Read-side queries behind /debug: the turns list with its filters, per-section statistics
 * (most sent, never sent) and the turns to look for vocabulary gaps in. `InspectorStore` is
 * what /debug reads; each trace store implements it beside `TraceStore` (SqliteTraceStore by
 * delegating to SqliteInspector, the SQL here), so the chat route never depends on it and
 * /debug never reaches into a store's database handle. No text analysis here: the KB's
 * analyzer works on what these queries return (lib/debug/gaps.ts).
 */

export interface TurnFilter {
  /** Words the customer's question must contain (full-text, prefix match). */
  text?: string;
  status?: TurnStatus;
  floorUsed?: boolean;
  conversationId?: string;
  /** Only turns in which this section was sent / dropped (over budget) / either. */
  section?: { id: string; state: 'sent' | 'dropped' | 'any' };
}

export interface TurnSummary {
  id: string;
  conversationId: string;
  createdAt: string;
  question: string;
  status: TurnStatus;
  floorUsed: boolean;
  topScore: number;
  budget: number;
  tokens: { pinned: number; scored: number; floor: number; total: number };
  provider: string;
  modelId: string;
  totalMs: number | null;
  error: string | null;
}

export interface TurnPage {
  turns: TurnSummary[];
  /** Turns matching the filter, over all pages. */
  total: number;
  page: number;
  pageSize: number;
  pages: number;
}

export interface SectionTraffic {
  sectionId: string;
  /** Turns in which the section was sent (any reason). */
  sent: number;
  /** Turns in which it was sent because it scored (not pinned, not floor). */
  scored: number;
  floor: number;
  /** Turns in which it matched but did not fit. */
  dropped: number;
}

/** A turn whose question matched the KB thinly: where vocabulary gaps are looked for. */
export interface ThinMatchTurn {
  id: string;
  question: string;
}

/** A recent turn's best BM25 score and whether the floor filled in: what /debug/health's "when to consider the semantic stage" reads. */
export interface RecentTurnScore {
  id: string;
  question: string;
  createdAt: string;
  floorUsed: boolean;
  topScore: number;
}

export interface InspectorStore {
  listTurns(filter: TurnFilter, page: number, pageSize: number): TurnPage;
  countTurns(): number;
  /** Per-section counts over all recorded turns (sections never matched are absent). */
  sectionTraffic(): SectionTraffic[];
  /** Turns where the floor filled in or the best score was below `lowScore` (default 2), newest first, at most `maxTurns` (5000). */
  thinMatchTurns(options?: { lowScore?: number; maxTurns?: number }): ThinMatchTurn[];
  /** The newest `limit` turns' best scores and floor use, newest first. */
  recentTurnScores(limit: number): Promise<RecentTurnScore[]>;
}

/** The turns columns a summary reads (the store's full row extends it). */
export interface SummaryRow {
  id: string;
  conversation_id: string;
  created_at: string;
  question: string;
  status: TurnStatus;
  floor_used: number;
  top_score: number;
  budget: number;
  tokens_pinned: number;
  tokens_scored: number;
  tokens_floor: number;
  tokens_total: number;
  provider: string;
  model_id: string;
  total_ms: number | null;
  error: string | null;
}

const SUMMARY_COLUMNS = `id, conversation_id, created_at, question, status, floor_used, top_score, budget,
  tokens_pinned, tokens_scored, tokens_floor, tokens_total, provider, model_id, total_ms, error`;

function summary(row: SummaryRow): TurnSummary {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    createdAt: row.created_at,
    question: row.question,
    status: row.status,
    floorUsed: row.floor_used === 1,
    topScore: row.top_score,
    budget: row.budget,
    tokens: { pinned: row.tokens_pinned, scored: row.tokens_scored, floor: row.tokens_floor, total: row.tokens_total },
    provider: row.provider,
    modelId: row.model_id,
    totalMs: row.total_ms,
    error: row.error,
  };
}

/** Customer text → an FTS5 query: each word quoted (no operators), prefix-matched, all required. */
export function ftsQuery(text: string): string | undefined {
  const words = text.match(/[\p{L}\p{N}]+/gu);
  if (!words) return undefined;
  return words.slice(0, 12).map((w) => `"${w}"*`).join(' ');
}

export class SqliteInspector implements InspectorStore {
  constructor(private readonly db: Database.Database) {}

  listTurns(filter: TurnFilter, page: number, pageSize: number): TurnPage {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    const fts = filter.text === undefined ? undefined : ftsQuery(filter.text);
    if (fts) {
      where.push('seq IN (SELECT rowid FROM turns_question_fts WHERE turns_question_fts MATCH @fts)');
      params.fts = fts;
    }
    if (filter.status) {
      where.push('status = @status');
      params.status = filter.status;
    }
    if (filter.conversationId) {
      where.push('conversation_id = @conversationId');
      params.conversationId = filter.conversationId;
    }
    if (filter.floorUsed !== undefined) {
      where.push('floor_used = @floorUsed');
      params.floorUsed = filter.floorUsed ? 1 : 0;
    }
    if (filter.section) {
      const state =
        filter.section.state === 'sent' ? 'AND v.sent = 1' : filter.section.state === 'dropped' ? "AND v.reason = 'over-budget'" : '';
      where.push(
        `seq IN (SELECT ts.turn_seq FROM turn_sections ts JOIN verdict_reasons v ON v.code = ts.reason
                 WHERE ts.section_ref = (SELECT ref FROM section_refs WHERE section_id = @sectionId) ${state})`,
      );
      params.sectionId = filter.section.id;
    }
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM turns ${whereSql}`).get(params) as { n: number }).n;
    const size = Math.min(Math.max(1, Math.floor(pageSize)), 200);
    const pages = Math.max(1, Math.ceil(total / size));
    const current = Math.min(Math.max(1, Math.floor(page)), pages);
    const rows = this.db
      .prepare(`SELECT ${SUMMARY_COLUMNS} FROM turns ${whereSql} ORDER BY seq DESC LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit: size, offset: (current - 1) * size }) as SummaryRow[];
    return { turns: rows.map(summary), total, page: current, pageSize: size, pages };
  }

  countTurns(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM turns').get() as { n: number }).n;
  }

  sectionTraffic(): SectionTraffic[] {
    return this.db
      .prepare(
        `SELECT r.section_id AS sectionId, t.sent, t.scored, t.floor, t.dropped
         FROM (SELECT ts.section_ref,
                      SUM(v.sent) AS sent,
                      SUM(v.reason = 'scored') AS scored,
                      SUM(v.reason = 'floor') AS floor,
                      SUM(v.reason = 'over-budget') AS dropped
               FROM turn_sections ts JOIN verdict_reasons v ON v.code = ts.reason GROUP BY ts.section_ref) t
         JOIN section_refs r ON r.ref = t.section_ref
         ORDER BY t.sent DESC, r.section_id`,
      )
      .all() as SectionTraffic[];
  }

  async recentTurnScores(limit: number): Promise<RecentTurnScore[]> {
    const rows = this.db
      .prepare('SELECT id, question, created_at, floor_used, top_score FROM turns ORDER BY seq DESC LIMIT @limit')
      .all({ limit }) as { id: string; question: string; created_at: string; floor_used: number; top_score: number }[];
    return rows.map((r) => ({ id: r.id, question: r.question, createdAt: r.created_at, floorUsed: r.floor_used === 1, topScore: r.top_score }));
  }

  thinMatchTurns({ lowScore = 2, maxTurns = 5000 }: { lowScore?: number; maxTurns?: number } = {}): ThinMatchTurn[] {
    return this.db
      .prepare(`SELECT id, question FROM turns WHERE floor_used = 1 OR top_score < @lowScore ORDER BY seq DESC LIMIT @maxTurns`)
      .all({ lowScore, maxTurns }) as ThinMatchTurn[];
  }
}
