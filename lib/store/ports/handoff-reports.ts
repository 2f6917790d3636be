import type { DeliveryAttempt, DeliveryStatus, HandoffReason, HandoffRecord } from './handoffs';

/** /debug's view of one hand-off: the record, its payload and every attempt, oldest first. */
export interface HandoffDetail extends HandoffRecord {
  payload: string;
  attempts: DeliveryAttempt[];
}

/** One UTC day's conversations (by the day of their first turn) and how many were handed off. */
export interface DeflectionDay {
  /** YYYY-MM-DD */
  day: string;
  /** Conversations with at least one turn that began that day. */
  conversations: number;
  /** Those that have a hand-off. */
  handedOff: number;
}

export interface HandoffSummary extends HandoffRecord {
  /** Attempts over all channels. */
  attempts: number;
  lastError?: string;
}

export interface HandoffList {
  handoffs: HandoffSummary[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
}

/** A section sent because it scored in the turns just before hand-offs. */
export interface SectionBeforeHandoff {
  sectionId: string;
  /** Hand-offs in whose last turns it scored. */
  handoffs: number;
}

/** What /debug reads of hand-offs. */
export interface HandoffReports {
  listHandoffs(filter: { status?: DeliveryStatus }, page: number, pageSize: number): Promise<HandoffList>;
  getHandoff(id: string): Promise<HandoffDetail | undefined>;
  /** Conversations and hand-offs per UTC day, for conversations begun at or after `since` (ISO), oldest day first. */
  deflectionByDay(options: { since: string }): Promise<DeflectionDay[]>;
  /** Hand-offs made at or after `since`, by reason. */
  handoffsByReason(options: { since: string }): Promise<{ reason: HandoffReason; count: number }[]>;
  /** Sections that scored in the last `turnsBefore` turns before each hand-off, most hand-offs first, at most `limit`. */
  sectionsBeforeHandoffs(turnsBefore: number, limit: number): Promise<SectionBeforeHandoff[]>;
}
