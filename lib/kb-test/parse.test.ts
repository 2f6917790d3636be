import { describe, expect, it } from 'vitest';
import { EXPECTATIONS } from './expectations/index';
import { parseTestFile } from './parse';
import { KbTestFileError } from './types';

/** The error parseTestFile throws for `text`, as `file:line: reason`. */
function errorOf(text: string): string {
  try {
    parseTestFile('tests/t.yaml', text);
  } catch (error) {
    expect(error).toBeInstanceOf(KbTestFileError);
    return (error as Error).message;
  }
  throw new Error('parsed without an error');
}

const oneCase = (expectYaml: string) => `cases:\n  - question: Can I get a refund?\n    expect:\n${expectYaml.replace(/^/gm, '      ')}\n`;

/** A valid value of every kind, as a test writes it, and the value parsed. */
const SAMPLES: Record<string, { yaml: string; value: unknown }> = {
  sends: { yaml: 'sends: Refund policy › Refund timelines', value: ['Refund policy › Refund timelines'] },
  not_sends: { yaml: 'not_sends: [billing/refund-policy.md, "a.md#b"]', value: ['billing/refund-policy.md', 'a.md#b'] },
  first: { yaml: 'first: billing/refund-policy.md', value: 'billing/refund-policy.md' },
  top: { yaml: 'top: { n: 3, sections: Refund policy }', value: { n: 3, sections: ['Refund policy'] } },
  pinned: { yaml: 'pinned: rules/assistant-rules.md#refunds', value: ['rules/assistant-rules.md#refunds'] },
  floor: { yaml: 'floor: false', value: false },
  sources: { yaml: 'sources: []', value: [] },
  semantic: { yaml: 'semantic: fused', value: 'fused' },
  'reply.mentions': { yaml: 'reply: { mentions: billing team }', value: ['billing team'] },
  'reply.not_mentions': { yaml: 'reply: { not_mentions: [wallet, exchange] }', value: ['wallet', 'exchange'] },
  'reply.cites': { yaml: 'reply: { cites: billing/refund-policy.md }', value: ['billing/refund-policy.md'] },
};

/** A wrong value of every kind, and the error it gets (at line 4, the expectation's). */
const WRONG: Record<string, { yaml: string; error: RegExp }> = {
  sends: { yaml: 'sends: []', error: /cases\[0\]\.expect\.sends: / },
  not_sends: { yaml: 'not_sends: 3', error: /cases\[0\]\.expect\.not_sends: / },
  first: { yaml: 'first: [a.md, b.md]', error: /cases\[0\]\.expect\.first: / },
  top: { yaml: 'top: { n: 0, sections: [a.md] }', error: /cases\[0\]\.expect\.top\.n: Too small/ },
  pinned: { yaml: 'pinned: ""', error: /cases\[0\]\.expect\.pinned: / },
  floor: { yaml: 'floor: sometimes', error: /cases\[0\]\.expect\.floor: Invalid input: expected boolean/ },
  sources: { yaml: 'sources: Refund policy › Refund timelines', error: /cases\[0\]\.expect\.sources: a page: a document path/ },
  semantic: { yaml: 'semantic: maybe', error: /cases\[0\]\.expect\.semantic: Invalid option: expected one of "fused"\|"skipped"/ },
  'reply.mentions': { yaml: 'reply: { mentions: [] }', error: /cases\[0\]\.expect\.reply\.mentions: / },
  'reply.not_mentions': { yaml: 'reply: { not_mentions: { a: 1 } }', error: /cases\[0\]\.expect\.reply\.not_mentions: / },
  'reply.cites': { yaml: 'reply: { cites: "a.md#section" }', error: /cases\[0\]\.expect\.reply\.cites: a page: a document path/ },
};

