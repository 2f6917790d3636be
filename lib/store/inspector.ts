import { addCounts } from '../privacy/redact';
import type { Dialect } from './dialect';
import { decodeRedactions } from './access-sql';
import { LOOP_FILTERS, LOOP_SUMMARY_COLUMNS, LoopQueries } from './loop-sql';
import type { ConversationTurn, DownVotedSection, FeedbackDay, InspectorStore, LanguageCount, RecentQuestion, RecentTurnScore, SectionTraffic, ThinMatchTurn, TurnFilter, TurnPage, TurnSummary } from './ports/inspector';
import type { Query } from './query';
import type { TurnStatus } from './ports/turns';
import type { Vote } from './ports/feedback';

/**
 * Read-side queries behind /debug: the turns list with its filters, per-section statistics
 * (most sent, never sent) and the turns to look for vocabulary gaps in. `InspectorStore` is
 * what /debug reads; each store implements it beside `TurnStore` (both extend SqlInspector,
 * the SQL here, with their dialect and query function), so the chat route never depends on it and
 * /debug never reaches into a store's database handle. No text analysis here: the KB's
 * analyzer works on what these queries return (lib/debug/gaps.ts).
 */

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
  feedback?: Vote | null;
  n_unverified: number | null;
  redactions?: string | null;
  reply_redactions?: string | null;
}

const SUMMARY_COLUMNS = `id, conversation_id, created_at, question, status, floor_used, top_score, budget,
  tokens_pinned, tokens_scored, tokens_floor, tokens_total, provider, model_id, total_ms, error, ${LOOP_SUMMARY_COLUMNS}, redactions, reply_redactions`;

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
    feedback: row.feedback ?? null,
    unverifiedNumbers: row.n_unverified === null ? null : Number(row.n_unverified),
    redacted: redactedOf(row),
  };
}

/** The personal data redacted from a turn's messages and reply, summed; null when none was. */
function redactedOf(row: SummaryRow): TurnSummary['redacted'] {
  if (!row.redactions && !row.reply_redactions) return null;
  return addCounts(decodeRedactions(row.redactions) ?? {}, decodeRedactions(row.reply_redactions) ?? {});
}

/** The customer's words in a question filter: letters and digits only (no operators reach the engine), at most 12. */
export function questionWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 12);
}

/** Customer text → an FTS5 query: each word quoted, prefix-matched, all required. */
export function ftsQuery(text: string): string | undefined {
  const words = questionWords(text);
  return words.length ? words.map((w) => `"${w}"*`).join(' ') : undefined;
}

/** Customer text → a PostgreSQL tsquery (english): each word prefix-matched, all required. */
export function tsQuery(text: string): string | undefined {
  const words = questionWords(text);
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : undefined;
}

/**
 * The inspector's queries, once for both stores: plain SQL that SQLite and PostgreSQL read
 * alike, with the dialect's placeholders and full-text condition (FTS5 / a GIN-indexed tsvector).
 */
export class SqlInspector implements InspectorStore {
  private readonly loop: LoopQueries;

  constructor(
    protected readonly query: Query,
    protected readonly dialect: Dialect,
  ) {
    this.loop = new LoopQueries(query, dialect.placeholder);
  }

