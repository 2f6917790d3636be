import { type Analyzer, englishAnalyzer } from '../query/analyzer';
import type { Section } from '../types';

/**
 * A section's terms for BM25 (select/build-index.ts): its heading path's (parents and title)
 * and its text's. Computed while the index is built, or ahead of it on the parse workers for
 * the sections in English (parse-worker.ts), which the index build then takes as they are.
 */
export type SectionTerms = readonly [heading: string[], body: string[]];

export function sectionTerms(section: Pick<Section, 'parents' | 'title' | 'text'>, analyzer: Analyzer = englishAnalyzer): SectionTerms {
  return [analyzer.analyze([...section.parents, section.title].join('\n')), analyzer.analyze(section.text)];
}