describe('parseTestFile: the test file format', () => {
  it('has a sample and a wrong value here for every expectation kind of the registry', () => {
    const keys = EXPECTATIONS.map((k) => k.key).sort();
    expect(Object.keys(SAMPLES).sort()).toEqual(keys);
    expect(Object.keys(WRONG).sort()).toEqual(keys);
  });

  it.each(Object.entries(SAMPLES))('reads %s, one value or a list, with its line', (kind, { yaml, value }) => {
    const [testCase] = parseTestFile('tests/t.yaml', oneCase(yaml));
    expect(testCase!.expectations).toEqual([{ kind, value, line: 4 }]);
  });

  it.each(Object.entries(WRONG))('refuses a wrong %s value at file:line', (_kind, { yaml, error }) => {
    const message = errorOf(oneCase(yaml));
    expect(message).toMatch(/^tests\/t\.yaml:4: /);
    expect(message).toMatch(error);
  });

  it('reads cases with their names, history and lines; the name defaults to the question', () => {
    const cases = parseTestFile(
      'tests/refunds.yaml',
      [
        '# refunds',
        'cases:',
        '  - name: a follow-up',
        '    history: [Can I get a refund?]',
        '    question: and for annual plans?',
        '    expect:',
        '      first: Refund policy › Annual plans are pro-rated',
        '      floor: false',
        '',
        '  - question: refnud',
        '    expect: { sends: billing/refund-policy.md }',
      ].join('\n'),
    );
    expect(cases.map((c) => [c.file, c.line, c.name, c.question, c.history, c.expectations.map((e) => [e.kind, e.line])])).toEqual([
      ['tests/refunds.yaml', 3, 'a follow-up', 'and for annual plans?', ['Can I get a refund?'], [['first', 7], ['floor', 8]]],
      ['tests/refunds.yaml', 10, 'refnud', 'refnud', [], [['sends', 11]]],
    ]);
  });

  it('names an unknown expectation at its line, with the known ones and the nearest', () => {
    expect(errorOf(oneCase('floor: false\nsend: billing/refund-policy.md'))).toBe(
      'tests/t.yaml:5: "send" is not an expectation (known: sends, not_sends, first, top, pinned, floor, sources, semantic, reply); did you mean "sends"?',
    );
    expect(errorOf(oneCase('reply: { mention: billing team }'))).toBe('tests/t.yaml:4: "mention" is not an expectation of the reply (known: mentions, not_mentions, cites); did you mean "mentions"?');
    expect(errorOf(oneCase('ranks_first: a.md'))).toMatch(/^tests\/t\.yaml:4: "ranks_first" is not an expectation \(known: [^)]*\)$/);
  });

  it('names unknown fields of a case and of the file, and missing ones', () => {
    expect(errorOf('cases:\n  - question: hi\n    histroy: [x]\n    expect: { floor: true }\n')).toBe(
      'tests/t.yaml:3: "histroy" is not a field of a case (known: name, question, history, expect); did you mean "history"?',
    );
    expect(errorOf('case:\n  - question: hi\n')).toBe('tests/t.yaml:1: "case" is not a field of a test file (known: cases); did you mean "cases"?');
    expect(errorOf('cases:\n  - name: no question\n    expect: { floor: true }\n')).toMatch(/^tests\/t\.yaml:2: cases\[0\]\.question: /);
    expect(errorOf('cases:\n  - question: hi\n')).toBe('tests/t.yaml:2: cases[0]: a case needs "expect:"');
    expect(errorOf('cases:\n  - question: hi\n    expect: {}\n')).toMatch(/^tests\/t\.yaml:3: cases\[0\]\.expect: no expectations/);
    expect(errorOf('cases: []\n')).toBe('tests/t.yaml:1: "cases:" holds a list of cases, each with "question:" and "expect:"');
    expect(errorOf('')).toBe('tests/t.yaml:1: a test file holds "cases:", a list of cases (docs/kb-tests.md)');
  });

  it('refuses malformed YAML, a repeated key and two cases of one name, at their lines', () => {
    expect(errorOf('cases:\n  - question: hi\n    expect: { floor: true }\n  - question: what: now?\n    expect: { floor: true }\n')).toBe(
      'tests/t.yaml:4: malformed YAML: Nested mappings are not allowed in compact mappings',
    );
    expect(errorOf('cases:\n  - question: hi\n    question: ho\n    expect: { floor: true }\n')).toMatch(/^tests\/t\.yaml:3: malformed YAML: Map keys must be unique/);
    expect(errorOf('cases:\n  - question: hi\n    expect: { floor: true }\n  - question: hi\n    expect: { floor: false }\n')).toBe(
      'tests/t.yaml:4: two cases are named "hi" (the first at line 2): name each case once',
    );
  });

  it('refuses a case that names more than 50 sections and pages (all its expectations together), at its expect line', () => {
    const refs = (n: number, from = 0) => `[${Array.from({ length: n }, (_, i) => `"billing/missing.md#section-${from + i}"`).join(', ')}]`;
    expect(() => parseTestFile('tests/t.yaml', oneCase(`sends: ${refs(30)}\nnot_sends: ${refs(20, 30)}`))).not.toThrow();
    expect(errorOf(`cases:\n  - question: hi\n    expect: { floor: true }\n${oneCase(`sends: ${refs(30)}\ntop: { n: 3, sections: ${refs(21, 30)} }`).slice('cases:\n'.length)}`)).toBe(
      'tests/t.yaml:5: cases[1]: the case names 51 sections and pages; a case can name at most 50 (split it into several cases)',
    );
    expect(errorOf(oneCase(`sends: ${refs(20_000)}`))).toMatch(/^tests\/t\.yaml:3: cases\[0\]: the case names 20000 sections and pages; a case can name at most 50/);
  });
});