  async listTurns(filter: TurnFilter, page: number, pageSize: number): Promise<TurnPage> {
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return this.dialect.placeholder(params.length);
    };
    const where: string[] = [];
    const text = filter.text === undefined ? undefined : this.dialect.questionMatch(filter.text, param);
    if (text) where.push(text);
    if (filter.status) where.push(`status = ${param(filter.status)}`);
    if (filter.conversationId) where.push(`conversation_id = ${param(filter.conversationId)}`);
    if (filter.floorUsed !== undefined) where.push(`floor_used = ${param(filter.floorUsed ? 1 : 0)}`);
    if (filter.section) {
      const state = filter.section.state === 'sent' ? 'AND v.sent = 1' : filter.section.state === 'dropped' ? "AND v.reason = 'over-budget'" : '';
      where.push(
        `seq IN (SELECT ts.turn_seq FROM turn_sections ts JOIN verdict_reasons v ON v.code = ts.reason
                 WHERE ts.section_ref = (SELECT ref FROM section_refs WHERE section_id = ${param(filter.section.id)}) ${state})`,
      );
    }
    if (filter.feedback) where.push(LOOP_FILTERS.feedback(filter.feedback, param));
    if (filter.unverifiedNumbers !== undefined) where.push(LOOP_FILTERS.unverified(filter.unverifiedNumbers));
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (await this.query<{ n: number }>(`SELECT COUNT(*) AS n FROM turns ${whereSql}`, params))[0]!.n;
    const size = Math.min(Math.max(1, Math.floor(pageSize)), 200);
    const pages = Math.max(1, Math.ceil(total / size));
    const current = Math.min(Math.max(1, Math.floor(page)), pages);
    const limit = param(size);
    const offset = param((current - 1) * size);
    const rows = await this.query<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM turns ${whereSql} ORDER BY seq DESC LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { turns: rows.map(summary), total, page: current, pageSize: size, pages };
  }

  async turnLanguages(maxTurns: number): Promise<LanguageCount[]> {
    // The language is the first element of the stored query's `lang` (lib/retrieval/explain/record/query-codec.ts), read here rather than
    // kept in a column of its own: no migration, and a version that does not know it reads the same rows.
    const rows = await this.query<{ query: string | null }>(`SELECT query FROM turns ORDER BY seq DESC LIMIT ${this.dialect.placeholder(1)}`, [maxTurns]);
    const counts = new Map<string, number>();
    for (const { query } of rows) {
      let language = 'unrecorded';
      try {
        const lang = query === null ? undefined : (JSON.parse(query) as { lang?: unknown[] }).lang?.[0];
        if (typeof lang === 'string') language = lang;
      } catch {
        // a query this version cannot read counts as unrecorded
      }
      counts.set(language, (counts.get(language) ?? 0) + 1);
    }
    return [...counts].map(([language, turns]) => ({ language, turns })).sort((a, b) => b.turns - a.turns || (a.language < b.language ? -1 : 1));
  }

  async countTurns(): Promise<number> {
    return (await this.query<{ n: number }>('SELECT COUNT(*) AS n FROM turns', []))[0]!.n;
  }

  async oldestTurnAt(): Promise<string | undefined> {
    const [row] = await this.query<{ created_at: string }>('SELECT created_at FROM turns ORDER BY created_at LIMIT 1', []);
    return row?.created_at;
  }

  async recentTurnScores(limit: number): Promise<RecentTurnScore[]> {
    const rows = await this.query<{ id: string; question: string; created_at: string; floor_used: number; top_score: number }>(
      `SELECT id, question, created_at, floor_used, top_score FROM turns ORDER BY seq DESC LIMIT ${this.dialect.placeholder(1)}`,
      [limit],
    );
    return rows.map((r) => ({ id: r.id, question: r.question, createdAt: r.created_at, floorUsed: Number(r.floor_used) === 1, topScore: Number(r.top_score) }));
  }

  async sectionTraffic(): Promise<SectionTraffic[]> {
    const count = (condition: string) => `SUM(CASE WHEN ${condition} THEN 1 ELSE 0 END)`;
    return this.query<SectionTraffic>(
      `SELECT r.section_id AS "sectionId", t.sent, t.scored, t.floor, t.dropped
       FROM (SELECT ts.section_ref,
                    ${count('v.sent = 1')} AS sent,
                    ${count("v.reason = 'scored'")} AS scored,
                    ${count("v.reason = 'floor'")} AS floor,
                    ${count("v.reason = 'over-budget'")} AS dropped
             FROM turn_sections ts JOIN verdict_reasons v ON v.code = ts.reason GROUP BY ts.section_ref) t
       JOIN section_refs r ON r.ref = t.section_ref
       ORDER BY t.sent DESC, r.section_id`,
      [],
    );
  }

  async thinMatchTurns({ lowScore = 2, maxTurns = 5000 }: { lowScore?: number; maxTurns?: number } = {}): Promise<ThinMatchTurn[]> {
    const p = this.dialect.placeholder;
    return this.query<ThinMatchTurn>(
      `SELECT id, question FROM turns WHERE floor_used = 1 OR top_score < ${p(1)} ORDER BY seq DESC LIMIT ${p(2)}`,
      [lowScore, maxTurns],
    );
  }

  feedbackByDay(options: { since: string }): Promise<FeedbackDay[]> {
    return this.loop.feedbackByDay(options);
  }

  downVotedSections(limit: number): Promise<DownVotedSection[]> {
    return this.loop.downVotedSections(limit);
  }

  conversationTurns(maxTurns: number): Promise<ConversationTurn[]> {
    return this.loop.conversationTurns(maxTurns);
  }

  recentQuestions(limit: number): Promise<RecentQuestion[]> {
    return this.loop.recentQuestions(limit);
  }

  async keptTurnIds(ids: readonly string[]): Promise<Set<string>> {
    const kept = new Set<string>();
    for (let i = 0; i < ids.length; i += ID_BATCH) {
      const batch = ids.slice(i, i + ID_BATCH);
      const rows = await this.query<{ id: string }>(`SELECT id FROM turns WHERE id IN (${batch.map((_, n) => this.dialect.placeholder(n + 1)).join(', ')})`, batch);
      for (const row of rows) kept.add(row.id);
    }
    return kept;
  }
}

/** Ids asked about in one statement (well under either store's limit on parameters). */
const ID_BATCH = 500;
