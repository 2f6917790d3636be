/**
 * Language tags as the app uses them: the primary subtag of a BCP 47 tag, lowercase ("de-AT" →
 * "de", "zh-Hans" → "zh", "nb" → "no"), the writing direction, and the language's name. Pure
 * and small, so the browser can load it (client.ts): the widget sets `lang` and `dir` from it.
 */

/** Languages written right to left (primary subtags). */
const RIGHT_TO_LEFT = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'dv', 'ug', 'ckb']);

/** Primary subtags that name the same analyzer: Norwegian Bokmål and Nynorsk are Norwegian; `iw` is Hebrew's old tag. */
const SAME_AS: Readonly<Record<string, string>> = { nb: 'no', nn: 'no', iw: 'he', ji: 'yi', in: 'id' };

const TAG = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/;

/** "de-AT" → "de"; undefined for anything that is not a language tag ("*", "", "x-klingon"). */
export function languageOf(tag: string | undefined): string | undefined {
  const t = tag?.trim();
  if (!t || !TAG.test(t)) return undefined;
  const primary = t.split(/[-_]/)[0]!.toLowerCase();
  return SAME_AS[primary] ?? primary;
}

/** The languages of an Accept-Language header, most preferred first (q=0 left out), as primary subtags without repeats. */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  const weighted = header.split(',').flatMap((part, i) => {
    const [tag, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    const language = languageOf(tag);
    return language && weight > 0 ? [{ language, weight, i }] : [];
  });
  weighted.sort((a, b) => b.weight - a.weight || a.i - b.i);
  return [...new Set(weighted.map((w) => w.language))];
}

/** The writing direction of a language, for the `dir` attribute. */
export function textDirection(language: string | undefined): 'rtl' | 'ltr' {
  return language && RIGHT_TO_LEFT.has(languageOf(language) ?? '') ? 'rtl' : 'ltr';
}

/** The language's name in English ("de" → "German"), or the tag itself when ICU has no name for it. */
export function languageName(language: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(language);
    return name ?? language;
  } catch {
    return language;
  }
}
