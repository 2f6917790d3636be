import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { NumberCheck } from '../chat/numbers';
import type { ReplySource } from '../chat/sources';
import type { ConversationTurn, DownVotedSection, FeedbackDay, RecentQuestion } from './inspector';
import type { TurnFeedback, Vote } from './types';

/**
 * The SQL of the support lead's loop (issue 15), in one place so another store can port it:
 * a reply's sources and number check (columns of `turns`), feedback (`turn_feedback`, one row
 * per voted turn), and the inspector's queries over them. Plain tables and columns; JSON as
 * text, validated when read; `CASE WHEN` sums rather than SQLite's boolean arithmetic.
 */

/** Schema version 4 (appended to sqlite.ts MIGRATIONS). */
export const LOOP_MIGRATION = `
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

/** The columns SELECT_TURNS adds for a trace (sqlite.ts). */
export const LOOP_TURN_COLUMNS = 'f.vote AS feedback_vote, f.reason AS feedback_reason, f.updated_at AS feedback_at';
export const LOOP_TURN_JOIN = 'LEFT JOIN turn_feedback f ON f.turn_seq = t.seq';

/** The turns-list columns (inspector.ts summaries): the vote and how many numbers were unverified. */
export const LOOP_SUMMARY_COLUMNS = '(SELECT vote FROM turn_feedback f WHERE f.turn_seq = turns.seq) AS feedback, n_unverified';

/** WHERE clauses of the turns list (inspector.ts). */
export const LOOP_FILTERS = {
  feedback: (vote: Vote | 'any') =>
    vote === 'any' ? 'seq IN (SELECT turn_seq FROM turn_feedback)' : 'seq IN (SELECT turn_seq FROM turn_feedback WHERE vote = @feedback)',
  unverified: (yes: boolean) => (yes ? 'n_unverified > 0' : 'n_unverified = 0'),
};

const sourcesSchema = z.array(z.strictObject({ page: z.string(), title: z.string(), url: z.string().optional() }));
const mentionSchema = z.strictObject({
  text: z.string(),
  kind: z.enum(['price', 'percent', 'duration', 'amount']),
  value: z.number(),
  unit: z.string(),
});
const numberCheckSchema = z.strictObject({ checked: z.number().int(), unverified: z.array(mentionSchema) });

export function encodeSources(sources: readonly ReplySource[] | undefined): string | null {
  return sources === undefined ? null : JSON.stringify(sources);
}

export function decodeSources(text: string | null): ReplySource[] | undefined {
  return text === null ? undefined : sourcesSchema.parse(JSON.parse(text));
}

export function encodeNumberCheck(check: NumberCheck | undefined): { numberCheck: string | null; nUnverified: number | null } {
  return check === undefined ? { numberCheck: null, nUnverified: null } : { numberCheck: JSON.stringify(check), nUnverified: check.unverified.length };
}

export function decodeNumberCheck(text: string | null): NumberCheck | undefined {
  return text === null ? undefined : numberCheckSchema.parse(JSON.parse(text));
}

export function feedbackOf(row: { feedback_vote: string | null; feedback_reason: string | null; feedback_at: string | null }): TurnFeedback | undefined {
  if (row.feedback_vote === null) return undefined;
  return { vote: row.feedback_vote as Vote, ...(row.feedback_reason ? { reason: row.feedback_reason } : {}), at: row.feedback_at! };
}

/** The loop's statements and read queries over one database. */
export class SqliteLoop {
  private readonly sql;

  constructor(private readonly db: Database.Database) {
    this.sql = {
      setFeedback: db.prepare(`
        INSERT INTO turn_feedback (turn_seq, vote, reason, created_at, updated_at)
        SELECT seq, @vote, @reason, @at, @at FROM turns WHERE id = @id
        ON CONFLICT (turn_seq) DO UPDATE SET vote = excluded.vote, reason = excluded.reason, updated_at = excluded.updated_at`),
      feedbackByDay: db.prepare(`
        SELECT substr(t.created_at, 1, 10) AS day, COUNT(*) AS turns,
               SUM(CASE WHEN f.vote = 'up' THEN 1 ELSE 0 END) AS up,
               SUM(CASE WHEN f.vote = 'down' THEN 1 ELSE 0 END) AS down
        FROM turns t LEFT JOIN turn_feedback f ON f.turn_seq = t.seq
        WHERE t.created_at >= @since
        GROUP BY substr(t.created_at, 1, 10) ORDER BY day`),
      downVotedSections: db.prepare(`
        SELECT r.section_id AS sectionId, COUNT(*) AS turns
        FROM turn_feedback f
        JOIN turn_sections ts ON ts.turn_seq = f.turn_seq
        JOIN verdict_reasons v ON v.code = ts.reason
        JOIN section_refs r ON r.ref = ts.section_ref
        WHERE f.vote = 'down' AND v.reason = 'scored'
        GROUP BY r.section_id ORDER BY turns DESC, r.section_id LIMIT @limit`),
      conversationTurns: db.prepare(`
        SELECT id, conversation_id, question, floor_used, top_score, created_at FROM turns
        WHERE trigger = 'submit-message' AND seq IN (SELECT seq FROM turns ORDER BY seq DESC LIMIT @maxTurns)
        ORDER BY conversation_id, seq`),
      recentQuestions: db.prepare('SELECT id, customer_messages FROM turns ORDER BY seq DESC LIMIT @limit'),
    };
  }

  async setFeedback(turnId: string, feedback: TurnFeedback): Promise<boolean> {
    return this.sql.setFeedback.run({ id: turnId, vote: feedback.vote, reason: feedback.reason ?? null, at: feedback.at }).changes === 1;
  }

  async feedbackByDay({ since }: { since: string }): Promise<FeedbackDay[]> {
    return this.sql.feedbackByDay.all({ since }) as FeedbackDay[];
  }

  async downVotedSections(limit: number): Promise<DownVotedSection[]> {
    return this.sql.downVotedSections.all({ limit }) as DownVotedSection[];
  }

  async conversationTurns(maxTurns: number): Promise<ConversationTurn[]> {
    const rows = this.sql.conversationTurns.all({ maxTurns }) as {
      id: string;
      conversation_id: string;
      question: string;
      floor_used: number;
      top_score: number;
      created_at: string;
    }[];
    return rows.map((r) => ({
      id: r.id,
      conversationId: r.conversation_id,
      question: r.question,
      floorUsed: r.floor_used === 1,
      topScore: r.top_score,
      createdAt: r.created_at,
    }));
  }

  async recentQuestions(limit: number): Promise<RecentQuestion[]> {
    const rows = this.sql.recentQuestions.all({ limit }) as { id: string; customer_messages: string }[];
    return rows.map((r) => ({ turnId: r.id, messages: (JSON.parse(r.customer_messages) as string[]).slice(-2) }));
  }
}
