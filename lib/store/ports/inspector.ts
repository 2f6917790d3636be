import type { RedactionCounts } from '../../privacy/redact';
import type { Vote } from './feedback';
import type { TurnStatus } from './turns';

/**
 * What /debug reads of the store: the InspectorStore port and the shapes of its answers (the
 * SQL behind them: lib/store/inspector.ts, loop-sql.ts).
 */

export interface TurnFilter {
  /** Words the customer's question must contain (full-text, prefix match). */
  text?: string;
  status?: TurnStatus;
  floorUsed?: boolean;
  conversationId?: string;
  /** Only turns in which this section was sent / dropped (over budget) / either. */
  section?: { id: string; state: 'sent' | 'dropped' | 'any' };
  /** Only turns voted up / down / either way. */
  feedback?: Vote | 'any';
  /** Only turns whose reply states numbers the sent knowledge does not (true), or only checked turns with none (false). */
  unverifiedNumbers?: boolean;
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
  feedback: Vote | null;
  /** Numbers the reply states that the sent knowledge does not; null until the turn ended. */
  unverifiedNumbers: number | null;
  /** Personal data replaced in the turn's messages and reply before they were stored (TRACE_REDACT); null when none. */
  redacted: RedactionCounts | null;
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

/** One day's votes (UTC day of the turn). */
export interface FeedbackDay {
  /** YYYY-MM-DD */
  day: string;
  turns: number;
  up: number;
  down: number;
}

/** A section sent because it scored in down-voted turns. */
export interface DownVotedSection {
  sectionId: string;
  /** Down-voted turns it scored in. */
  turns: number;
}

/** A customer question in its conversation: what rephrasings are found in (lib/debug/rephrase.ts). */
export interface ConversationTurn {
  id: string;
  conversationId: string;
  question: string;
  floorUsed: boolean;
  topScore: number;
  createdAt: string;
}

/** A recorded question with the customer message before it: what kb:impact asks again. */
export interface RecentQuestion {
  turnId: string;
  /** The last two customer messages, oldest first (the selector's query). */
  messages: string[];
}

/** How many of the newest turns were in one customer language. */
export interface LanguageCount {
  /** The customer's language as the turn took it; `unrecorded` for turns stored before languages. */
  language: string;
  turns: number;
}

export interface InspectorStore {
  /** Turns per customer language among the newest `maxTurns` turns, most first. */
  turnLanguages(maxTurns: number): Promise<LanguageCount[]>;
  listTurns(filter: TurnFilter, page: number, pageSize: number): Promise<TurnPage>;
  countTurns(): Promise<number>;
  /** When the oldest recorded turn was made (ISO 8601), or undefined with no turns: what retention has kept. */
  oldestTurnAt(): Promise<string | undefined>;
  /** Per-section counts over all recorded turns (sections never matched are absent). */
  sectionTraffic(): Promise<SectionTraffic[]>;
  /** Turns where the floor filled in or the best score was below `lowScore` (default 2), newest first, at most `maxTurns` (5000). */
  thinMatchTurns(options?: { lowScore?: number; maxTurns?: number }): Promise<ThinMatchTurn[]>;
  /** The newest `limit` turns' best scores and floor use, newest first. */
  recentTurnScores(limit: number): Promise<RecentTurnScore[]>;
  /** Turns and votes per UTC day, for turns created at or after `since` (ISO), oldest day first. */
  feedbackByDay(options: { since: string }): Promise<FeedbackDay[]>;
  /** Sections sent because they scored (not pinned, not floor) in down-voted turns, most often first, at most `limit`. */
  downVotedSections(limit: number): Promise<DownVotedSection[]>;
  /** The customer questions (submit-message turns) among the newest `maxTurns` turns, by conversation, oldest first in each. */
  conversationTurns(maxTurns: number): Promise<ConversationTurn[]>;
  /** The newest `limit` turns' last two customer messages, newest first. */
  recentQuestions(limit: number): Promise<RecentQuestion[]>;
  /** Those of these turn ids that are still recorded (not deleted on request or by retention). */
  keptTurnIds(ids: readonly string[]): Promise<Set<string>>;
}
