/**
 * Writes lib/retrieval/query/thesaurus/de.ts, the built-in German thesaurus (thesaurus.ts),
 * from Debian's `mythes-de` package: OpenThesaurus (openthesaurus.de, LGPL-2.1), in the MyThes
 * format LibreOffice reads. Run again only to take a newer package; the output is committed.
 *
 *   apt-get download mythes-de && dpkg -x mythes-de_*.deb /tmp/mythes-de
 *   node --import tsx scripts/make-thesaurus.mts /tmp/mythes-de/usr/share/mythes/th_de_DE_v2.dat 20160424-4
 *
 * What is kept, decided before any eval ran (docs/languages.md › Built-in thesaurus):
 * - synsets only: each `-|word|word|…` line of the file is one set of words with one meaning
 *   (a word with several meanings has several lines; they are kept apart, never merged);
 * - single words only: phrases ("den Stecker rausziehen") and every entry with a label, such as
 *   (ugs.), (geh.), (fig.) or (Oberbegriff) for a broader word, are dropped;
 * - sets of 2 to 6 distinct words (lowercased): larger sets are loose lists of related words;
 * - words the German analyzer keeps (not stop words), and each set once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { THESAURUS_MAX_GROUP, createAnalyzer } from '@/lib/retrieval/index';
import { parseCommandLineOrExit, usageExit, type Cli } from './cli';

const cli: Cli = {
  name: 'make-thesaurus',
  usage: `usage: node --import tsx scripts/make-thesaurus.mts DAT_FILE PACKAGE_VERSION

  DAT_FILE         mythes-de's th_de_DE_v2.dat (from Debian's mythes-de package)
  PACKAGE_VERSION  that package's version, recorded in the output (e.g. 20160424-4)
  -h, --help       this text`,
};
const { positionals } = parseCommandLineOrExit(cli, {}, { allowPositionals: true });
if (positionals.length !== 2) usageExit(cli, 'expected the .dat file and the package version');
const [datFile, version] = positionals as [string, string];

const WORD = /^\p{L}[\p{L}-]*$/u;
const { analyze } = createAnalyzer('de');

const bytes = readFileSync(datFile);
const encoding = bytes.subarray(0, 16).toString('latin1').split('\n')[0]!.trim();
if (encoding !== 'UTF-8') usageExit(cli, `${datFile}: expected a UTF-8 MyThes file, its first line says ${encoding}`);
const lines = bytes.toString('utf8').split('\n');

const seen = new Set<string>();
const groups: string[][] = [];
for (const line of lines) {
  if (!line.startsWith('-|')) continue; // a headword line ("word|count") or the encoding line
  const words = [...new Set(line.split('|').slice(1).map((w) => w.trim()).filter((w) => WORD.test(w)).map((w) => w.toLowerCase()))];
  const kept = words.filter((w) => analyze(w).length > 0).sort();
  if (kept.length < 2 || kept.length > THESAURUS_MAX_GROUP) continue;
  const key = kept.join('|');
  if (seen.has(key)) continue;
  seen.add(key);
  groups.push(kept);
}
groups.sort((a, b) => a.join('|').localeCompare(b.join('|'), 'de'));

const out = path.resolve(import.meta.dirname, '../lib/retrieval/query/thesaurus/de.ts');
// One group per line of one string (a megabyte of text costs a megabyte; as arrays it cost ten),
// so that a new package version also reads as a diff.
writeFileSync(
  out,
  `/** Written by scripts/make-thesaurus.mts: do not edit. The German thesaurus's groups, one per line, words separated by "|". */
export const GERMAN_THESAURUS = {
  source: ${JSON.stringify(`OpenThesaurus (openthesaurus.de), from Debian's mythes-de ${version}, ${path.basename(datFile)}`)},
  license: 'LGPL-2.1 (OpenThesaurus); see /usr/share/doc/mythes-de/copyright',
  kept: ${JSON.stringify(`synsets of 2 to ${THESAURUS_MAX_GROUP} single words, without labelled entries or stop words`)},
  groups: \`
${groups.map((g) => g.join('|')).join('\n')}
\`,
};
`,
);
console.log(`${out}: ${groups.length} groups from ${lines.length} lines`);
