import { errorText } from '../errors';
import { retrieveForTurn, type TurnKnowledge, type TurnRetrieval } from '../knowledge/retrieve';
import { expectationByKey, type CheckContext, type Verdict } from './expectations/index';
import { isUnknown, unknownRefMessage, type ResolvedRef, type UnknownRef } from './refs';
import { TurnView } from './turn-view';
import type { CaseResult, Expectation, ExpectationResult, KbTestCase, KbTestReport, KbTestSuite } from './types';

/**
 * Runs the KB's tests: each case is one turn through `retrieveForTurn` — the chat's own
 * retrieval step, semantic stage included when the KB has one — and its expectations read
 * that turn. In process, no model needed: the demo KB's 20 cases take a few milliseconds.
 * Reply expectations need a model (`replier`); without one they are skipped, and
 * `notices` says why, as it does for semantic expectations when the stage is off.
 */

/** Writes a case's reply with a model (reply.ts). */
export interface Replier {
  reply(retrieval: TurnRetrieval, customerMessages: readonly string[]): Promise<string>;
}

export interface RunOptions {
  /** Writes the reply of the cases that have reply expectations; absent: they are skipped. */
  replier?: Replier;
  /** Why there is no replier, for the notice ("run with --with-model"). */
  noReplier?: string;
  /** Why the semantic stage is off, for the notice. */
  noSemantic?: string;
}

export interface TestedKnowledgeBase {
  /** The KB root (absolute). */
  root: string;
  /** Why the server would refuse it (`file:line: reason`), when it would. */
  refusal?: { file: string; line?: number; message: string };
}

/**
 * The unknown references a run looks for the nearest names of: the search compares the
 * reference with every id, page or heading of the KB (about 1.3 ms on the demo KB, more on a
 * larger one). Past these, an unknown reference is named without (and a notice says how many).
 */
export const MAX_SUGGESTED_REFS = 20;

/** What a run has left of the suggestions, and how many unknown references went without. */
interface Suggestions {
  left: number;
  withheld: number;
}

const DEFAULT_NO_REPLIER = 'no model writes replies here: run kb:test --with-model with a model configured (OPENAI_API_KEY)';
const DEFAULT_NO_SEMANTIC = 'the semantic stage is off (EMBEDDING_MODEL is not set)';

