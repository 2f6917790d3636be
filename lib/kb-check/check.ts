import { CHECKS } from './checks/index';
import type { SummaryCounts } from './checks/types';
import { createCheckContext, type CheckableKnowledgeBase, type CheckContext, type CheckOptions } from './context';
import type { CheckReport, CheckSummary, Finding, FindingKind } from './types';

/**
 * kb:check — everything about a knowledge base that makes the selector send the wrong
 * thing, found before a customer does: rules that are not pinned (and whether they are
 * sent when they apply), content that can never be sent, a pinned block that squeezes
 * out the rest, numbers that contradict the pinned ones, and synonym groups that cannot
 * work. Pure: reads only the KB it is given (and its files, for line numbers).
 *
 * The checks are modules in `./checks`, listed in `./checks/index.ts`; they share one
 * `CheckContext` (`./context.ts`).
 */

export type { CheckableKnowledgeBase, CheckOptions } from './context';
export { UNPIN_MIN_TOKENS } from './checks/unpin-candidates';

const KIND_ORDER: FindingKind[] = CHECKS.flatMap((check) => check.kinds);
const LEVEL_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** Runs every check. Never throws for a KB that loaded; a pinned block over the budget is a finding. */
export function checkKnowledgeBase(kb: CheckableKnowledgeBase, options: CheckOptions = {}): CheckReport {
  const context = createCheckContext(kb, options);
  const findings: Finding[] = [];
  const totals: SummaryTotals = { rules: { found: 0, notSent: 0, coveredByPinned: 0 }, factsCompared: 0, skipped: [] };
  for (const check of CHECKS) {
    const result = check.run(context);
    findings.push(...result.findings);
    if (result.summary) addCounts(totals, result.summary);
  }
  findings.sort(inReportOrder);
  return { kb: kb.root ?? '(in memory)', findings, summary: summarize(context, findings, totals) };
}

function inReportOrder(a: Finding, b: Finding): number {
  return (
    KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
    LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] ||
    a.file.localeCompare(b.file) ||
    (a.line ?? 0) - (b.line ?? 0)
  );
}

/** The summary fields the checks count, added up over all of them. */
type SummaryTotals = Pick<CheckSummary, 'rules' | 'factsCompared' | 'skipped'>;

function addCounts(totals: SummaryTotals, part: SummaryCounts): void {
  totals.rules.found += part.rules?.found ?? 0;
  totals.rules.notSent += part.rules?.notSent ?? 0;
  totals.rules.coveredByPinned += part.rules?.coveredByPinned ?? 0;
  totals.factsCompared += part.factsCompared ?? 0;
  totals.skipped.push(...(part.skipped ?? []));
}

function summarize(context: CheckContext, findings: Finding[], totals: SummaryTotals): CheckSummary {
  const { kb, config, pinnedSections, pinnedTokens, pinnedShare } = context;
  const count = (level: Finding['level']) => findings.filter((f) => f.level === level).length;
  const errors = count('error');
  return {
    ok: errors === 0,
    errors,
    warnings: count('warning'),
    infos: count('info'),
    sections: kb.sections.length,
    pinnedSections: pinnedSections.length,
    kbTokens: kb.sections.reduce((n, s) => n + s.tokens, 0),
    budget: config.budget,
    pinnedTokens,
    pinnedShare,
    rules: totals.rules,
    factsCompared: totals.factsCompared,
    skipped: totals.skipped,
  };
}
