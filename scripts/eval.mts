/**
 * eval — does the selector pick the right sections? Compared, in the same run and on the same
 * questions, with plain BM25, the peer libraries of the benchmark (packed the same way) and the
 * first-N cut (see eval/evaluate.ts and eval/peers.ts for methods and metrics).
 *
 *   npm run eval                 demo KB + the Debian and Python FAQs (../shared/corpora) + the real docs folders (node_modules)
 *   npm run eval -- --semantic   also the selector with the semantic stage on, with a real embedding model
 *                                running in process (local:universal-sentence-encoder; eval/semantic.ts)
 *   npm run eval -- --misses     also list every question where the selector did not send a gold section
 *   npm run eval -- --no-corpora without the Debian and Python FAQs (when ../shared/corpora is not there);
 *                                --no-debian is the older name of the same flag
 *   npm run eval -- --no-translations  without the translated Debian documentation (Debian's packages,
 *                                scripts/ensure-debian-docs.sh installs them)
 *   npm run eval -- --languages  only the translated Debian documentation (the "Languages" tables)
 *   npm run eval -- --write      also write eval/results.md
 *   npm run eval -- --set k1=0.9 --set titleWeight=3   selector settings other than the defaults (a sweep)
 *   npm run eval -- --record "X" also append the selector's rows to eval/history.json as step "X"
 *                                (with the commit it ran on), for the before/after table of ranking changes
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GoldenQuestion, Method, Outcome, Summary } from '@/eval/evaluate';
import type { EvalKb } from '@/eval/kbs';
import type { RetrievalConfigInput } from '@/lib/retrieval/index';
import { parseCommandLineOrExit, usageExit, type Cli } from './cli';

const cli: Cli = {
  name: 'eval',
  usage: `usage: npm run eval [-- --semantic] [--misses] [--no-corpora] [--no-translations | --languages] [--set KEY=VALUE …] [--write] [--record STEP]

  --semantic        also the selector with the semantic stage on (local:universal-sentence-encoder, in process)
  --misses          also list every question where the selector did not send a gold section
  --no-corpora      without the Debian and Python FAQs (../shared/corpora); --no-debian is the older name
  --no-translations without the translated Debian Reference and FAQ (Debian packages: scripts/ensure-debian-docs.sh)
  --languages       only the translated Debian Reference and FAQ (not with --semantic, --write, --record)
  --set KEY=VALUE   a selector setting other than its default (repeatable), e.g. --set k1=0.9
  --write           also write eval/results.md
  --record STEP     also append the selector's rows to eval/history.json as step STEP
  -h, --help        this text`,
};
const { values } = parseCommandLineOrExit(cli, {
  misses: { type: 'boolean' },
  'no-debian': { type: 'boolean' },
  'no-corpora': { type: 'boolean' },
  'no-translations': { type: 'boolean' },
  languages: { type: 'boolean' },
  write: { type: 'boolean' },
  record: { type: 'string' },
  set: { type: 'string', multiple: true },
  semantic: { type: 'boolean' },
});
if (values.languages && (values.semantic || values.write || values.record || values['no-translations'])) {
  usageExit(cli, '--languages runs only the translated documentation: it does not go with --semantic, --write, --record or --no-translations');
}
for (const pair of values.set ?? []) if (!/^\w+=/.test(pair)) usageExit(cli, `--set needs KEY=VALUE, got "${pair}"`);

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { firstNCutMethod, plainBm25Method, readGolden, runMethod, selectorMethod, summarizeByKind, summaryTable } = await import('@/eval/evaluate');
const { checkGoldIds, debianFaqKb, DEBIAN_GOLDEN, DEMO_GOLDEN, demoKb, docsFolderKb, DOCS_KBS, EVAL_DIR, pythonFaqKb, PYTHON_GOLDEN, TRANSLATED_KBS, translatedKb, translatedKbInstalled } =
  await import('@/eval/kbs');
const { PEERS, peerMethods } = await import('@/eval/peers');
const { semanticCost, semanticSelectorMethod, SEMANTIC_MODEL } = await import('@/eval/semantic');
const { formatIssues, formatNumber, formatPercent } = await import('@/lib/format');
const { analyze, retrievalConfigSchema, SEMANTIC_DEFAULTS: EMBEDDING_DEFAULTS } = await import('@/lib/retrieval/index');

const SEMANTIC = 'selector + semantic';
const SEMANTIC_EVERY = 'selector + semantic, every turn';
const ENGLISH_ONLY = 'selector, English-only analyzer';

// --set key=value: numbers and booleans as JSON, anything else as a string; checked against the selector's settings below.
const settings: RetrievalConfigInput = Object.fromEntries(
  (values.set ?? []).map((pair) => {
    const [key, raw = ''] = pair.split('=');
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {}
    return [key, value];
  }),
);
// A setting that does not exist, or a value out of range, is a bad command line (exit 2), not a stack trace.
const known = Object.keys(retrievalConfigSchema.shape);
const unknown = Object.keys(settings).filter((key) => !known.includes(key));
if (unknown.length) usageExit(cli, `--set: no selector setting named ${unknown.join(', ')} (the settings: ${known.join(', ')})`);
const checked = retrievalConfigSchema.safeParse(settings);
if (!checked.success) usageExit(cli, `--set: ${formatIssues(checked.error.issues)}`);
if (values.set?.length) console.error(`eval: selector settings ${JSON.stringify(settings)}`);

interface KbResult {
  kb: EvalKb;
  questions: GoldenQuestion[];
  rows: Map<string, Summary[]>;
  outcomes: Map<string, Outcome[]>;
  bestPeer: string;
  pinned: number;
}

const overall = (rows: Summary[]) => rows.at(-1)!;

async function evaluateKb(kb: EvalKb, questions: GoldenQuestion[], extra: Method[] = []): Promise<KbResult> {
  const { config } = kb.index;
  const units = kb.index.sections; // what is scored and sent: parts of split sections included
  const methods: Method[] = [
    selectorMethod(kb.index),
    ...extra,
    ...(values.semantic ? [await semanticSelectorMethod(kb.index, questions, SEMANTIC), await semanticSelectorMethod(kb.index, questions, SEMANTIC_EVERY, true)] : []),
    plainBm25Method(units, config),
    ...peerMethods(units, config),
    firstNCutMethod(kb.sections, config.budget),
  ];
  const pinnedIds = kb.index.pinned.map((s) => s.id);
  const outcomes = new Map<string, Outcome[]>();
  for (const m of methods) outcomes.set(m.name, await runMethod(m, questions, pinnedIds));
  const rows = new Map(methods.map((m) => [m.name, summarizeByKind(outcomes.get(m.name)!, config.budget)]));
  // The best peer on this KB: most gold sent over all questions, then MRR.
  const bestPeer = PEERS.map((p) => p.name).sort((a, b) => {
    const ra = overall(rows.get(a)!);
    const rb = overall(rows.get(b)!);
    return rb.goldSent - ra.goldSent || rb.mrr - ra.mrr;
  })[0]!;
  return { kb, questions, rows, outcomes, bestPeer, pinned: pinnedIds.length };
}

/** Paraphrases (questions without a kind count as such) none of whose gold sections has any of the question's analysed terms. */
function noSharedTerm({ kb, questions }: KbResult): { none: number; of: number } {
  const asked = questions.filter((q) => q.gold.length > 0 && (q.kind ?? 'paraphrase') === 'paraphrase');
  const none = asked.filter((q) => {
    const terms = new Set(q.messages.flatMap((m) => analyze(m)));
    const gold = kb.index.sections.filter((s) => q.gold.includes(s.part?.sectionId ?? s.id));
    return !gold.some((s) => analyze([...s.parents, s.title, s.text].join('\n')).some((t) => terms.has(t)));
  });
  return { none: none.length, of: asked.length };
}

