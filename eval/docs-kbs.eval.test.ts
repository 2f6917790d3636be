/**
 * The real-docs evaluation as a quick gate (the full tables are `npm run eval`): the two
 * docs folders shipped in node_modules, with their frozen questions. Checks that the question
 * files are the frozen ones (a change that improves the score must not edit them), that every
 * gold id is a whole section of its KB, that the pinned rule and the floor hold, and that the
 * selector sends gold at least as often as plain BM25 and every peer library, packed the same way.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { plainBm25Method, readGolden, runMethod, selectorMethod, summarize } from './evaluate';
import { docsFolderKb, DOCS_KBS, PYTHON_GOLDEN } from './kbs';
import { peerMethods } from './peers';

/** sha256 of each frozen question file, as committed in dc88ed6 (eval/README.md, "Question sets"). */
const FROZEN: Record<string, string> = {
  'Next.js getting-started guide': '318b5192c04af55207f41734e195a5b293beb1442d35f410fb74b8fa78bd4064',
  'AI SDK troubleshooting': '1947421a7a2e3492d863c116a587e51af41152db5843723328d36d59806d378b',
};

/**
 * The held-out Python FAQ questions, written blind and committed in 70b0e43. Only the hash is
 * checked here: the FAQ itself is read from ../shared/corpora, which CI may not have (`npm run eval`).
 */
const FROZEN_PYTHON_FAQ = '9671533ec0ccf2f661f71d561d24b80a5a8cf3f8f88fc95b0885661a00ae8e58';

/** Gold sent by the selector, a little under the committed run (eval/results.md), so noise-free changes pass. */
const MIN_GOLD_SENT: Record<string, number> = { 'Next.js getting-started guide': 0.84, 'AI SDK troubleshooting': 0.95 };

describe('real docs folders (eval/golden-nextjs-getting-started.json, eval/golden-ai-sdk-troubleshooting.json)', () => {
  const sets = DOCS_KBS.map((d) => ({ ...d, kb: docsFolderKb(d.name, d.dir, d.rules), questions: readGolden(d.golden) }));

  it('has at least 150 frozen questions of every kind, with gold ids that are whole sections of their KB', () => {
    expect(sets.reduce((n, s) => n + s.questions.length, 0)).toBeGreaterThanOrEqual(150);
    for (const set of sets) {
      expect(createHash('sha256').update(readFileSync(set.golden)).digest('hex'), `${set.golden} was edited after it was frozen`).toBe(FROZEN[set.name]);
      for (const kind of ['paraphrase', 'typo', 'keywords', 'follow-up', 'vague', 'off-topic']) {
        expect(set.questions.some((q) => q.kind === kind), `${set.name}: ${kind}`).toBe(true);
      }
      const ids = new Set(set.kb.sections.map((s) => s.id));
      for (const q of set.questions) for (const id of q.gold) expect(ids.has(id), `${q.id}: unknown gold id ${id}`).toBe(true);
    }
  });

  it('the held-out Python FAQ question file is the frozen one', () => {
    expect(createHash('sha256').update(readFileSync(PYTHON_GOLDEN)).digest('hex'), `${PYTHON_GOLDEN} was edited after it was frozen`).toBe(FROZEN_PYTHON_FAQ);
  });

  for (const { name, kb, questions } of sets) {
    it(`${name}: the rule and the floor hold, gold sent ≥ ${MIN_GOLD_SENT[name]}, and at least as often as plain BM25 and every peer`, async () => {
      const pinned = kb.index.pinned.map((s) => s.id);
      expect(pinned).toHaveLength(1);
      const ours = await runMethod(selectorMethod(kb.index), questions, pinned);
      expect(ours.filter((o) => !o.rulesSent).map((o) => o.id)).toEqual([]);
      expect(ours.filter((o) => (o.kind === 'vague' || o.kind === 'off-topic') && !o.knowledgeSent).map((o) => o.id)).toEqual([]);
      const budget = kb.index.config.budget;
      const goldSent = summarize('all', ours, budget).goldSent;
      expect(goldSent).toBeGreaterThanOrEqual(MIN_GOLD_SENT[name]!);
      for (const other of [plainBm25Method(kb.index.sections, kb.index.config), ...peerMethods(kb.index.sections, kb.index.config)]) {
        expect(goldSent, other.name).toBeGreaterThanOrEqual(summarize('all', await runMethod(other, questions, pinned), budget).goldSent);
      }
    });
  }
});
