import { normalizeWord } from '../retrieval/index';
import type { Section, SynonymGroup } from '../retrieval/index';
import type { Finding } from './types';

/**
 * Synonym groups that cannot work as intended:
 * - **unused** (warning): no single-word entry of the group occurs in any scored
 *   (unpinned) section. Expansion only ever adds single-word entries, and pinned sections
 *   are not scored, so such a group can never change what is sent.
 * - **the same term in two groups** (warning): both groups fire for it, so their meanings
 *   merge — usually one group, or a word that should be in only one.
 * - **the same word twice in a group** (warning), and **two spellings of one term** in
 *   a group (info: "refund" and "refunds" are one term after stemming; the second adds
 *   nothing).
 * Terms are compared after analysis (lowercase, stemmed), as the selector sees them.
 */

/** Line of each entry in the synonyms file, in group order (undefined without the source). */
function entryLines(source: string | undefined, groups: readonly SynonymGroup[]): (number | undefined)[][] {
  if (!source) return groups.map((g) => g.words.map(() => undefined));
  const strings: { value: string; line: number }[] = [];
  for (const m of source.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
    let value: string;
    try {
      value = JSON.parse(m[0]) as string;
    } catch {
      value = m[1]!;
    }
    strings.push({ value, line: source.slice(0, m.index).split('\n').length });
  }
  // The file is { "groups": [[...], ...] }: after the key, the strings are the entries in order.
  let i = strings.findIndex((s) => s.value === 'groups') + 1;
  return groups.map((g) =>
    g.words.map((word) => {
      while (i < strings.length && strings[i]!.value.trim() !== word) i++;
      return strings[i++]?.line;
    }),
  );
}

export function checkSynonyms(
  groups: readonly SynonymGroup[],
  pool: readonly Section[],
  poolTerms: ReadonlySet<string>,
  file: string,
  source?: string,
): Finding[] {
  const findings: Finding[] = [];
  const lines = entryLines(source, groups);
  const firstGroupOfTerm = new Map<string, { group: number; word: string }>();

  groups.forEach((group, g) => {
    const label = `group ${g + 1} [${group.words.map((w) => `"${w}"`).join(', ')}]`;
    const groupLine = lines[g]?.[0];
    const single = group.terms.filter((t) => t.length === 1).map((t) => t[0]!);
    if (pool.length && !single.some((t) => poolTerms.has(t))) {
      findings.push({
        kind: 'synonyms-unused',
        level: 'warning',
        file,
        line: groupLine,
        message: `synonym ${label}: none of its words occur in the scored sections, so it can never change what is sent`,
        suggestion: 'add a word the knowledge base actually uses to the group, or remove the group',
        details: { group: g, words: group.words },
      });
    }

    const seen = new Map<string, number>();
    const respelled: { word: string; first: string; term: string; line?: number }[] = [];
    group.terms.forEach((terms, w) => {
      const key = terms.join(' ');
      const word = group.words[w]!;
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        const first = group.words[earlier]!;
        if (normalizeWord(first) !== normalizeWord(word)) {
          respelled.push({ word, first, term: key, line: lines[g]?.[w] });
          return;
        }
        findings.push({
          kind: 'synonyms-duplicate',
          level: 'warning',
          file,
          line: lines[g]?.[w],
          message: `synonym ${label}: "${word}" is listed twice`,
          suggestion: `remove the second "${word}"`,
          details: { group: g, word, term: key },
        });
        return;
      }
      seen.set(key, w);
      const other = firstGroupOfTerm.get(key);
      if (other && other.group !== g) {
        findings.push({
          kind: 'synonyms-duplicate',
          level: 'warning',
          file,
          line: lines[g]?.[w],
          message: `synonym "${word}" (term "${key}") is in group ${other.group + 1} ("${other.word}") and group ${g + 1}: both groups fire for it`,
          suggestion: 'keep the word in one group, or merge the two groups',
          details: { groups: [other.group, g], word, term: key },
        });
      } else if (!other) {
        firstGroupOfTerm.set(key, { group: g, word });
      }
    });
    if (respelled.length) {
      findings.push({
        kind: 'synonyms-duplicate',
        level: 'info',
        file,
        line: respelled[0]!.line,
        message:
          `synonym group ${g + 1}: ${respelled.map((r) => `"${r.word}" = "${r.first}"`).join(', ')} ` +
          `after stemming (the analyzer already matches these forms; the extra spellings add nothing)`,
        suggestion: `remove ${respelled.map((r) => `"${r.word}"`).join(', ')}`,
        details: { group: g, respelled },
      });
    }
  });
  return findings;
}
