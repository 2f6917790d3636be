import { GERMAN_THESAURUS } from './thesaurus/de';
import { type Steps, runSteps } from '../steps';
import { createAnalyzer } from './analyzer';
import { prepareSynonyms } from './synonyms';
import type { SynonymGroup } from '../types';

/**
 * Built-in thesauri: synonym groups the selector adds, after the KB's own (synonyms.ts), for the
 * languages that have one, so that a customer's word finds the KB's word for the same thing
 * ("abschalten" finds "deaktivieren"). Config `thesaurus: false` turns them off.
 *
 * Only German has one: OpenThesaurus's synsets, from Debian's mythes-de (thesaurus/de.ts,
 * written by scripts/make-thesaurus.mts; what is kept and why: docs/languages.md). The French and
 * Spanish thesauri Debian ships (mythes-fr, mythes-es) list related words per headword rather
 * than sets of synonyms; made the same way, they lowered gold sent on the translated Debian
 * Reference (French 67% → 56%, Spanish 78% → 72%), so they are not built in. English has none:
 * its figures stay as they were.
 */

/** The largest set of words kept from a thesaurus: larger sets are loose lists of related words. */
export const THESAURUS_MAX_GROUP = 6;

/** Each thesaurus's sets, one per line, words separated by "|". */
const THESAURI: Readonly<Record<string, string>> = { de: GERMAN_THESAURUS.groups };

/** The word sets of `language`'s thesaurus, as written; undefined when it has none. */
export function thesaurusWords(language: string): string[][] | undefined {
  const text = THESAURI[language];
  return text?.split('\n').flatMap((line) => (line ? [line.split('|')] : []));
}

const analysed = new Map<string, readonly SynonymGroup[]>();

/** Groups analysed between yields while the index is built in slices (steps.ts). */
const GROUPS_PER_STEP = 500;

/**
 * The built-in thesaurus of `language` as synonym groups, analysed once per process (~0.4 s for
 * German), in steps so that a server's index build keeps the event loop free; none for most languages.
 */
export function* thesaurusSteps(language: string): Steps<readonly SynonymGroup[]> {
  const known = analysed.get(language);
  if (known) return known;
  const words = thesaurusWords(language);
  if (!words) return [];
  const { analyze } = createAnalyzer(language);
  const groups: SynonymGroup[] = [];
  for (const group of words) {
    groups.push({ words: group, terms: group.map((word) => analyze(word)), language });
    if (groups.length % GROUPS_PER_STEP === 0) yield;
  }
  prepareSynonyms(groups);
  analysed.set(language, groups);
  return groups;
}

/** The same, straight through (a query in a language the KB's index build did not prepare). */
export function thesaurusGroups(language: string): readonly SynonymGroup[] {
  return runSteps(thesaurusSteps(language));
}
