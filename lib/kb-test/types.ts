/** What the KB's tests are (tests/*.yaml, parsed by parse.ts) and what running them reports (run.ts). */

/** One expectation of a case, as written: its kind (the key under `expect:`), its value, its line. */
export interface Expectation {
  /** The kind's key: `sends`, `top`, `reply.mentions`, … (expectations/index.ts). */
  kind: string;
  value: unknown;
  line: number;
}

/** One case of a test file. */
export interface KbTestCase {
  /** The test file, relative to the KB root (`tests/refunds.yaml`). */
  file: string;
  /** 1-based line of the case in its file. */
  line: number;
  name: string;
  /** The customer's question: the latest message. */
  question: string;
  /** Earlier customer messages, oldest first (the query reads the last two messages, as in the chat). */
  history: string[];
  expectations: Expectation[];
}

export interface KbTestSuite {
  /** The test files read, relative to the KB root, in path order. */
  files: string[];
  cases: KbTestCase[];
}

/** A test file that cannot be used as written: `message` is `file:line: reason`. */
export class KbTestFileError extends Error {
  override readonly name = 'KbTestFileError';
  constructor(
    readonly reason: string,
    readonly file: string,
    readonly line?: number,
  ) {
    super(`${line === undefined ? file : `${file}:${line}`}: ${reason}`);
  }
}

export type ExpectationStatus = 'passed' | 'failed' | 'skipped';

export interface ExpectationResult {
  kind: string;
  line: number;
  status: ExpectationStatus;
  /** What was expected, in words ("sends Refund policy › Refund timelines"). */
  expected: string;
  /** For a failure, why: what the selector did with the sections named (rank, score, verdict); for a skip, the reason. */
  why: string[];
}

export type CaseStatus = 'passed' | 'failed' | 'skipped';

export interface CaseResult {
  file: string;
  line: number;
  name: string;
  question: string;
  history: string[];
  /** Failed when any expectation failed; skipped when every expectation was skipped. */
  status: CaseStatus;
  expectations: ExpectationResult[];
  /** What the turn sent: the scored sections (heading paths, rank order), whether the floor filled in, the reply's sources. */
  sent: { scored: string[]; floorUsed: boolean; sources: string[] };
  /** The reply, when a model wrote one (--with-model). */
  reply?: string;
  ms: number;
}

export interface KbTestReport {
  /** The KB root (absolute). */
  kb: string;
  files: string[];
  cases: CaseResult[];
  summary: { cases: number; passed: number; failed: number; skipped: number; expectations: number; skippedExpectations: number };
  /** Why the server would refuse this KB (declared rules missing: kb:check's `rules-not-served`), `file:line: reason`. */
  refusal?: string;
  /** Expectations skipped, by why (one line each): reply expectations without a model, the semantic stage off. */
  notices: string[];
  ms: number;
}
