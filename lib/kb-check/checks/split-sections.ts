import { headingPath } from '../../retrieval/index';
import type { Section } from '../../retrieval/index';
import type { Finding } from '../types';
import type { Check } from './types';

/** Sections too long to send whole, sent as parts (lib/retrieval/select/split.ts). */
export const splitSections: Check = {
  id: 'split-sections',
  kinds: ['section-split'],
  run({ index }) {
    if (!index) return { findings: [] };
    const parts = new Map<string, Section[]>();
    for (const s of index.sections) if (s.part) parts.set(s.part.sectionId, [...(parts.get(s.part.sectionId) ?? []), s]);
    const findings = [...parts].map(([sectionId, list]): Finding => {
      const first = list[0]!;
      const tokens = list.reduce((n, s) => n + s.tokens, 0);
      return {
        kind: 'section-split',
        level: 'info',
        file: first.source,
        line: first.line,
        sectionId,
        message: `"${headingPath(first)}" (~${tokens} tokens) is longer than ${index.maxPartTokens} tokens: it is sent as ${list.length} parts, each scored on its own`,
        suggestion: 'fine as it is; sub-headings would give the parts titles of their own',
        details: { parts: list.map((s) => ({ id: s.id, tokens: s.tokens })) },
      };
    });
    return { findings };
  },
};
