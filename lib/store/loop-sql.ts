import { z } from 'zod';
import type { ReplySource } from '../knowledge/sources';
import type { ConversationTurn, DownVotedSection, FeedbackDay, RecentQuestion } from './ports/inspector';
import type { Query } from './query';
import type { NumberCheck, NumberMention } from './ports/turns';
import type { TurnFeedback, Vote } from './ports/feedback';

/**
 * The SQL of the support lead's loop (issue 15), in one place for both stores: a reply's
 * sources and number check (columns of `turns`), feedback (`turn_feedback`, one row per voted
 * turn), and the inspector's queries over them (SqlInspector delegates here). Plain tables and
 * columns; JSON as text, validated when read; `CASE WHEN` sums; placeholders from the store's
 * dialect.
 */

/** SQLite schema version 4 (appended to sqlite-migrations.ts MIGRATIONS). */
export const LOOP_SQLITE_MIGRATION = `
  ALTER TABLE turns ADD COLUMN sources TEXT;
  ALTER TABLE turns ADD COLUMN number_check TEXT;
  ALTER TABLE turns ADD COLUMN n_unverified INTEGER;
  CREATE INDEX turns_unverified ON turns (n_unverified);
  CREATE TABLE turn_feedback (
    turn_seq   INTEGER PRIMARY KEY REFERENCES turns (seq) ON DELETE CASCADE,
    vote       TEXT    NOT NULL CHECK (vote IN ('up', 'down')),
    reason     TEXT,
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
  );
  CREATE INDEX turn_feedback_vote ON turn_feedback (vote);
`;

/** The same tables in PostgreSQL (appended to postgres-migrations.ts POSTGRES_MIGRATIONS). */
export const LOOP_POSTGRES_MIGRATION = `
  ALTER TABLE turns ADD COLUMN sources text, ADD COLUMN number_check text, ADD COLUMN n_unverified integer;
  CREATE INDEX turns_unverified ON turns (n_unverified);
  CREATE TABLE turn_feedback (
    turn_seq   bigint      PRIMARY KEY REFERENCES turns (seq) ON DELETE CASCADE,
    vote       text        NOT NULL CHECK (vote IN ('up', 'down')),
    reason     text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  );
  CREATE INDEX turn_feedback_vote ON turn_feedback (vote);
`;

/** The columns rows.ts SELECT_TURNS adds for a trace, and its join. */
export const LOOP_TURN_COLUMNS = 'f.vote AS feedback_vote, f.reason AS feedback_reason, f.updated_at AS feedback_at';
export const LOOP_TURN_JOIN = 'LEFT JOIN turn_feedback f ON f.turn_seq = t.seq';

/** The turns-list columns (inspector.ts summaries): the vote and how many numbers were unverified. */
export const LOOP_SUMMARY_COLUMNS = '(SELECT vote FROM turn_feedback f WHERE f.turn_seq = turns.seq) AS feedback, n_unverified';

/** WHERE clauses of the turns list (inspector.ts). */
export const LOOP_FILTERS = {
  feedback: (vote: Vote | 'any', param: (value: unknown) => string) =>
    vote === 'any' ? 'seq IN (SELECT turn_seq FROM turn_feedback)' : `seq IN (SELECT turn_seq FROM turn_feedback WHERE vote = ${param(vote)})`,
  unverified: (yes: boolean) => (yes ? 'n_unverified > 0' : 'n_unverified = 0'),
};

/**
 * Sets or replaces a turn's vote; affects one row, or none for an unknown turn. Parameters in
 * text order (setFeedbackParams), each used once, so `?` and `$n` placeholders both work.
 */
export function setFeedbackSql(p: (n: number) => string): string {
  return `INSERT INTO turn_feedback (turn_seq, vote, reason, created_at, updated_at)
    SELECT seq, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)} FROM turns WHERE id = ${p(5)}
    ON CONFLICT (turn_seq) DO UPDATE SET vote = excluded.vote, reason = excluded.reason, updated_at = excluded.updated_at`;
}

export function setFeedbackParams(turnId: string, feedback: TurnFeedback): unknown[] {
  return [feedback.vote, feedback.reason ?? null, feedback.at, feedback.at, turnId];
}

