import { z } from 'zod';
import { KnowledgeBaseError } from '../errors';
import { createAnalyzer } from './analyzer';
import { ENGLISH } from './languages';
import { languageOf } from './language-tags';
import type { SynonymGroup } from '../types';

/**
 * Synonyms: groups of words customers use for the same thing, kept in an editable
 * `synonyms.json` at the KB root:
 *
 *     { "groups": [["price", "cost", "pricing", "cheap", "fee"], ["refund", "money back"]] }
 *
 * Matching is on analyzed terms, so "prices" triggers the group of "price".
 * A group fires when the query contains every term of one of its entries; it then adds
 * the terms of its single-word entries that the query lacks. Phrase entries ("money back")
 * only trigger a group: their words are too generic to add on their own.
 */

const groupsSchema = z.array(z.array(z.string().trim().min(1)).min(2, 'a group needs at least two entries'));
const synonymsFileSchema = z.strictObject({
  groups: groupsSchema,
  languages: z.record(z.string().refine((tag) => languageOf(tag) === tag, 'must be a language code such as "de"'), groupsSchema).optional(),
});

function lineOfOffset(source: string, offset: number): number {
  return source.slice(0, offset).split('\n').length;
}

/** Parses and validates a synonyms file (its `groups` in `language`, the KB's default); errors name the file, and the line for JSON syntax errors. */
export function parseSynonyms(file: string, source: string, language = ENGLISH): SynonymGroup[] {
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const line = position ? lineOfOffset(source, Number(position[1])) : undefined;
    throw new KnowledgeBaseError(`invalid JSON: ${message}`, file, line);
  }
  const parsed = synonymsFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    throw new KnowledgeBaseError(
      `wrong shape at ${path || 'top level'}: ${issue.message} (expected { "groups": [["word", "word", …], …] })`,
      file,
    );
  }
  const analysed = (groups: string[][], where: string, groupLanguage: string, tagged: boolean): SynonymGroup[] => {
    const { analyze } = createAnalyzer(groupLanguage);
    return groups.map((words, g) => ({
      words,
      terms: words.map((word, w) => {
        const terms = analyze(word);
        if (terms.length === 0) {
          throw new KnowledgeBaseError(`${where}[${g}][${w}] "${word}" is only stop words and can never match a question`, file);
        }
        return terms;
      }),
      ...(tagged ? { language: groupLanguage } : {}),
    }));
  };
  const byLanguage = Object.entries(parsed.data.languages ?? {}).flatMap(([l, groups]) => analysed(groups, `languages.${l}`, l, true));
  return [...analysed(parsed.data.groups, 'groups', language, false), ...byLanguage];
}

/** A term added to a query by a synonym group, and the customer's word that triggered it. */
export interface Expansion {
  term: string;
  /** The group entry (as written) that matched the query. */
  from: string;
  /** The analyzed terms of that entry. */
  trigger: string[];
  /** Which group (index in the synonyms file) added it. */
  group: number;
}

// Which groups each term occurs in (any entry), built once per groups array, so a question
// only checks the groups its own terms can fire instead of every group.
const groupsByTermCache = new WeakMap<readonly SynonymGroup[], Map<string, number[]>>();

/** The groups each term occurs in, built once per groups array (now, rather than at the first question that needs it). */
export function prepareSynonyms(groups: readonly SynonymGroup[]): Map<string, number[]> {
  let byTerm = groupsByTermCache.get(groups);
  if (!byTerm) {
    byTerm = new Map();
    groups.forEach((group, g) => {
      for (const entry of group.terms) {
        for (const term of entry) {
          const list = byTerm!.get(term) ?? [];
          if (list.at(-1) !== g) list.push(g);
          byTerm!.set(term, list);
        }
      }
    });
    groupsByTermCache.set(groups, byTerm);
  }
  return byTerm;
}

function candidateGroups(queryTerms: ReadonlySet<string>, groups: readonly SynonymGroup[]): number[] {
  const byTerm = prepareSynonyms(groups);
  const candidates = new Set<number>();
  for (const term of queryTerms) for (const g of byTerm.get(term) ?? []) candidates.add(g);
  return [...candidates].sort((a, b) => a - b); // group order, as if every group were checked
}

/** Terms the synonym groups add to a set of query terms (never a term already in it). */
export function expandTerms(queryTerms: ReadonlySet<string>, groups: readonly SynonymGroup[]): Expansion[] {
  const added = new Map<string, Expansion>();
  for (const g of candidateGroups(queryTerms, groups)) {
    const group = groups[g]!;
    const trigger = group.terms.findIndex((entry) => entry.every((t) => queryTerms.has(t)));
    if (trigger < 0) continue;
    for (const entry of group.terms) {
      const term = entry[0]!;
      if (entry.length === 1 && !queryTerms.has(term) && !added.has(term)) {
        added.set(term, { term, from: group.words[trigger]!, trigger: group.terms[trigger]!, group: g });
      }
    }
  }
  return [...added.values()];
}
