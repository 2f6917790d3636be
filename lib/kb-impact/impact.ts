import { formatPercent } from '../format';
import { retrieveForTurn, type TurnKnowledge } from '../knowledge/retrieve';
import { budgetHealth, headingPath, type RetrievalIndex } from '../retrieval/index';

/**
 * What a KB edit would change: the same questions asked of the base KB and of the edited
 * (working) KB, through a turn's retrieval (lib/knowledge/retrieve.ts), and what each would
 * send. Pure: both KBs and the questions come in (scripts/kb-impact.mts reads them from
 * folders, git and the trace store; /debug/health runs it when the server reloads an edited KB).
 * BM25's side of the turn only: no query embeddings (500 questions would be 1,000 calls to the
 * embedding model), so a KB whose semantic stage is on is compared on its lexical ranking.
 *
 * Per question: sections gained and lost (sent in one and not the other, by section id), a
 * question that would newly take the floor, and any pinned rule that would stop being sent
 * (a section pinned in the base, and sent there, that the working KB no longer sends: unpinned
 * and outscored, renamed or deleted). A lost rule is the one outcome that fails the check.
 */

export interface ImpactQuestion {
  /** The customer messages the selector reads, oldest first: the last is the question. */
  messages: string[];
  /** The recorded turn it came from, if any. */
  turnId?: string;
}

export interface QuestionImpact {
  question: string;
  previous?: string;
  turnId?: string;
  gained: string[];
  lost: string[];
  newlyFloor: boolean;
  /** Pinned sections of the base sent for this question that the working KB does not send. */
  lostRules: string[];
}

export interface SectionChange {
  sectionId: string;
  /** "Parent › Title", from whichever KB has the section. */
  path: string;
  /** Questions that would now send it / no longer send it. */
  gained: number;
  lost: number;
}

export interface LostRule {
  sectionId: string;
  path: string;
  questions: string[];
}

export interface ImpactReport {
  questions: number;
  /** Questions whose sent sections change, or that newly take the floor. */
  changed: QuestionImpact[];
  sections: SectionChange[];
  newlyFloor: number;
  lostRules: LostRule[];
  coverage: { base: number; work: number };
  pinnedShare: { base: number; work: number };
}

function pathOf(id: string, ...indexes: RetrievalIndex[]): string {
  for (const index of indexes) {
    const section = index.sections.find((s) => s.id === id);
    if (section) return headingPath(section);
  }
  return id;
}

type ImpactKnowledge = Omit<TurnKnowledge, 'embeddings'>;

async function questionImpact(base: ImpactKnowledge, work: ImpactKnowledge, question: ImpactQuestion): Promise<QuestionImpact> {
  const before = (await retrieveForTurn(base, question.messages)).selection;
  const after = (await retrieveForTurn(work, question.messages)).selection;
  const sentBefore = new Set(before.sentIds);
  const sentAfter = new Set(after.sentIds);
  const pinnedBefore = new Set(base.index.pinned.map((s) => s.id));
  return {
    question: question.messages.at(-1) ?? '',
    ...(question.messages.length > 1 ? { previous: question.messages.at(-2) } : {}),
    ...(question.turnId ? { turnId: question.turnId } : {}),
    gained: after.sentIds.filter((id) => !sentBefore.has(id)),
    lost: before.sentIds.filter((id) => !sentAfter.has(id)),
    newlyFloor: after.floorUsed && !before.floorUsed,
    lostRules: before.sentIds.filter((id) => pinnedBefore.has(id) && !sentAfter.has(id)),
  };
}

