import type { RecentTurnScore } from '../store/ports/inspector';

/**
 * "When to consider the semantic stage" (/debug/health): how often recent questions found
 * little in the KB by their words — the floor filled in, or the best BM25 score was low — with
 * examples to read. A high share is a reason to look, not proof: vague openers and off-topic
 * questions take the floor too (the semantic stage cannot help those), and a paraphrase the
 * KB answers in other words is what it can help (synonyms.json first: see the vocabulary gaps).
 * Pure: the turns come from the InspectorStore.
 */

/** The best BM25 score under which a turn counts as scoring low (the vocabulary gaps use the same). */
export const LOW_SCORE = 2;
/** How many recent turns are read. */
export const RECENT_TURNS = 200;
/** Share of thin turns from which the panel suggests a look at the semantic stage. */
export const CONSIDER_SHARE = 0.2;

export interface ThinTurnExample {
  id: string;
  question: string;
  createdAt: string;
  /** `floor`: the floor filled in; `low`: matched, but the best score was under LOW_SCORE. */
  why: 'floor' | 'low';
  topScore: number;
  /** Thin turns with the same question (this one is the newest). */
  count: number;
}

export interface SemanticAdvice {
  /** Turns read (the most recent, at most RECENT_TURNS). */
  turns: number;
  floor: number;
  /** Matched without the floor, but with a best score under LOW_SCORE. */
  low: number;
  /** (floor + low) / turns; 0 without turns. */
  share: number;
  /** True when the share is at least CONSIDER_SHARE. */
  consider: boolean;
  /** The newest thin turns, one per question, at most `examples`. */
  examples: ThinTurnExample[];
}

export function semanticAdvice(recent: readonly RecentTurnScore[], examples = 8): SemanticAdvice {
  const thin = recent.flatMap((t): ThinTurnExample[] => {
    const why = t.floorUsed ? 'floor' : t.topScore < LOW_SCORE ? 'low' : undefined;
    return why ? [{ id: t.id, question: t.question, createdAt: t.createdAt, why, topScore: t.topScore, count: 1 }] : [];
  });
  const byQuestion = new Map<string, ThinTurnExample>();
  for (const t of thin) {
    const seen = byQuestion.get(t.question);
    if (seen) seen.count++;
    else byQuestion.set(t.question, { ...t });
  }
  const floor = thin.filter((t) => t.why === 'floor').length;
  const share = recent.length ? thin.length / recent.length : 0;
  return { turns: recent.length, floor, low: thin.length - floor, share, consider: share >= CONSIDER_SHARE, examples: [...byQuestion.values()].slice(0, examples) };
}
