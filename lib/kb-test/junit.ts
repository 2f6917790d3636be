import type { CaseResult, KbTestReport } from './types';

/**
 * The report as JUnit XML (`kb:test --junit FILE`), the format CI systems read: one
 * `<testsuite>` per test file, one `<testcase>` per case (`classname` the file, `file` and
 * `line` attributes), a failed case's `<failure>` holding each failed expectation and why, a
 * case whose expectations were all skipped `<skipped>`. Checked with a real JUnit parser
 * (junit.test.ts).
 */

const escapeXml = (text: string) =>
  text
    // Characters XML 1.0 cannot hold at all.
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const seconds = (ms: number) => (ms / 1000).toFixed(6);

function failureText(c: CaseResult): string {
  return c.expectations
    .filter((e) => e.status === 'failed')
    .map((e) => [`✗ ${e.expected} (${c.file}:${e.line})`, ...e.why.map((w) => `    ${w}`)].join('\n'))
    .join('\n');
}

function testcase(c: CaseResult): string {
  const attributes = `name="${escapeXml(c.name)}" classname="${escapeXml(c.file)}" file="${escapeXml(c.file)}" line="${c.line}" time="${seconds(c.ms)}"`;
  if (c.status === 'passed') return `    <testcase ${attributes}/>`;
  if (c.status === 'skipped') return `    <testcase ${attributes}>\n      <skipped message="${escapeXml(c.expectations[0]?.why[0] ?? 'skipped')}"/>\n    </testcase>`;
  const first = c.expectations.find((e) => e.status === 'failed')!;
  const message = `${first.expected}: ${first.why[0] ?? ''}`;
  return `    <testcase ${attributes}>\n      <failure message="${escapeXml(message)}" type="${escapeXml(first.kind)}">${escapeXml(failureText(c))}</failure>\n    </testcase>`;
}

export function junitXml(report: KbTestReport, timestamp = new Date()): string {
  const byFile = new Map<string, CaseResult[]>();
  for (const c of report.cases) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  const count = (cases: CaseResult[], status: CaseResult['status']) => cases.filter((c) => c.status === status).length;
  const suites = [...byFile].map(([file, cases]) => {
    const time = cases.reduce((sum, c) => sum + c.ms, 0);
    const head = `  <testsuite name="${escapeXml(file)}" tests="${cases.length}" failures="${count(cases, 'failed')}" errors="0" skipped="${count(cases, 'skipped')}" time="${seconds(time)}" timestamp="${timestamp.toISOString().slice(0, 19)}">`;
    return [head, ...cases.map(testcase), '  </testsuite>'].join('\n');
  });
  const { summary } = report;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="kb:test" tests="${summary.cases}" failures="${summary.failed}" errors="0" skipped="${summary.skipped}" time="${seconds(report.ms)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
