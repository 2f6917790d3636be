import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'test-results-parser';
import { describe, expect, it } from 'vitest';
import { turnKnowledgeOf } from '../knowledge/retrieve';
import { loadKnowledgeBase } from '../retrieval/index';
import { writeFolder } from '../testing/folders';
import { TEST_SOURCES } from '../testing/kb';
import { junitXml } from './junit';
import { readKbTests } from './files';
import { runKbTests } from './run';

/**
 * kb:test --junit FILE, read back by a JUnit parser that CI reporting tools use
 * (test-results-parser: the parser of testbeats), not by our own code.
 */

const TESTS = `cases:
  - name: passes
    question: can I get a refund?
    expect: { first: billing/refund-policy.md }
  - name: 'fails: <Refunds & "credits"> \u0007 — naming the section'
    question: can I get a refund?
    expect:
      first: product/live.md
  - name: skipped without a model
    question: can I get a refund?
    expect: { reply: { mentions: billing team } }
`;

async function reportXml(): Promise<string> {
  const root = writeFolder({ ...Object.fromEntries(TEST_SOURCES.map((s) => [s.file, s.text])), 'tests/refunds.yaml': TESTS, 'tests/more/live.yaml': 'cases:\n  - question: live stream\n    expect: { sends: product/live.md }\n' });
  const report = await runKbTests(turnKnowledgeOf(loadKnowledgeBase(root)), await readKbTests(root), { root });
  return junitXml(report);
}

describe('junitXml', () => {
  it('is read by a JUnit parser: suites per file, cases with their status, the failure with its reason', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'kb-test-junit-')), 'kb-test.xml');
    writeFileSync(file, await reportXml());
    const result = parse({ type: 'junit', files: [file] });
    expect({ total: result.total, passed: result.passed, failed: result.failed, skipped: result.skipped }).toEqual({ total: 3, passed: 2, failed: 1, skipped: 1 });
    expect(result.suites.map((s) => [s.name, s.cases.map((c) => [c.name, c.status])])).toEqual([
      ['tests/more/live.yaml', [['live stream', 'PASS']]],
      [
        'tests/refunds.yaml',
        [
          ['passes', 'PASS'],
          ['fails: <Refunds & "credits"> \ufffd — naming the section', 'FAIL'],
          ['skipped without a model', 'SKIP'],
        ],
      ],
    ]);
    const failed = result.suites[1]!.cases[1]!;
    expect(failed.failure).toMatch(/^ranks product\/live\.md first: the page product\/live\.md: its section sent, Live streaming \[product\/live\.md#live-streaming\], sent by the floor only \(no match/);
    expect(failed.stack_trace).toContain('ranked first instead: 1. Refund policy › Refund timelines');
    expect(failed.stack_trace).toContain('(tests/refunds.yaml:8)');
  });

  it('escapes what XML cannot hold as written', async () => {
    const xml = await reportXml();
    expect(xml).toContain('name="fails: &lt;Refunds &amp; &quot;credits&quot;&gt; \ufffd — naming the section"');
    expect(xml).not.toContain('\u0007');
  });
});