function missesText(questions: GoldenQuestion[], outcomes: Outcome[]): string {
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

function report(result: KbResult, heading: string): void {
  const { rows, bestPeer } = result;
  log(`## ${heading}`);
  log('');
  const rules = result.pinned > 0;
  log(
    summaryTable(
      [
        { method: 'selector', rows: rows.get('selector')! },
        ...(rows.has(SEMANTIC)
          ? [
              { method: `${SEMANTIC} (${SEMANTIC_MODEL}, fused below confidence ${EMBEDDING_DEFAULTS.fuseBelow})`, rows: rows.get(SEMANTIC)! },
              { method: `${SEMANTIC_EVERY} (fuse below 1)`, rows: rows.get(SEMANTIC_EVERY)! },
            ]
          : []),
        { method: 'plain BM25', rows: rows.get('plain BM25')! },
        { method: `${bestPeer} (best peer)`, rows: rows.get(bestPeer)! },
        { method: 'first-N cut', rows: rows.get('first-N cut')! },
      ],
      { rules },
    ),
  );
  log('');
  const peerLine = PEERS.map((p) => {
    const r = overall(rows.get(p.name)!);
    return `${p.name} ${formatPercent(r.goldSent, 0)} / ${formatNumber(r.mrr, 2)}`;
  }).join(', ');
  log(`Every peer, all questions (gold sent / MRR): ${peerLine}.`);
  const { none, of } = noSharedTerm(result);
  log(
    `Paraphrases (${result.questions.some((q) => q.kind) ? 'kind paraphrase' : 'every question: this set has no kinds'}) whose gold sections share no term with the question's analysed words ` +
      `(stop words out, stemmed; before synonyms, typo corrections and variants): ${none} of ${of}.`,
  );
  log('');
  if (values.misses) {
    log('Selector misses (no gold section sent):');
    log(missesText(result.questions, result.outcomes.get('selector')!));
    log('');
  }
}

/** A translated KB's table: the selector with its language's analyzer, with the English-only one (when `englishOnly`), plain BM25, the best peer, the first-N cut. */
function reportTranslated(result: KbResult, heading: string, englishOnly: boolean): void {
  const { rows, bestPeer } = result;
  log(`### ${heading}`);
  log('');
  log(
    summaryTable(
      [
        { method: 'selector', rows: rows.get('selector')! },
        ...(englishOnly ? [{ method: ENGLISH_ONLY, rows: rows.get(ENGLISH_ONLY)! }] : []),
        { method: 'plain BM25', rows: rows.get('plain BM25')! },
        { method: `${bestPeer} (best peer)`, rows: rows.get(bestPeer)! },
        { method: 'first-N cut', rows: rows.get('first-N cut')! },
      ],
      { rules: false },
    ),
  );
  log('');
  if (values.misses) {
    log('Selector misses (no gold section sent):');
    log(missesText(result.questions, result.outcomes.get('selector')!));
    log('');
  }
}

const results: KbResult[] = [];

if (!values.languages) {
  const demo = demoKb(settings);
  const demoResult = await evaluateKb(demo, readGolden(DEMO_GOLDEN));
  results.push(demoResult);
  report(
    demoResult,
    `Demo KB (${demo.sections.length} sections, ${demoResult.pinned} pinned; budget ${demo.index.config.budget} tokens, floor ${demo.index.config.floor}) — ${demoResult.questions.length} golden questions`,
  );
}

if (!values.languages && !values['no-debian'] && !values['no-corpora']) {
  const debian = await debianFaqKb(settings);
  const result = await evaluateKb(debian, readGolden(DEBIAN_GOLDEN));
  results.push(result);
  report(result, `Debian FAQ, a real FAQ we did not write (${debian.sections.length} sections from corpus-100000; no pinned rules, no synonyms; same budget) — ${result.questions.length} questions in users' words`);

  const python = await pythonFaqKb(settings);
  const pythonQuestions = readGolden(PYTHON_GOLDEN);
  checkGoldIds(python, pythonQuestions, PYTHON_GOLDEN);
  const pythonResult = await evaluateKb(python, pythonQuestions);
  results.push(pythonResult);
  report(
    pythonResult,
    `Python FAQ, a real FAQ we did not write (${python.sections.length} sections from corpus-100000; no pinned rules, no synonyms; same budget) — ${pythonResult.questions.length} held-out questions in users' words, written blind`,
  );
}

for (const docs of values.languages ? [] : DOCS_KBS) {
  const kb = docsFolderKb(docs.name, docs.dir, docs.rules, settings);
  const result = await evaluateKb(kb, readGolden(docs.golden));
  results.push(result);
  const parts = kb.index.sections.length - kb.sections.length;
  report(
    result,
    `${docs.name}, real docs we did not write (${path.relative(path.resolve(EVAL_DIR, '..'), docs.dir)}: ${kb.sections.length} sections${parts > 0 ? ` (+${parts} parts of split sections)` : ''}, 1 pinned rule file from eval/rules, no synonyms; same budget) — ${result.questions.length} frozen questions`,
  );
}

// One line per KB (none with --languages): ours against the others, all questions.
if (results.length) {
  log('## Summary: gold sent / MRR over all questions with gold, per KB');
  log('');
  const semanticColumn = values.semantic ? ` ${SEMANTIC} | ${SEMANTIC_EVERY} |` : '';
  log(`| KB | questions | selector |${semanticColumn} plain BM25 | best peer | first-N cut | margin over the best of the others |`);
  log(`|---|---:|---:|${values.semantic ? '---:|---:|' : ''}---:|---:|---:|---:|`);
  for (const r of results) {
    const cell = (name: string) => {
      const s = overall(r.rows.get(name)!);
      return `${formatPercent(s.goldSent, 0)} / ${formatNumber(s.mrr, 2)}`;
    };
    const ours = overall(r.rows.get('selector')!).goldSent;
    const best = Math.max(overall(r.rows.get('plain BM25')!).goldSent, overall(r.rows.get(r.bestPeer)!).goldSent);
    const margin = Math.round((ours - best) * 100);
    const semanticCell = values.semantic ? ` ${cell(SEMANTIC)} | ${cell(SEMANTIC_EVERY)} |` : '';
    log(`| ${r.kb.name} | ${r.questions.length} | ${cell('selector')} |${semanticCell} ${cell('plain BM25')} | ${cell(r.bestPeer)} (${r.bestPeer}) | ${cell('first-N cut')} | ${margin >= 0 ? '+' : ''}${margin} points |`);
  }
  log('');
}
if (values.semantic) {
  const { sections, sectionMs, sectionTexts, queries, queryMs, queryTexts } = semanticCost;
  const cost = (n: number, of: number, ms: number, what: string) =>
    n ? `${n} of ${of} ${what} (${formatNumber(ms / n, 0)} ms each)` : `none of ${of} ${what} (all from the cache)`;
  log(
    `Semantic stage: ${SEMANTIC_MODEL} (in process), the server's defaults (top ${EMBEDDING_DEFAULTS.topK}, minimum similarity ${EMBEDDING_DEFAULTS.minSimilarity}, RRF k ${EMBEDDING_DEFAULTS.rrfK}, ` +
      `fused only below BM25 confidence ${EMBEDDING_DEFAULTS.fuseBelow}: ${formatPercent(semanticCost.fusedShare(), 0)} of the questions here were fused, the rest kept BM25's ranking with no query embedding; "every turn": fuse below 1). ` +
      `This run embedded ${cost(sections, sectionTexts, sectionMs, 'section texts')} and ${cost(queries, queryTexts, queryMs, 'questions')}; the rest came from node_modules/.cache/eval-embeddings.json.`,
  );
  log('');
}

// Translated documentation: each language's analyzer against the English-only one on the same KB,
// and against the English Debian Reference on the same questions in English.
if (!values['no-translations']) {
  const missing = TRANSLATED_KBS.filter((t) => !translatedKbInstalled(t));
  if (missing.length) {
    log(`## Languages: skipped (${missing.map((t) => t.package).join(', ')} not installed: \`bash scripts/ensure-debian-docs.sh\` installs them)`);
    log('');
  } else {
    log('## Languages: translated documentation nobody here wrote (Debian Reference and Debian FAQ, from Debian\'s packages)');
    log('');
    log(
      'Each KB is one language\'s HTML files of the package, copied flat into a folder with an identity file that declares its language (`language: de`), loaded by the app\'s loader; ' +
        '"English-only analyzer" is the same folder without `language:`, so sections and questions go through the English analyzer (Porter, English stop words), as before languages. ' +
        'Frozen questions (eval/golden-debian-reference-*.json, eval/golden-debian-faq-*.json), written blind; no pinned rules, no synonyms; same budget. No semantic stage: its model (USE) is English-only.',
    );
    log('');
    const rowsByKb = new Map<string, { result: KbResult; englishOnly?: Summary }>();
    for (const t of TRANSLATED_KBS) {
      const kb = translatedKb(t, { config: settings });
      const questions = readGolden(t.golden);
      checkGoldIds(kb, questions, t.golden);
      const extra = t.language === 'en' ? [] : [selectorMethod(translatedKb(t, { englishOnly: true, config: settings }).index, ENGLISH_ONLY)];
      const result = await evaluateKb(kb, questions, extra);
      rowsByKb.set(t.name, { result, englishOnly: extra.length ? overall(result.rows.get(ENGLISH_ONLY)!) : undefined });
      const parts = kb.index.sections.length - kb.sections.length;
      reportTranslated(
        result,
        `${t.name}: ${t.package} (${kb.sections.length} sections${parts > 0 ? `, +${parts} parts of split sections` : ''}, language ${t.language}) — ${questions.length} frozen questions`,
        extra.length > 0,
      );
    }
    log('### Summary: gold sent / MRR per language');
    log('');
    log('| KB | language | questions | selector | selector, English-only analyzer | plain BM25 | best peer | English Debian Reference, same questions in English | gold sent vs English |');
    log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
    const cell = (s: Summary) => `${formatPercent(s.goldSent, 0)} / ${formatNumber(s.mrr, 2)}`;
    for (const t of TRANSLATED_KBS) {
      const { result, englishOnly } = rowsByKb.get(t.name)!;
      const ours = overall(result.rows.get('selector')!);
      const english = t.english ? overall(rowsByKb.get(t.english)!.result.rows.get('selector')!) : undefined;
      const gap = english ? `${Math.round((ours.goldSent - english.goldSent) * 100) >= 0 ? '+' : ''}${Math.round((ours.goldSent - english.goldSent) * 100)} points` : '—';
      log(
        `| ${t.name} | ${t.language} | ${result.questions.length} | ${cell(ours)} | ${englishOnly ? cell(englishOnly) : '—'} | ${cell(overall(result.rows.get('plain BM25')!))} | ` +
          `${cell(overall(result.rows.get(result.bestPeer)!))} (${result.bestPeer}) | ${english ? cell(english) : '—'} | ${gap} |`,
      );
    }
    log('');
  }
}

// Before/after of each ranking change: the selector's rows, one step per recorded run.
interface HistoryStep {
  step: string;
  commit: string;
  date: string;
  kbs: { kb: string; rows: { group: string; goldSent: number; mrr: number }[] }[];
}
const HISTORY = path.join(EVAL_DIR, 'history.json');
const history: HistoryStep[] = existsSync(HISTORY) ? (JSON.parse(readFileSync(HISTORY, 'utf8')) as { steps: HistoryStep[] }).steps : [];
if (values.record) {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: EVAL_DIR, encoding: 'utf8' }).trim();
  const dirty = git('status', '--porcelain', '--', '../lib', '../eval/evaluate.ts', '../eval/peers.ts', '../eval/kbs.ts') !== '';
  const step: HistoryStep = {
    step: values.record,
    commit: git('rev-parse', '--short', 'HEAD') + (dirty ? ' + uncommitted changes' : ''),
    date: new Date().toISOString().slice(0, 10),
    kbs: results.map((r) => ({
      kb: r.kb.name,
      rows: r.rows.get('selector')!.filter((x) => x.withGold > 0).map((x) => ({ group: x.group, goldSent: x.goldSent, mrr: x.mrr })),
    })),
  };
  const at = history.findIndex((h) => h.step === step.step);
  if (at >= 0) history[at] = step;
  else history.push(step);
  writeFileSync(HISTORY, JSON.stringify({ steps: history }, null, 1) + '\n');
  console.error(`eval: recorded step "${step.step}" in eval/history.json`);
}
if (history.length && !values.languages) {
  log('## Ranking changes, before and after (selector only; gold sent / MRR)');
  log('');
  log('Each row was produced by `npm run eval -- --record STEP` on the commit named; eval/README.md says which steps were kept and why.');
  log('');
  const groups = ['all', 'paraphrase', 'typo', 'keywords', 'follow-up'];
  log(`| step | commit | KB | ${groups.join(' | ')} |`);
  log(`|---|---|---|${groups.map(() => '---:').join('|')}|`);
  for (const h of history) {
    for (const { kb, rows } of h.kbs) {
      const cells = groups.map((g) => {
        const r = rows.find((x) => x.group === g);
        return r ? `${formatPercent(r.goldSent, 0)} / ${formatNumber(r.mrr, 2)}` : '—';
      });
      log(`| ${h.step} | ${h.commit} | ${kb} | ${cells.join(' | ')} |`);
    }
  }
  log('');
}

if (values.write) {
  const md = [
    '# Retrieval quality results',
    '',
    `Produced by \`npm run eval -- ${[values.semantic ? '--semantic' : '', values['no-corpora'] || values['no-debian'] ? '--no-corpora' : '', ...(values.set ?? []).map((x) => `--set ${x}`), '--write'].filter(Boolean).join(' ')}\` on ${new Date().toISOString().slice(0, 10)}. Methods, metrics and question sets: eval/README.md.`,
    '',
    ...out,
  ].join('\n');
  writeFileSync(path.join(EVAL_DIR, 'results.md'), md + '\n');
  console.error('eval: wrote eval/results.md');
}
