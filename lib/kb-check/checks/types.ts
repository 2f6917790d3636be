import type { CheckContext } from '../context';
import type { CheckSummary, Finding, FindingKind } from '../types';

/**
 * One check of `kb:check`: a module in this folder, listed once in `./index.ts`.
 * `run` reads the shared context and returns what it found; it changes nothing.
 */
export interface Check {
  /** Stable name of the check (the module's file name). */
  id: string;
  /** The finding kinds it reports, in report order; no other check reports them. */
  kinds: FindingKind[];
  run(context: CheckContext): CheckResult;
}

export interface CheckResult {
  findings: Finding[];
  /** This check's share of the report summary's counters; `checkKnowledgeBase` adds them up. */
  summary?: SummaryCounts;
}

/** The summary fields checks contribute to: numbers are added, `skipped` is concatenated. */
export interface SummaryCounts {
  rules?: Partial<CheckSummary['rules']>;
  factsCompared?: number;
  /** Names of the parts of a check that could not run. */
  skipped?: string[];
}