export async function runKbTests(knowledge: TurnKnowledge, suite: KbTestSuite, kb: TestedKnowledgeBase, options: RunOptions = {}): Promise<KbTestReport> {
  const started = performance.now();
  const cases: CaseResult[] = kb.refusal ? [refusalCase(kb.refusal)] : [];
  let since = performance.now();
  const suggestions: Suggestions = { left: MAX_SUGGESTED_REFS, withheld: 0 };
  for (const testCase of suite.cases) {
    cases.push(await runCase(knowledge, testCase, options, suggestions));
    // Yield to the event loop every ~8 ms of work: a server running a large suite keeps serving.
    if (performance.now() - since > 8) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
  const expectations = cases.flatMap((c) => c.expectations);
  const skipped = expectations.filter((e) => e.status === 'skipped');
  const notices = [...new Set(skipped.map((e) => e.why[0]!))].map((why) => {
    const count = skipped.filter((e) => e.why[0] === why).length;
    return `${count} expectation${count === 1 ? '' : 's'} skipped: ${why}`;
  });
  if (suggestions.withheld) {
    notices.push(`${suggestions.withheld} more unknown section reference${suggestions.withheld === 1 ? '' : 's'} without "did you mean": the nearest names are looked for the first ${MAX_SUGGESTED_REFS} of a run`);
  }
  return {
    kb: kb.root,
    files: suite.files,
    cases,
    summary: {
      cases: cases.length,
      passed: cases.filter((c) => c.status === 'passed').length,
      failed: cases.filter((c) => c.status === 'failed').length,
      skipped: cases.filter((c) => c.status === 'skipped').length,
      expectations: expectations.length,
      skippedExpectations: skipped.length,
    },
    ...(kb.refusal ? { refusal: kb.refusal.message } : {}),
    notices,
    ms: performance.now() - started,
  };
}

/** The KB would not be served: reported as a failed case of its own, first, so every report format shows it. */
function refusalCase(refusal: NonNullable<TestedKnowledgeBase['refusal']>): CaseResult {
  return {
    file: refusal.file,
    line: refusal.line ?? 1,
    name: 'the server serves this knowledge base with its declared rules',
    question: '',
    history: [],
    status: 'failed',
    expectations: [{ kind: 'served', line: refusal.line ?? 1, status: 'failed', expected: 'the knowledge base loads with every rule it declares', why: [`the server would refuse it: ${refusal.message}`] }],
    sent: { scored: [], floorUsed: false, sources: [] },
    ms: 0,
  };
}

async function runCase(knowledge: TurnKnowledge, testCase: KbTestCase, options: RunOptions, suggestions: Suggestions): Promise<CaseResult> {
  const started = performance.now();
  const messages = [...testCase.history, testCase.question];
  const retrieval = await retrieveForTurn(knowledge, messages);
  const view = new TurnView(retrieval);
  const reply = await replyFor(testCase, retrieval, messages, options);
  const results = testCase.expectations.map((e) => checkExpectation(e, view, knowledge, reply, options, suggestions));
  const status = results.some((r) => r.status === 'failed') ? 'failed' : results.every((r) => r.status === 'skipped') ? 'skipped' : 'passed';
  return {
    file: testCase.file,
    line: testCase.line,
    name: testCase.name,
    question: testCase.question,
    history: testCase.history,
    status,
    expectations: results,
    sent: { scored: view.scored(), floorUsed: retrieval.selection.floorUsed, sources: retrieval.sources.map((s) => s.page) },
    ...(reply?.text !== undefined ? { reply: reply.text } : {}),
    ms: performance.now() - started,
  };
}

/** The model's reply, when the case has reply expectations and a replier is given (an error is kept: those expectations fail with it). */
async function replyFor(testCase: KbTestCase, retrieval: TurnRetrieval, messages: string[], options: RunOptions): Promise<{ text?: string; error?: string } | undefined> {
  if (!options.replier || !testCase.expectations.some((e) => expectationByKey.get(e.kind)!.needs === 'reply')) return undefined;
  try {
    return { text: await options.replier.reply(retrieval, messages) };
  } catch (error) {
    return { error: errorText(error) };
  }
}

function checkExpectation(
  e: Expectation,
  view: TurnView,
  knowledge: TurnKnowledge,
  reply: { text?: string; error?: string } | undefined,
  options: RunOptions,
  suggestions: Suggestions,
): ExpectationResult {
  const kind = expectationByKey.get(e.kind)!;
  const base = { kind: e.kind, line: e.line, expected: kind.expected(e.value as never) };
  const result = (verdict: Verdict): ExpectationResult => ({ ...base, status: verdict.ok ? 'passed' : 'failed', why: verdict.ok ? [] : verdict.why });
  if (kind.needs === 'reply' && !reply) return { ...base, status: 'skipped', why: [`reply expectations: ${options.noReplier ?? DEFAULT_NO_REPLIER}`] };
  if (kind.needs === 'reply' && reply?.error !== undefined) return result({ ok: false, why: [`the model failed: ${reply.error}`] });
  if (kind.needs === 'semantic' && !view.retrieval.selection.semantic) return { ...base, status: 'skipped', why: [`semantic expectations: ${options.noSemantic ?? DEFAULT_NO_SEMANTIC}`] };
  const resolved = new Map<string, ResolvedRef>();
  const unknown: string[] = [];
  for (const ref of kind.refs?.(e.value as never) ?? []) {
    const suggest = suggestions.left > 0;
    const r = view.resolve(ref, suggest);
    if (!isUnknown(r)) {
      resolved.set(ref, r);
      continue;
    }
    if (suggest) suggestions.left--;
    else suggestions.withheld++;
    unknown.push(...unknownRefLines(r, view));
  }
  if (unknown.length) return result({ ok: false, why: [...unknown, view.sentSummary()] });
  const context: CheckContext = { view, ref: (ref) => resolved.get(ref)!, pages: knowledge.pages, ...(reply?.text !== undefined ? { reply: reply.text } : {}) };
  return result(kind.check(e.value as never, context));
}

/** Why a reference names nothing, and what the selector did with the nearest one that does (a renamed heading is then plain to see). */
function unknownRefLines(unknown: UnknownRef, view: TurnView): string[] {
  const nearest = unknown.suggestions[0] === undefined ? undefined : view.resolve(unknown.suggestions[0]);
  return [unknownRefMessage(unknown), ...(nearest && !isUnknown(nearest) ? [`the nearest, ${view.describe(nearest)}`] : [])];
}
