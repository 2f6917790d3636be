/**
 * The demo-KB retrieval evaluation as a test: a KB or code change that breaks retrieval
 * fails CI. Thresholds: every pinned rule sent for every question, knowledge sent for every
 * vague and off-topic question (the floor), a gold section sent for at least 90% of the
 * questions that have one. Plus a snapshot of the explanation for 10 reference questions
 * (ranked ids and reasons, no floats) so a change shows up as a readable diff
 * (`npx vitest run eval -u` accepts a deliberate change).
 */
import { describe, expect, it } from 'vitest';
import { selectContext, type Explanation } from '@/lib/retrieval/index';
import { readGolden, runMethod, selectorMethod, summarize } from './evaluate';
import { DEMO_GOLDEN, demoKb } from './kbs';

const kb = demoKb();
const questions = readGolden(DEMO_GOLDEN);
const outcomes = await runMethod(selectorMethod(kb.index), questions, kb.index.pinned.map((s) => s.id));

const REFERENCE = ['p01', 'p08', 'p16', 't01', 't05', 'k03', 'f01', 'f03', 'v01', 'o01'];

/** A readable, float-free digest of an explanation: query terms, ranked ids with reasons, floor. */
export function explanationDigest(e: Explanation, maxRanked = 10): string {
  const lines: string[] = [];
  const w = (x: number) => (x === 1 ? '' : `×${x}`);
  lines.push(
    `terms: ${e.query.terms.map((t) => (t.source === 'synonym' ? `${t.term}${w(t.weight)}←"${t.from}"` : t.source === 'typo' ? `${t.term}${w(t.weight)}←typo "${t.from}"` : `${t.term}${w(t.weight)}`)).join(' ') || '(none)'}`,
  );
  const ranked = e.sections.filter((s) => s.rank !== undefined);
  for (const s of ranked.slice(0, maxRanked)) lines.push(`  ${String(s.rank).padStart(2)} ${s.reason.padEnd(11)} ${s.id}`);
  if (ranked.length > maxRanked) lines.push(`  … ${ranked.length - maxRanked} more matched`);
  const floor = e.sections.filter((s) => s.reason === 'floor');
  for (const s of floor) lines.push(`   · floor       ${s.id}`);
  lines.push(`  pinned sent: ${e.counts.pinned}; scored sent: ${e.counts.scored}; floor sent: ${e.counts.floor}`);
  return lines.join('\n');
}

describe('demo KB retrieval (eval/golden-demo.json)', () => {
  it('has the golden set the issue asks for: ≥ 60 questions of every kind', () => {
    expect(questions.length).toBeGreaterThanOrEqual(60);
    for (const kind of ['paraphrase', 'typo', 'keywords', 'follow-up', 'vague', 'off-topic']) {
      expect(questions.some((q) => q.kind === kind), kind).toBe(true);
    }
    const ids = new Set(kb.sections.map((s) => s.id));
    for (const q of questions) for (const id of q.gold) expect(ids.has(id), `${q.id}: unknown gold id ${id}`).toBe(true);
  });

  it('sends every pinned rule for every question (100%)', () => {
    expect(outcomes.filter((o) => !o.rulesSent).map((o) => o.id)).toEqual([]);
  });

  it('sends knowledge for every vague and off-topic question (100%)', () => {
    const floorKinds = outcomes.filter((o) => o.kind === 'vague' || o.kind === 'off-topic');
    expect(floorKinds.length).toBeGreaterThan(0);
    expect(floorKinds.filter((o) => !o.knowledgeSent).map((o) => o.id)).toEqual([]);
  });

  it('sends a gold section for at least 90% of the questions that have one', () => {
    const s = summarize('all', outcomes, kb.index.config.budget);
    const misses = outcomes.filter((o) => o.goldSent === false).map((o) => `${o.id}: ${o.question}`);
    expect(s.goldSent, `misses:\n${misses.join('\n')}`).toBeGreaterThanOrEqual(0.9);
  });

  it('explains the 10 reference questions as in the committed snapshot', async () => {
    const text = REFERENCE.map((id) => {
      const q = questions.find((x) => x.id === id)!;
      const e = selectContext(kb.index, q.messages);
      return `## ${id} (${q.kind}) ${q.messages.map((m) => JSON.stringify(m)).join(' → ')}\n${explanationDigest(e)}`;
    }).join('\n\n');
    await expect(text + '\n').toMatchFileSnapshot('./__snapshots__/reference-explanations.txt');
  });
});