/** The impact of going from `base` to `work`, over `questions` (asked once each: duplicates are dropped). */
export async function kbImpact(baseKb: ImpactKnowledge, workKb: ImpactKnowledge, questions: readonly ImpactQuestion[]): Promise<ImpactReport> {
  const base = { index: baseKb.index, instructions: baseKb.instructions, pages: baseKb.pages };
  const work = { index: workKb.index, instructions: workKb.instructions, pages: workKb.pages };
  const seen = new Set<string>();
  const unique = questions.filter((q) => {
    const key = JSON.stringify(q.messages);
    if (q.messages.length === 0 || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const impacts: QuestionImpact[] = [];
  for (const q of unique) impacts.push(await questionImpact(base, work, q));
  const [healthBefore, healthAfter] = [budgetHealth(base.index), budgetHealth(work.index)];
  const changed = impacts.filter((i) => i.gained.length || i.lost.length || i.newlyFloor);
  return {
    questions: unique.length,
    changed,
    ...tally(changed, { section: (id) => pathOf(id, work.index, base.index), rule: (id) => pathOf(id, base.index) }),
    coverage: { base: healthBefore.coverage, work: healthAfter.coverage },
    pinnedShare: { base: healthBefore.pinnedShare, work: healthAfter.pinnedShare },
  };
}

/** What the changed questions add up to: the sections each gained and lost (most changed first), the questions that newly take the floor, the pinned rules lost. */
function tally(changed: readonly QuestionImpact[], paths: { section(id: string): string; rule(id: string): string }): Pick<ImpactReport, 'sections' | 'newlyFloor' | 'lostRules'> {
  const sections = new Map<string, SectionChange>();
  const rules = new Map<string, LostRule>();
  for (const impact of changed) {
    const change = (id: string) => sections.get(id) ?? sections.set(id, { sectionId: id, path: paths.section(id), gained: 0, lost: 0 }).get(id)!;
    for (const id of impact.gained) change(id).gained++;
    for (const id of impact.lost) change(id).lost++;
    for (const id of impact.lostRules) {
      const rule = rules.get(id) ?? rules.set(id, { sectionId: id, path: paths.rule(id), questions: [] }).get(id)!;
      rule.questions.push(impact.question);
    }
  }
  return {
    sections: [...sections.values()].sort((a, b) => b.gained + b.lost - (a.gained + a.lost) || a.sectionId.localeCompare(b.sectionId)),
    newlyFloor: changed.filter((i) => i.newlyFloor).length,
    lostRules: [...rules.values()],
  };
}

/**
 * The report without the questions of turns no longer recorded (deleted on request, or by
 * retention): their per-question results go, and the section and lost-rule tallies are counted
 * again from the questions left. `questions` (how many were asked), coverage and the pinned
 * share are of the KBs, and stay.
 */
export function withoutTurns(report: ImpactReport, kept: (turnId: string) => boolean): ImpactReport {
  const changed = report.changed.filter((q) => q.turnId === undefined || kept(q.turnId));
  if (changed.length === report.changed.length) return report;
  const sectionPaths = new Map(report.sections.map((s) => [s.sectionId, s.path]));
  const rulePaths = new Map(report.lostRules.map((r) => [r.sectionId, r.path]));
  return {
    ...report,
    changed,
    ...tally(changed, { section: (id) => sectionPaths.get(id) ?? id, rule: (id) => rulePaths.get(id) ?? id }),
  };
}

/** A share's change as shown ("9.0% → 8.7%"), or undefined when it rounds to no change. */
export function shareChange(share: { base: number; work: number }): string | undefined {
  const [before, after] = [formatPercent(share.base, 1), formatPercent(share.work, 1)];
  return before === after ? undefined : `${before} → ${after}`;
}

/** True when the edit changes nothing a question would send, and neither coverage nor the pinned share (to 0.1 points). */
export function noChange(report: ImpactReport): boolean {
  return report.changed.length === 0 && report.lostRules.length === 0 && !shareChange(report.coverage) && !shareChange(report.pinnedShare);
}

const quoted = (text: string) => `"${text.length > 80 ? `${text.slice(0, 79)}…` : text}"`;

/** The report as text, for the CLI. */
export function formatImpact(report: ImpactReport): string {
  const lines: string[] = [`${report.questions} question${report.questions === 1 ? '' : 's'} asked of the base and the working KB.`];
  if (noChange(report)) return [...lines, 'No change: every question sends the same sections; coverage and pinned share are the same.'].join('\n');
  for (const rule of report.lostRules) {
    lines.push(`LOST RULE: ${rule.path} [${rule.sectionId}] is no longer sent for ${rule.questions.length} question${rule.questions.length === 1 ? '' : 's'}:`);
    for (const q of rule.questions) lines.push(`  - ${quoted(q)}`);
  }
  lines.push(`${report.changed.length} question${report.changed.length === 1 ? '' : 's'} would send different sections; ${report.newlyFloor} would newly take the floor.`);
  const coverage = shareChange(report.coverage);
  const pinned = shareChange(report.pinnedShare);
  lines.push(`coverage: ${coverage ?? `unchanged (${formatPercent(report.coverage.work, 1)})`}; pinned share: ${pinned ?? `unchanged (${formatPercent(report.pinnedShare.work, 1)})`}`);
  if (report.sections.length) {
    lines.push('', 'sections (questions that would now send / no longer send it):');
    for (const s of report.sections.slice(0, 30)) lines.push(`  +${s.gained} −${s.lost}  ${s.path} [${s.sectionId}]`);
  }
  if (report.changed.length) {
    lines.push('', 'questions:');
    for (const q of report.changed.slice(0, 50)) {
      const parts = [...q.gained.map((id) => `+${id}`), ...q.lost.map((id) => `−${id}`), ...(q.newlyFloor ? ['now takes the floor'] : [])];
      lines.push(`  ${quoted(q.question)}: ${parts.join(', ')}`);
    }
  }
  return lines.join('\n');
}
