import { ANALYZED_LANGUAGES, detectLanguage, ENGLISH, hasAnalyzer, languageName } from '../../retrieval/index';
import type { Finding } from '../types';
import type { Check } from './types';

/** Fewest letters a file needs before its detected language is compared with its declared one. */
const MIN_LETTERS = 400;
/** How much of a file's prose is read to detect its language. */
const SAMPLE_CHARS = 20_000;

/** At most SAMPLE_CHARS of a text, taken from ten places spread over it (a file may start in one language and go on in another). */
function spread(text: string): string {
  if (text.length <= SAMPLE_CHARS) return text;
  const piece = SAMPLE_CHARS / 10;
  const step = (text.length - piece) / 9;
  return Array.from({ length: 10 }, (_, i) => text.slice(Math.round(i * step), Math.round(i * step) + piece)).join('\n');
}

/** A file's prose: code, link targets and URLs left out (they are often English in any language: `apt-get`, `#_package_management`). */
function prose(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/https?:\/\/\S+/g, ' ');
}

/**
 * The KB's languages: a file whose text reads as another language than the one it is declared
 * in (its front matter `lang:` or `<html lang>`, else the identity file's `language:`), so it
 * is analysed with the wrong analyzer; and sections in a language with no analyzer of its own.
 */
export const languages: Check = {
  id: 'languages',
  kinds: ['language-mismatch', 'language-unsupported'],
  run({ kb }) {
    const byFile = new Map<string, { language: string; line: number; text: string[] }>();
    for (const s of kb.sections) {
      const file = byFile.get(s.source) ?? { language: s.language ?? ENGLISH, line: s.line, text: [] };
      file.text.push(s.title, s.text);
      byFile.set(s.source, file);
    }
    const findings: Finding[] = [];
    for (const [file, { language, line, text }] of byFile) {
      const sample = spread(prose(text.join('\n')));
      if ((sample.match(/\p{L}/gu)?.length ?? 0) < MIN_LETTERS) continue;
      const detected = detectLanguage(sample, ANALYZED_LANGUAGES);
      if (!detected || detected === language) continue;
      const html = /\.html?$/i.test(file);
      findings.push({
        kind: 'language-mismatch',
        level: 'warning',
        file,
        line,
        message: `declared ${languageName(language)} (${language}) but reads as ${languageName(detected)} (${detected}): its sections are analysed as ${languageName(language)}, so questions in ${languageName(detected)} find them badly`,
        suggestion: html ? `set <html lang="${detected}"> in the file, or move it out of this KB` : `add front matter \`lang: ${detected}\` (or translate the page)`,
        details: { declared: language, detected },
      });
    }
    const unsupported = new Map<string, Set<string>>();
    for (const s of kb.sections) {
      const language = s.language ?? ENGLISH;
      if (hasAnalyzer(language)) continue;
      const files = unsupported.get(language) ?? new Set<string>();
      files.add(s.source);
      unsupported.set(language, files);
    }
    for (const [language, files] of unsupported) {
      const sections = kb.sections.filter((s) => s.language === language).length;
      findings.push({
        kind: 'language-unsupported',
        level: 'warning',
        file: [...files][0]!,
        message: `${sections} section${sections === 1 ? '' : 's'} in ${languageName(language)} (${language}), which has no analyzer: words are found by Unicode segmentation and lowercased, with no stop words and no stemming (${[...files].slice(0, 5).join(', ')}${files.size > 5 ? ', …' : ''})`,
        suggestion: `languages with an analyzer: ${ANALYZED_LANGUAGES.join(', ')}`,
        details: { language, sections, files: [...files] },
      });
    }
    return { findings };
  },
};
