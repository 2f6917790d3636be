import type { CaseResult, KbTestReport } from './types';

/**
 * kb:test's text report: one line per case (✓ / ✗ / –), and under each failure the question,
 * each failed expectation with its line and why (the selector's own verdicts), then the
 * notices and one closing line: "kb:test: 19 passed, 1 failed".
 */

const quote = (text: string) => JSON.stringify(text);

function caseLines(c: CaseResult): string[] {
  const mark = c.status === 'passed' ? '✓' : c.status === 'failed' ? '✗' : '–';
  const lines = [`${mark} ${c.file}:${c.line}  ${c.name}`];
  if (c.status !== 'failed') return lines;
  if (c.question) lines.push(`    question: ${quote(c.question)}${c.history.length ? `, after ${c.history.map(quote).join(', ')}` : ''}`);
  for (const e of c.expectations.filter((x) => x.status === 'failed')) {
    lines.push(`    ✗ ${e.expected}  (${c.file}:${e.line})`);
    for (const why of e.why) lines.push(`        ${why}`);
  }
  return lines;
}

export function formatKbTestReport(report: KbTestReport, kbLabel: string): string {
  const { summary } = report;
  const head = `kb:test ${kbLabel}: ${summary.cases} case${summary.cases === 1 ? '' : 's'} in ${report.files.length} file${report.files.length === 1 ? '' : 's'}`;
  const body = report.cases.flatMap(caseLines);
  const perCase = summary.cases ? ` (${(report.ms / summary.cases).toFixed(2)} ms per case)` : '';
  const tail = [
    ...(report.files.length ? [] : [`note: no tests: add cases to ${kbLabel}/tests/*.yaml (docs/kb-tests.md)`]),
    ...report.notices.map((n) => `note: ${n}`),
    `${summary.failed ? 'FAILED' : 'ok'}: ${summary.passed} of ${summary.cases} cases pass in ${report.ms.toFixed(1)} ms${perCase}`,
    `kb:test: ${summary.passed} passed, ${summary.failed} failed${summary.skipped ? `, ${summary.skipped} skipped` : ''}`,
  ];
  return [head, '', ...(body.length ? [...body, ''] : []), ...tail].join('\n');
}
