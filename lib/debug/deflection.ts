import type { DeflectionDay } from '../store/ports/handoff-reports';

/**
 * The deflection rate: the share of conversations the bot resolved without passing them to a
 * person — conversations (with at least one turn) that have no hand-off, over all of them — per
 * UTC day of each conversation's first turn, and over the whole period. A conversation still
 * going on counts as deflected until it is handed off. A day without conversations has no rate.
 */

export interface DeflectionDayRate extends DeflectionDay {
  deflected: number;
  /** deflected / conversations, 0–1. */
  rate: number;
}

export interface DeflectionSummary {
  days: DeflectionDayRate[];
  conversations: number;
  handedOff: number;
  deflected: number;
  /** Over the whole period; undefined without conversations. */
  rate: number | undefined;
}

export function deflectionSummary(days: readonly DeflectionDay[]): DeflectionSummary {
  const rated = days
    .filter((d) => d.conversations > 0)
    .map((d) => ({ ...d, deflected: d.conversations - d.handedOff, rate: (d.conversations - d.handedOff) / d.conversations }));
  const conversations = rated.reduce((sum, d) => sum + d.conversations, 0);
  const handedOff = rated.reduce((sum, d) => sum + d.handedOff, 0);
  return { days: rated, conversations, handedOff, deflected: conversations - handedOff, rate: conversations ? (conversations - handedOff) / conversations : undefined };
}
