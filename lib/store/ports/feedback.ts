export type Vote = 'up' | 'down';

/** A visitor's vote on a reply: one per turn, changeable. */
export interface TurnFeedback {
  vote: Vote;
  /** An optional short reason, as typed. */
  reason?: string;
  /** ISO 8601 time of the last change. */
  at: string;
}

/** Votes on replies (POST /api/feedback). */
export interface FeedbackStore {
  /**
   * Sets (or replaces) the feedback on a turn. False if there is no turn `turnId`. Whose turn
   * it is, is the caller's check (app/api/feedback: the visitor's own replies only).
   */
  setFeedback(turnId: string, feedback: TurnFeedback): Promise<boolean>;
}
