/**
 * bench:languages — what analysing every section in its own language costs: the load time and
 * heap of a KB in three languages (the German, French and Spanish Debian Reference in one folder,
 * each file declaring its language with `<html lang>`) against the same files analysed as English
 * only (no declarations: the analyzer before languages), and against an English KB of the same
 * size (the English Debian Reference three times). Each load is cold (fresh token and parse
 * caches), the three KBs alternate, ROUNDS rounds; medians. One run on a shared machine: compare
 * the rows of one run.
 *
 *   npm run bench:languages        (needs Debian's debian-reference-* packages: scripts/ensure-debian-docs.sh)
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knowledge } from '@/lib/knowledge/load';
import { parseCommandLineOrExit, wholeNumberFlag, type Cli } from './cli';

const cli: Cli = {
  name: 'bench:languages',
  usage: `usage: npm run bench:languages [-- --rounds N]

  --rounds N    loads of each KB, alternating (default 3)
  -h, --help    this text`,
};
const { values } = parseCommandLineOrExit(cli, { rounds: { type: 'string', default: '3' } });
const ROUNDS = wholeNumberFlag(cli, 'rounds', values.rounds, 1);
if (!globalThis.gc) {
  console.error('bench:languages: run with node --expose-gc (npm run bench:languages does)');
  process.exit(2);
}
const gc = globalThis.gc;

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { loadKnowledge } = await import('@/lib/knowledge/load');

const REFERENCE = '/usr/share/debian-reference';

/** A folder with `languages`' files of the Debian Reference, each in a subfolder of its language; `declare`: `<html lang>` added to each. */
function referenceKb(languages: readonly string[], declare: boolean): string {
  const root = mkdtempSync(path.join(tmpdir(), 'bench-languages-'));
  languages.forEach((language, i) => {
    const dir = path.join(root, `${language}-${i}`);
    mkdirSync(dir);
    for (const file of readdirSync(REFERENCE).filter((f) => f.endsWith(`.${language}.html`))) {
      const html = readFileSync(path.join(REFERENCE, file), 'utf8');
      if (declare) writeFileSync(path.join(dir, file), html.replace(/<html\b/, `<html lang="${language}"`));
      else cpSync(path.join(REFERENCE, file), path.join(dir, file));
    }
  });
  writeFileSync(path.join(root, 'assistant.md'), '---\ncompany: Debian\n---\n');
  return root;
}

const kbs = [
  { label: 'de + fr + es, each in its language', dir: referenceKb(['de', 'fr', 'es'], true) },
  { label: 'de + fr + es, analysed as English only', dir: referenceKb(['de', 'fr', 'es'], false) },
  { label: 'English Debian Reference × 3', dir: referenceKb(['en', 'en', 'en'], false) },
];

const times = kbs.map(() => [] as number[]);
const heaps = kbs.map(() => [] as number[]);
const summary = kbs.map(() => '');
for (let round = 0; round < ROUNDS; round++) {
  kbs.forEach((kb, i) => {
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    let knowledge: Knowledge | undefined = loadKnowledge(kb.dir);
    gc();
    gc();
    heaps[i]!.push(process.memoryUsage().heapUsed - before);
    times[i]!.push(knowledge.loadMs);
    summary[i] = `${knowledge.summary}; languages: ${[...knowledge.index.languages.values()].map((l) => `${l.language} ${l.sections}`).join(', ')}`;
    knowledge = undefined;
  });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const base = { ms: median(times[1]!), heap: median(heaps[1]!) };
console.log(`bench:languages, ${ROUNDS} cold loads of each KB, alternating (median), load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)}\n`);
console.log('| KB | load | heap after load (after GC) | load ratio | heap ratio |');
console.log('|---|---:|---:|---:|---:|');
kbs.forEach((kb, i) => {
  const ms = median(times[i]!);
  const heap = median(heaps[i]!);
  console.log(`| ${kb.label} | ${ms.toFixed(0)} ms | ${mb(heap)} | ${(ms / base.ms).toFixed(2)}× | ${(heap / base.heap).toFixed(2)}× |`);
});
console.log('\n(ratios against "analysed as English only": the same files, the analyzer before languages)');
kbs.forEach((kb, i) => console.log(`${kb.label}: ${summary[i]}`));
for (const kb of kbs) rmSync(kb.dir, { recursive: true, force: true });
