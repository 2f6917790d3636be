import { ANALYZED_LANGUAGES, detectLanguage, ENGLISH, hasAnalyzer, languageName, type Section } from '../../retrieval/index';
import type { Finding } from '../types';
import type { Check } from './types';

/** Fewest letters a file needs before its detected language is compared with its declared one. */
const MIN_LETTERS = 400;
/** How much of a file's prose is read to detect its language. */
const SAMPLE_CHARS = 20_000;
/**
 * Fewest letters of prose a section needs before its detected language is compared with its
 * file's: below it, a section of commands and names reads as English in any language.
 */
const SECTION_MIN_LETTERS = 300;
/** Sections named in a file's finding (the rest are counted). */
const SECTIONS_NAMED = 5;

const letterCount = (text: string) => text.match(/\p{L}/gu)?.length ?? 0;

/**
 * The language `text` reads as when it is not `declared`: detected among every analyzed language,
 * then confirmed head to head with the declared one. Among all of them a language's function
 * words shared with a neighbour do not count (German "die", "und" are Dutch or Danish too), so a
 * German file with one English section in four read as English.
 */
function readsAs(text: string, declared: string): string | undefined {
  const detected = detectLanguage(text, ANALYZED_LANGUAGES);
  if (!detected || detected === declared) return undefined;
  return detectLanguage(text, [declared, detected]) === detected ? detected : undefined;
}

/** At most SAMPLE_CHARS of a text, taken from ten places spread over it (a file may start in one language and go on in another). */
function spread(text: string): string {
  if (text.length <= SAMPLE_CHARS) return text;
  const piece = SAMPLE_CHARS / 10;
  const step = (text.length - piece) / 9;
  return Array.from({ length: 10 }, (_, i) => text.slice(Math.round(i * step), Math.round(i * step) + piece)).join('\n');
}

/**
 * A file's prose: code (fenced, indented, inline), quotations, link targets and URLs left out:
 * they are often English in any language (`apt-get`, `#_package_management`, an English-only
 * app's message quoted in a German page: „Sync paused: you are offline", a Japanese page's
 * 「Settings」).
 */
function prose(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, ' ')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/(?:^|\n\n)(?:(?: {4}|\t)[^\n]*(?:\n|$))+/g, '\n\n')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/„[^“”\n]{1,300}[“”]|“[^”\n]{1,300}”|«[^»\n]{1,300}»|"[^"\n]{1,300}"|「[^」\n]{1,300}」|『[^』\n]{1,300}』/g, ' ')
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
  kinds: ['language-mismatch', 'section-language-mismatch', 'language-unsupported'],
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
      if (letterCount(sample) < MIN_LETTERS) continue;
      const detected = readsAs(sample, language);
      if (!detected) continue;
      findings.push(wholeFile(file, line, language, detected));
    }
    const whole = new Set(findings.map((f) => f.file));
    // An English-only KB is not read section by section (the files were read above): the check is for translations.
    const onlyEnglish = kb.sections.every((s) => (s.language ?? ENGLISH) === ENGLISH);
    if (!onlyEnglish) findings.push(...untranslatedSections(kb.sections.filter((s) => !whole.has(s.source))));
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

interface ForeignSection {
  title: string;
  line: number;
  detected: string;
}

/**
 * Sections that read as another language than their file's, one finding per file: a translation
 * that left parts in the original (the French Debian Reference has 87 sections in English in
 * files that read as French), analysed with the file's analyzer and found only by the words a
 * question in the file's language shares with them.
 */
function untranslatedSections(sections: readonly Section[]): Finding[] {
  const byFile = new Map<string, { language: string; sections: number; foreign: ForeignSection[] }>();
  for (const s of sections) {
    const language = s.language ?? ENGLISH;
    const file = byFile.get(s.source) ?? { language, sections: 0, foreign: [] };
    byFile.set(s.source, file);
    file.sections++;
    const text = prose(`${s.title}\n${s.text}`);
    if (letterCount(text) < SECTION_MIN_LETTERS) continue;
    const detected = readsAs(text, language);
    if (detected) file.foreign.push({ title: s.title, line: s.line, detected });
  }
  return [...byFile].filter(([, { foreign }]) => foreign.length > 0).map(([file, { language, sections, foreign }]) => foreignSections(file, language, sections, foreign));
}

/** One file's finding: its sections in another language, or (all of them in one) the file itself, too short for the file's own check. */
function foreignSections(file: string, language: string, sections: number, foreign: ForeignSection[]): Finding {
  const detected = [...new Set(foreign.map((f) => f.detected))];
  if (foreign.length === sections && detected.length === 1) return wholeFile(file, foreign[0]!.line, language, detected[0]!);
  const one = foreign.length === 1;
  const named = foreign.slice(0, SECTIONS_NAMED).map((f) => `"${f.title}" (line ${f.line})`).join(', ');
  const more = foreign.length > SECTIONS_NAMED ? `, and ${foreign.length - SECTIONS_NAMED} more` : '';
  const name = languageName(language);
  return {
    kind: 'section-language-mismatch',
    level: 'warning',
    file,
    line: foreign[0]!.line,
    message: `${foreign.length} section${one ? '' : 's'} of a file in ${name} (${language}) read${one ? 's' : ''} as ${detected.map((d) => `${languageName(d)} (${d})`).join(' or ')}: ${named}${more}. ${one ? 'It is' : 'They are'} analysed as ${name}, and questions in ${name} match ${one ? 'it' : 'them'} only through the words they share (commands, names)`,
    suggestion: one
      ? 'translate it, or move it into a file of its own declared in the language it is written in'
      : 'translate them, or move them into files of their own declared in the language they are written in',
    details: { declared: language, sections: foreign },
  };
}

/** A file that reads as another language than it declares. */
function wholeFile(file: string, line: number, declared: string, detected: string): Finding {
  const html = /\.html?$/i.test(file);
  return {
    kind: 'language-mismatch',
    level: 'warning',
    file,
    line,
    message: `declared ${languageName(declared)} (${declared}) but reads as ${languageName(detected)} (${detected}): its sections are analysed as ${languageName(declared)}, so questions in ${languageName(detected)} find them badly`,
    suggestion: html ? `set <html lang="${detected}"> in the file, or move it out of this KB` : `add front matter \`lang: ${detected}\` (or translate the page)`,
    details: { declared, detected },
  };
}
