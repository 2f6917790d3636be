import { type Analyzer, englishAnalyzer } from '../query/analyzer';
import type { Section } from '../types';

/**
 * A section's terms for BM25 (select/build-index.ts): its heading path's (parents and title)
 * and its text's. Computed while the index is built, or ahead of it on the parse workers for
 * the sections in English (parse-worker.ts), which the index build then takes as they are.
 */
export type SectionTerms = readonly [heading: string[], body: string[]];

/**
 * SectionTerms as the parse workers send them: each list's terms joined by a line feed (no term
 * holds one: the analyzers cut words at white space). A worker's reply is copied onto the main
 * thread in one go, and a large page's thousands of small term strings held its event loop for
 * 100 ms (Node.js's API docs, all.html); two strings per section are copied in a moment, and
 * the index build splits them a slice at a time (build-index.ts).
 */
export type PackedSectionTerms = readonly [heading: string, body: string];

export function packTerms([heading, body]: SectionTerms): PackedSectionTerms {
  return [heading.join('\n'), body.join('\n')];
}

export function unpackTerms([heading, body]: PackedSectionTerms): SectionTerms {
  return [heading ? heading.split('\n') : [], body ? body.split('\n') : []];
}

export function sectionTerms(section: Pick<Section, 'parents' | 'title' | 'text'>, analyzer: Analyzer = englishAnalyzer): SectionTerms {
  return [analyzer.analyze([...section.parents, section.title].join('\n')), analyzer.analyze(section.text)];
}