// Read by older versions too (lib/retrieval/explain/record/query-codec.ts explains why): fields they do not know are skipped,
// and a number kind added later is kept by name.
const sourcesSchema = z.array(z.object({ page: z.string(), title: z.string(), url: z.string().optional() }));
const mentionSchema = z.object({
  text: z.string(),
  kind: z.string().transform((kind) => kind as NumberMention['kind']),
  value: z.number(),
  unit: z.string(),
});
const numberCheckSchema = z.object({ checked: z.number().int(), unverified: z.array(mentionSchema) });

export function encodeSources(sources: readonly ReplySource[] | undefined): string | null {
  return sources === undefined ? null : JSON.stringify(sources);
}

export function decodeSources(text: string | null | undefined): ReplySource[] | undefined {
  return text === null || text === undefined ? undefined : sourcesSchema.parse(JSON.parse(text));
}

export function encodeNumberCheck(check: NumberCheck | undefined): { number_check: string | null; n_unverified: number | null } {
  return check === undefined ? { number_check: null, n_unverified: null } : { number_check: JSON.stringify(check), n_unverified: check.unverified.length };
}

export function decodeNumberCheck(text: string | null | undefined): NumberCheck | undefined {
  return text === null || text === undefined ? undefined : numberCheckSchema.parse(JSON.parse(text));
}

export function feedbackOf(row: { feedback_vote?: string | null; feedback_reason?: string | null; feedback_at?: string | null }): TurnFeedback | undefined {
  if (!row.feedback_vote) return undefined;
  return { vote: row.feedback_vote as Vote, ...(row.feedback_reason ? { reason: row.feedback_reason } : {}), at: row.feedback_at! };
}

/** The inspector's loop queries, with a store's query function and placeholders. */
export class LoopQueries {
  constructor(
    private readonly query: Query,
    private readonly p: (n: number) => string,
  ) {}

  async feedbackByDay({ since }: { since: string }): Promise<FeedbackDay[]> {
    const day = 'substr(CAST(t.created_at AS text), 1, 10)';
    const rows = await this.query<FeedbackDay>(
      `SELECT ${day} AS day, COUNT(*) AS turns,
              SUM(CASE WHEN f.vote = 'up' THEN 1 ELSE 0 END) AS up,
              SUM(CASE WHEN f.vote = 'down' THEN 1 ELSE 0 END) AS down
       FROM turns t LEFT JOIN turn_feedback f ON f.turn_seq = t.seq
       WHERE t.created_at >= ${this.p(1)}
       GROUP BY ${day} ORDER BY day`,
      [since],
    );
    return rows.map((r) => ({ day: r.day, turns: Number(r.turns), up: Number(r.up), down: Number(r.down) }));
  }

  async downVotedSections(limit: number): Promise<DownVotedSection[]> {
    const rows = await this.query<DownVotedSection>(
      `SELECT r.section_id AS "sectionId", COUNT(*) AS turns
       FROM turn_feedback f
       JOIN turn_sections ts ON ts.turn_seq = f.turn_seq
       JOIN verdict_reasons v ON v.code = ts.reason
       JOIN section_refs r ON r.ref = ts.section_ref
       WHERE f.vote = 'down' AND v.reason = 'scored'
       GROUP BY r.section_id ORDER BY turns DESC, r.section_id LIMIT ${this.p(1)}`,
      [limit],
    );
    return rows.map((r) => ({ sectionId: r.sectionId, turns: Number(r.turns) }));
  }

  async conversationTurns(maxTurns: number): Promise<ConversationTurn[]> {
    const rows = await this.query<{ id: string; conversation_id: string; question: string; floor_used: number; top_score: number; created_at: string }>(
      `SELECT id, conversation_id, question, floor_used, top_score, created_at FROM turns
       WHERE trigger = 'submit-message' AND seq IN (SELECT seq FROM turns ORDER BY seq DESC LIMIT ${this.p(1)})
       ORDER BY conversation_id, seq`,
      [maxTurns],
    );
    return rows.map((r) => ({
      id: r.id,
      conversationId: r.conversation_id,
      question: r.question,
      floorUsed: Number(r.floor_used) === 1,
      topScore: Number(r.top_score),
      createdAt: r.created_at,
    }));
  }

  async recentQuestions(limit: number): Promise<RecentQuestion[]> {
    const rows = await this.query<{ id: string; customer_messages: string }>(
      `SELECT id, customer_messages FROM turns ORDER BY seq DESC LIMIT ${this.p(1)}`,
      [limit],
    );
    return rows.map((r) => ({ turnId: r.id, messages: (JSON.parse(r.customer_messages) as string[]).slice(-2) }));
  }
}
