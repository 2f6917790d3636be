import { headingPath } from '../../retrieval/index';
import type { Section } from '../../retrieval/index';
import type { Finding } from '../types';
import type { Check } from './types';

/** Sections shorter than this are left out: a repeated "Stable." or "See also" costs next to nothing. */
const MIN_TOKENS = 50;

/** A section's text with its whitespace runs made one space: what "word for word" compares. */
const wordForWord = (s: Section) => s.text.replace(/\s+/g, ' ').trim();

/**
 * Sections whose text another file already has word for word (a docs folder holding each page
 * as `.md` and `.html`, or an `all.html` of every page): a question that matches one matches
 * the other as well, and both are sent, spending the budget twice on one text. One warning per
 * pair of files, on the later one in file order. Pinned sections are left out: a pinned section
 * repeated in an unpinned file is `unpinned-rule` info.
 */
export const repeatedSections: Check = {
  id: 'repeated-sections',
  kinds: ['section-repeated'],
  run({ kb }) {
    const first = new Map<string, Section>();
    const pairs = new Map<string, { file: string; of: string; sections: Section[] }>();
    for (const s of kb.sections) { // in file order (KnowledgeBase.sections)
      if (s.pinned || s.tokens < MIN_TOKENS) continue;
      const text = wordForWord(s);
      const earlier = first.get(text);
      if (!earlier) {
        first.set(text, s);
        continue;
      }
      if (earlier.source === s.source) continue;
      const key = `${s.source}\n${earlier.source}`;
      const pair = pairs.get(key) ?? { file: s.source, of: earlier.source, sections: [] };
      pair.sections.push(s);
      pairs.set(key, pair);
    }
    const findings = [...pairs.values()].map(({ file, of, sections }): Finding => {
      const example = sections[0]!;
      const tokens = sections.reduce((n, s) => n + s.tokens, 0);
      const count = sections.length === 1 ? 'a section' : `${sections.length} sections`;
      return {
        kind: 'section-repeated',
        level: 'warning',
        file,
        line: example.line,
        sectionId: example.id,
        message: `${count} (~${tokens} tokens) ${sections.length === 1 ? 'repeats' : 'repeat'} ${of} word for word (first: "${headingPath(example)}"): a question that matches one sends both, spending the budget twice`,
        suggestion: 'keep one copy in the knowledge base: move the other file out of the folder, or into a hidden folder (.name), which is not read',
        details: { of, sections: sections.map((s) => s.id) },
      };
    });
    return { findings };
  },
};
