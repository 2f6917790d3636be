/**
 * eval — does the selector pick the right sections? Compared, in the same run, with plain
 * BM25 and with the first-N cut (see eval/evaluate.ts for methods and metrics).
 *
 *   npm run eval                 demo KB golden set + the Debian FAQ (read from ../shared/corpora)
 *   npm run eval -- --misses     also list every question where the selector did not send a gold section
 *   npm run eval -- --no-debian  demo KB only
 *   npm run eval -- --write      also write eval/results.md
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  firstNCutMethod,
  plainBm25Method,
  readGolden,
  runMethod,
  selectorMethod,
  summarizeByKind,
  summaryTable,
  type GoldenQuestion,
  type Method,
  type Outcome,
} from '../eval/evaluate.ts';
import { debianFaqKb, DEBIAN_GOLDEN, DEMO_GOLDEN, demoKb, EVAL_DIR, type EvalKb } from '../eval/kbs.ts';

const { values } = parseArgs({
  options: {
    misses: { type: 'boolean' },
    'no-debian': { type: 'boolean' },
    write: { type: 'boolean' },
  },
});

function evaluateKb(kb: EvalKb, questions: GoldenQuestion[]) {
  const { config } = kb.index;
  const methods: Method[] = [
    selectorMethod(kb.index),
    plainBm25Method(kb.sections, config),
    firstNCutMethod(kb.sections, config.budget),
  ];
  const pinnedIds = kb.index.pinned.map((s) => s.id);
  const outcomes = new Map<string, Outcome[]>(methods.map((m) => [m.name, runMethod(m, questions, pinnedIds)]));
  const rows = methods.map((m) => ({ method: m.name, rows: summarizeByKind(outcomes.get(m.name)!, config.budget) }));
  return { rows, outcomes, pinned: pinnedIds.length };
}

function missesText(kb: EvalKb, questions: GoldenQuestion[], outcomes: Outcome[]): string {
  const lines: string[] = [];
  for (const o of outcomes) {
    if (o.goldSent !== false) continue;
    const q = questions.find((x) => x.id === o.id)!;
    lines.push(`- ${o.id} (${o.kind}) ${JSON.stringify(q.messages)} → gold ${q.gold.join(', ')}; rank ${o.goldRank ?? 'unranked'}`);
  }
  return lines.length ? lines.join('\n') : '(none)';
}

const out: string[] = [];
const log = (s = '') => {
  console.log(s);
  out.push(s);
};

const demo = demoKb();
const demoQuestions = readGolden(DEMO_GOLDEN);
const demoResult = evaluateKb(demo, demoQuestions);
log(`## Demo KB (${demo.sections.length} sections, ${demoResult.pinned} pinned; budget ${demo.index.config.budget} tokens, floor ${demo.index.config.floor}) — ${demoQuestions.length} golden questions`);
log('');
log(summaryTable(demoResult.rows));
log('');
if (values.misses) {
  log('Selector misses (no gold section sent):');
  log(missesText(demo, demoQuestions, demoResult.outcomes.get('selector')!));
  log('');
}

if (!values['no-debian']) {
  const debian = await debianFaqKb();
  const questions = readGolden(DEBIAN_GOLDEN);
  const result = evaluateKb(debian, questions);
  log(`## Debian FAQ, a real FAQ we did not write (${debian.sections.length} sections from corpus-100000; same budget) — ${questions.length} questions in users' words`);
  log('');
  log(summaryTable(result.rows, { rules: false }));
  log('');
  if (values.misses) {
    log('Selector misses:');
    log(missesText(debian, questions, result.outcomes.get('selector')!));
    log('');
  }
}

if (values.write) {
  const md = [
    '# Retrieval quality results',
    '',
    `Produced by \`npm run eval\` on ${new Date().toISOString().slice(0, 10)}. Methods and metrics: eval/README.md.`,
    '',
    ...out.map((l) => l.replace(/^## /, '## ')),
  ].join('\n');
  writeFileSync(path.join(EVAL_DIR, 'results.md'), md + '\n');
  console.error('eval: wrote eval/results.md');
}
