import { countTokens } from '../retrieval/index';
import type { TurnTrace } from '../store/ports/turns';

/** Tokens of the whole request, split by where they came from. */
export interface RequestSplit {
  instructions: number;
  pinned: number;
  scored: number;
  floor: number;
  history: number;
  question: number;
}

/**
 * The token split of a turn's whole request: the system prompt's own instructions (all of it
 * minus the knowledge), the knowledge parts from the explanation, earlier messages of the
 * conversation as sent with the request, and the question. o200k_base counts; the
 * provider's own count (with message framing) is shown beside it as reported usage.
 */
export function requestSplit(trace: TurnTrace, history: string[]): RequestSplit {
  const { tokens } = trace.explanation;
  return {
    instructions: Math.max(0, countTokens(trace.systemPrompt) - tokens.total),
    pinned: tokens.pinned,
    scored: tokens.scored,
    floor: tokens.floor,
    history: history.reduce((sum, text) => sum + countTokens(text), 0),
    question: countTokens(trace.question),
  };
}
