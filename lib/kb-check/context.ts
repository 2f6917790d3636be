import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRetrievalIndex, retrievalConfig, type KnowledgeBase, type RetrievalConfig, type RetrievalConfigInput, type RetrievalIndex, type Section } from '../retrieval/index';
import { RetrievalConfigError } from '../retrieval/index';
import { askFor, documentFrequencies } from './questions';
import { textUnits, type UnitKind } from './sentences';
import type { QuestionResult } from './types';

/**
 * What every check reads, built once per `checkKnowledgeBase` call: the KB split into
 * pinned and scored sections, the selector settings, the retrieval index (or why it
 * could not be built), each section's text units with their file lines, and the
 * questions already asked of the selector. Checks only read it.
 */

export interface CheckOptions {
  /** Selector settings (budget, floor, …); defaults as in the app. */
  config?: RetrievalConfigInput;
  /**
   * The files' text by path relative to the KB root, for exact line numbers of sentences.
   * When absent they are read from `kb.root`; when that fails, lines are the heading's + 1.
   */
  sources?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
}

/** A loaded KB (loadKnowledgeBase), or an in-memory one with just sections and synonyms (fixtures). */
export type CheckableKnowledgeBase = Pick<KnowledgeBase, 'sections' | 'synonyms'> &
  Partial<Pick<KnowledgeBase, 'root' | 'synonymsFile' | 'skipped' | 'notices' | 'identity' | 'refusal' | 'repeatedFolders'>>;

/** A sentence, list item, heading or table cell of a section, at its line in the file. */
export interface Unit {
  text: string;
  line: number;
  kind: UnitKind;
}

export interface CheckContext {
  kb: CheckableKnowledgeBase;
  config: RetrievalConfig;
  /** A file's text by path relative to the KB root (undefined when it cannot be read). */
  readSource(file: string): string | undefined;
  pinnedSections: Section[];
  /** The unpinned sections: the ones the selector scores. */
  scoredSections: Section[];
  pinnedTokens: number;
  /** pinnedTokens / budget. */
  pinnedShare: number;
  /** Budget left after the pinned block (negative when the pinned block exceeds it). */
  availableTokens: number;
  /** The selector over this KB; undefined when `indexError` says why it could not be built. */
  index: RetrievalIndex | undefined;
  indexError: RetrievalConfigError | undefined;
  unitsOf(section: Section): Unit[];
  sectionById(id: string): Section | undefined;
  /** Document frequency of each analyzed term over the scored sections (each section's terms in its language). */
  scoredTermFrequencies(): Map<string, number>;
  /** Asks the selector `question` on behalf of a section, in the section's language; each pair is asked once. Needs `index`. */
  ask(sectionId: string, question: string): QuestionResult;
}

/** Throws only what building the index throws other than a RetrievalConfigError. */
export function createCheckContext(kb: CheckableKnowledgeBase, options: CheckOptions): CheckContext {
  const config = retrievalConfig(options.config);
  const readSource = sourceReader(kb, options);
  const { index, indexError } = buildIndex(kb, config);
  // The units the selector scores and sends: long sections are checked part by part.
  const sections = index?.sections ?? kb.sections;
  const pinnedSections = sections.filter((s) => s.pinned);
  const scoredSections = sections.filter((s) => !s.pinned);
  const pinnedTokens = pinnedSections.reduce((n, s) => n + s.tokens, 0);
  const unitsBySectionId = new Map(sections.map((s) => [s.id, unitsWithLines(s, readSource(s.source))]));
  const sectionsById = once(() => new Map(sections.map((s) => [s.id, s])));
  return {
    kb,
    config,
    readSource,
    pinnedSections,
    scoredSections,
    pinnedTokens,
    pinnedShare: pinnedTokens / config.budget,
    availableTokens: config.budget - pinnedTokens,
    index,
    indexError,
    unitsOf: (section) => unitsBySectionId.get(section.id)!,
    sectionById: (id) => sectionsById().get(id),
    scoredTermFrequencies: once(() => documentFrequencies(scoredSections)),
    ask: questionAsker(index, (id) => sectionsById().get(id)?.language),
  };
}

function buildIndex(kb: CheckableKnowledgeBase, config: RetrievalConfig) {
  try {
    return { index: createRetrievalIndex(kb, config), indexError: undefined };
  } catch (error) {
    if (!(error instanceof RetrievalConfigError)) throw error;
    return { index: undefined, indexError: error };
  }
}

/** `languageOf`: a section's language, which its questions are asked in (askFor). */
function questionAsker(index: RetrievalIndex | undefined, languageOf: (sectionId: string) => string | undefined): CheckContext['ask'] {
  const answers = new Map<string, QuestionResult>();
  return (sectionId, question) => {
    if (!index) throw new Error('kb-check: asked the selector without a retrieval index');
    const key = `${sectionId}\u0000${question}`;
    if (!answers.has(key)) answers.set(key, askFor(index, sectionId, question, languageOf(sectionId)));
    return answers.get(key)!;
  };
}

function once<T>(compute: () => T): () => T {
  let value: { computed: T } | undefined;
  return () => (value ??= { computed: compute() }).computed;
}

function sourceReader(kb: CheckableKnowledgeBase, options: CheckOptions): (file: string) => string | undefined {
  const given = options.sources;
  const cache = new Map<string, string | undefined>();
  return (file) => {
    if (given) return given instanceof Map ? given.get(file) : (given as Record<string, string>)[file];
    if (!kb.root) return undefined;
    if (!cache.has(file)) {
      try {
        cache.set(file, readFileSync(path.join(kb.root, file), 'utf8'));
      } catch {
        cache.set(file, undefined);
      }
    }
    return cache.get(file);
  };
}

/** 1-based line of the first character of a section's body in its file. */
function bodyLine(section: Section, source: string | undefined): number {
  if (source) {
    let offset = 0;
    for (let line = 1; line < section.line && offset >= 0; line++) offset = source.indexOf('\n', offset) + 1;
    let at = source.indexOf(section.text, Math.max(0, offset));
    if (at < 0) at = source.indexOf(section.text);
    if (at >= 0) return source.slice(0, at).split('\n').length;
  }
  return section.line + 1;
}

function unitsWithLines(section: Section, source: string | undefined): Unit[] {
  const first = bodyLine(section, source);
  return textUnits(section.text, section.language).map((u) => ({
    text: u.text,
    kind: u.kind,
    line: first + (section.text.slice(0, u.offset).match(/\n/g)?.length ?? 0),
  }));
}
