import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { EXPECTATIONS, expectationByKey } from './expectations/index';
import { editDistance } from './refs';
import { KbTestFileError, type Expectation, type KbTestCase } from './types';

/**
 * A test file of the KB (`tests/*.yaml`; the format: docs/kb-tests.md), parsed strictly: an
 * unknown field, a wrong value or malformed YAML is a KbTestFileError naming `file:line` (as the
 * identity file's errors do), and kb:test exits 2. Section references are checked later,
 * against the KB the case runs on (an unknown one fails the case, it is not a file error).
 *
 *     cases:
 *       - name: a refund question gets the refund rule and the refund policy
 *         question: Can I get a refund?
 *         history: [I was charged twice]       # earlier customer messages, oldest first
 *         expect:
 *           pinned: rules/assistant-rules.md#refunds
 *           sends: Refund policy › Refund timelines
 *           first: billing/refund-policy.md
 */

const text = (max: number) => z.string().trim().min(1).max(max);

/**
 * The most sections and pages one case may name, all its expectations together: each one the
 * KB does not have costs a search for the nearest names (refs.ts), and 20,000 in one case held
 * the server for 30 s.
 */
export const MAX_REFS_PER_CASE = 50;

const caseFields = z.strictObject({
  name: text(200).optional(),
  question: text(2000),
  history: z.array(text(2000)).max(50).optional(),
  expect: z.unknown().optional(),
});

const CASE_FIELDS = Object.keys(caseFields.shape);
/** Kinds written under a group (`reply.mentions` is `mentions` under `reply:`), by group. */
const GROUPS = new Map<string, string[]>();
for (const kind of EXPECTATIONS) {
  const [group, key] = kind.key.split('.');
  if (key) GROUPS.set(group!, [...(GROUPS.get(group!) ?? []), key]);
}
const EXPECT_KEYS = [...new Set(EXPECTATIONS.map((k) => k.key.split('.')[0]!))];

type Path = (string | number)[];

interface Source {
  file: string;
  doc: Document;
  lines: LineCounter;
}

function lineAt(source: Source, offset: number | undefined): number {
  return offset === undefined ? 1 : source.lines.linePos(offset).line;
}

/** The line of the node at `path` (of its key, when `key` is given), else of the nearest enclosing node. */
function lineOf(source: Source, path: Path, key?: string): number {
  for (let at = path.length; at >= 0; at--) {
    const node = at === 0 ? source.doc.contents : source.doc.getIn(path.slice(0, at), true);
    if (key !== undefined && at === path.length && isMap(node)) {
      const item = node.items.find((i) => (i.key as { value?: unknown } | null)?.value === key);
      const range = (item?.key as { range?: [number, number, number] } | null)?.range;
      if (range) return lineAt(source, range[0]);
    }
    const range = (node as { range?: [number, number, number] } | null)?.range;
    if (range) return lineAt(source, range[0]);
  }
  return 1;
}

/** ` — did you mean "sends"?` for a misspelt key, or nothing. */
function didYouMean(key: string, known: readonly string[]): string {
  const best = known.map((k) => ({ k, d: editDistance(key.toLowerCase(), k, 3) })).sort((a, b) => a.d - b.d)[0];
  return best && best.d <= Math.max(1, Math.floor(key.length / 3)) ? `; did you mean "${best.k}"?` : '';
}

function unknownKey(source: Source, path: Path, key: string, what: string, known: readonly string[]): KbTestFileError {
  return new KbTestFileError(`"${key}" is not ${what} (known: ${known.join(', ')})${didYouMean(key, known)}`, source.file, lineOf(source, path, key));
}

const where = (path: Path) => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');

function zodError(source: Source, base: Path, error: z.ZodError, known: readonly string[], what: string): KbTestFileError {
  const issue = error.issues[0]!;
  const path = [...base, ...(issue.path as Path)];
  if (issue.code === 'unrecognized_keys') return unknownKey(source, path, issue.keys[0]!, what, known);
  return new KbTestFileError(`${where(path)}: ${issue.message}`, source.file, lineOf(source, path));
}

