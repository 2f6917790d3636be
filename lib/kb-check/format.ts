import { describeResult } from './questions';
import type { CheckReport, Finding, FindingKind, QuestionResult } from './types';

/** kb:check's terminal output: findings grouped by kind, each with file:line. */

export const KIND_TITLES: Record<FindingKind, string> = {
  'rules-not-served': 'Rules the server would not serve',
  'folder-repeated': 'Folders reached again through a link',
  'file-skipped': 'Files left out of the knowledge base (broken)',
  'heading-collision': 'Sections with the same heading path in one file',
  'identity-missing': 'Assistant identity (assistant.md)',
  'heading-skipped': 'Headings and files with nothing to send',
  'containers': 'Headings that only group other headings',
  'section-split': 'Long sections sent as parts',
  'section-repeated': 'Sections another file repeats word for word',
  'rule-not-sent': 'Rules that are not sent when they apply',
  'unpinned-rule': 'Unpinned rules',
  'section-too-large': 'Sections larger than the budget left after the pinned block',
  'section-no-words': 'Sections with no indexable words',
  'section-not-sent-for-title': 'Sections not sent even for their own title',
  'pinned-budget': 'Pinned budget',
  'unpin-candidate': 'Pinned sections that read as reference material (candidates to unpin)',
  'facts-disagree': 'Facts that disagree with the pinned ones',
  'synonyms-unused': 'Synonym groups that never match the knowledge base',
  'synonyms-duplicate': 'Duplicate synonyms',
  'language-mismatch': 'Files in another language than declared',
  'section-language-mismatch': 'Sections in another language than their file',
  'language-unsupported': 'Sections in a language without an analyzer',
};

const n = (x: number) => x.toLocaleString('en-US');
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function where(f: Finding): string {
  return f.line === undefined ? f.file : `${f.file}:${f.line}`;
}

function questionLine(r: QuestionResult): string {
  return `${r.sent ? '✓' : '✗'} "${r.question}" → ${describeResult(r)}`;
}

export function formatReport(report: CheckReport, kbLabel = report.kb): string {
  const { summary: s } = report;
  const lines: string[] = [];
  lines.push(
    `kb:check ${kbLabel} — ${n(s.sections)} sections (${s.pinnedSections} pinned), ${n(s.kbTokens)} tokens; ` +
      `budget ${n(s.budget)}, pinned ${n(s.pinnedTokens)} (${(s.pinnedShare * 100).toFixed(1)}%)`,
  );
  const kinds = [...new Set(report.findings.map((f) => f.kind))];
  for (const kind of kinds) {
    const group = report.findings.filter((f) => f.kind === kind);
    lines.push('', `${KIND_TITLES[kind]} (${group.length})`);
    for (const f of group) {
      lines.push(`  ${f.level.padEnd(7)} ${where(f)}  ${f.message}`);
      const questions = f.details?.questions as QuestionResult[] | undefined;
      if (Array.isArray(questions)) for (const q of questions) lines.push(`          ${questionLine(q)}`);
      if (f.suggestion) lines.push(`          fix: ${f.suggestion}`);
    }
  }
  lines.push('');
  lines.push(
    `rules: ${s.rules.found} unpinned rule sentence(s) found, ${s.rules.notSent} not sent when they apply, ${s.rules.coveredByPinned} repeating a pinned rule; ` +
      `facts: ${s.factsCompared} number(s) compared with the pinned ones`,
  );
  if (s.skipped.length) lines.push(`skipped: ${s.skipped.join(', ')}`);
  const counts = `${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${s.infos} info`;
  lines.push(s.ok ? `✓ passed: ${counts}` : `✗ failed: ${counts}`);
  return lines.join('\n');
}