/** A map's keys and values, or a file error naming what it should have been. */
function mapAt(source: Source, path: Path, value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new KbTestFileError(path.length ? `${where(path)}: ${what}` : what, source.file, lineOf(source, path));
  return value as Record<string, unknown>;
}

function expectation(source: Source, path: Path, key: string, value: unknown): Expectation {
  const kind = expectationByKey.get(key)!;
  const parsed = kind.schema.safeParse(value);
  if (!parsed.success) throw zodError(source, path, parsed.error, [], 'a field');
  return { kind: key, value: parsed.data, line: lineOf(source, path.slice(0, -1), String(path.at(-1))) };
}

function expectations(source: Source, path: Path, value: unknown): Expectation[] {
  const fields = mapAt(source, path, value, `a case needs "expect:", a map of expectations (${EXPECT_KEYS.join(', ')})`);
  const out: Expectation[] = [];
  for (const [key, item] of Object.entries(fields)) {
    const group = GROUPS.get(key);
    if (group) {
      const inner = mapAt(source, [...path, key], item, `"${key}:" holds a map of ${group.join(', ')}`);
      for (const [sub, subValue] of Object.entries(inner)) {
        if (!group.includes(sub)) throw unknownKey(source, [...path, key], sub, `an expectation of the ${key}`, group);
        out.push(expectation(source, [...path, key, sub], `${key}.${sub}`, subValue));
      }
    } else if (expectationByKey.has(key)) {
      out.push(expectation(source, [...path, key], key, item));
    } else {
      throw unknownKey(source, path, key, 'an expectation', EXPECT_KEYS);
    }
  }
  if (!out.length) throw new KbTestFileError(`${where(path)}: no expectations (${EXPECT_KEYS.join(', ')})`, source.file, lineOf(source, path));
  return out;
}

/** Parses one test file's text; throws KbTestFileError at the first problem. `file` is relative to the KB root. */
export function parseTestFile(file: string, text: string): KbTestCase[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const source: Source = { file, doc, lines };
  const yamlError = doc.errors[0];
  if (yamlError) throw new KbTestFileError(`malformed YAML: ${yamlError.message.split('\n')[0]}`, file, lineAt(source, yamlError.pos[0]));
  const data = doc.toJS() as unknown;
  const top = mapAt(source, [], data ?? undefined, 'a test file holds "cases:", a list of cases (docs/kb-tests.md)');
  for (const key of Object.keys(top)) if (key !== 'cases') throw unknownKey(source, [], key, 'a field of a test file', ['cases']);
  if (!isSeq(doc.get('cases', true)) || !Array.isArray(top.cases) || top.cases.length === 0) {
    throw new KbTestFileError('"cases:" holds a list of cases, each with "question:" and "expect:"', file, lineOf(source, [], 'cases'));
  }
  const names = new Map<string, number>();
  return top.cases.map((raw, i) => {
    const path: Path = ['cases', i];
    mapAt(source, path, raw, 'a case is a map with "question:" and "expect:"');
    const parsed = caseFields.safeParse(raw);
    if (!parsed.success) throw zodError(source, path, parsed.error, CASE_FIELDS, 'a field of a case');
    if (parsed.data.expect === undefined) throw new KbTestFileError(`${where(path)}: a case needs "expect:"`, file, lineOf(source, path));
    const line = lineOf(source, path);
    const name = parsed.data.name ?? parsed.data.question;
    const earlier = names.get(name);
    if (earlier !== undefined) throw new KbTestFileError(`two cases are named "${name}" (the first at line ${earlier}): name each case once`, file, line);
    names.set(name, line);
    const expected = expectations(source, [...path, 'expect'], parsed.data.expect);
    const refs = expected.reduce((count, e) => count + (expectationByKey.get(e.kind)!.refs?.(e.value as never).length ?? 0), 0);
    if (refs > MAX_REFS_PER_CASE) {
      throw new KbTestFileError(`${where(path)}: the case names ${refs} sections and pages; a case can name at most ${MAX_REFS_PER_CASE} (split it into several cases)`, file, lineOf(source, path, 'expect'));
    }
    return { file, line, name, question: parsed.data.question, history: parsed.data.history ?? [], expectations: expected };
  });
}
