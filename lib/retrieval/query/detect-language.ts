import { francAll } from 'franc-min';
import stopwordsIso from 'stopwords-iso' with { type: 'json' };
import { normalizeWord } from './analyzer';
import { CHAT_FILLERS, hasAnalyzer } from './languages';
import type { LanguageSource } from '../types';

/**
 * The customer's language, per turn: which language the query is analysed in and the reply is
 * asked for (docs/languages.md).
 *
 * 1. The candidates: the KB's languages and the languages the customer's side names (the
 *    widget's `lang`, the browser's Accept-Language), those with an analyzer. One candidate: it.
 * 2. The latest message, detected among the candidates: by its script where the script names one
 *    language (Hebrew, Arabic, Japanese kana, Korean Hangul, Chinese Han); else by its function
 *    words (a chat question is full of them: "how do I", "wie kann ich", "comment"): the
 *    candidate whose own stop words and chat fillers (stopwords-iso; those no other candidate
 *    has) it uses most, by a margin of VOTE_MARGIN words; else by franc's trigram model (`franc-min`), which is unreliable on short
 *    texts ("Can I get a refund?" scores German first), so it is taken only with at least
 *    MIN_LETTERS letters and a clear lead over the runner-up (DETECTION_LEAD).
 * 3. Else the latest and the previous message together (a short follow-up keeps the
 *    conversation's language), then the widget's `lang`, then the first Accept-Language the
 *    candidates have, then the KB's default language.
 */

export interface LanguageHints {
  /** The language the widget shows (its `lang`), as the chat request says. */
  widget?: string;
  /** The browser's languages (Accept-Language), most preferred first, as primary subtags. */
  accepted?: readonly string[];
}


export interface CustomerLanguage {
  language: string;
  source: LanguageSource;
}

/** Fewest letters a message needs before its detected language is believed. */
export const MIN_LETTERS = 12;
/** The runner-up's trigram score (franc: the best is 1) must be at most this for the best to be believed. */
export const DETECTION_LEAD = 0.92;

/** franc's ISO 639-3 codes of the languages it can tell apart, by our primary subtags. */
const FRANC_CODES: Readonly<Record<string, string>> = {
  en: 'eng', de: 'deu', fr: 'fra', es: 'spa', it: 'ita', pt: 'por', nl: 'nld', sv: 'swe', ru: 'rus', tr: 'tur', ar: 'arb',
};
const FROM_FRANC = new Map(Object.entries(FRANC_CODES).map(([ours, theirs]) => [theirs, ours]));

/** Scripts that name one language among ours, checked in order (kana before Han: Japanese text has both). */
const SCRIPTS: readonly (readonly [RegExp, string])[] = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Hangul}/u, 'ko'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Arabic}/u, 'ar'],
];

const LETTER = /\p{L}/gu;
const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/gu;
/** How many letters of another script a Chinese or Japanese character weighs against (see detectLanguage). */
const CJK_WEIGHT = 3;
const WORDS = /\p{L}+/gu;

/** Words more than the runner-up's a language's function words must count to win the vote. */
export const VOTE_MARGIN = 2;

const iso = stopwordsIso as Record<string, string[]>;
const functionWords = new Map<string, ReadonlySet<string>>();

function functionWordsOf(language: string): ReadonlySet<string> {
  let set = functionWords.get(language);
  if (!set) functionWords.set(language, (set = new Set([...(iso[language] ?? []), ...(CHAT_FILLERS[language] ?? [])].map(normalizeWord))));
  return set;
}

// Each candidate's function words that no other candidate has ("de" is French, Spanish and, in
// stopwords-iso's merged English list, English too: it tells none of them apart), per candidate set.
const distinctByCandidates = new Map<string, ReadonlyMap<string, ReadonlySet<string>>>();

function distinctFunctionWords(candidates: readonly string[]): ReadonlyMap<string, ReadonlySet<string>> {
  const key = [...candidates].sort().join(',');
  let distinct = distinctByCandidates.get(key);
  if (!distinct) {
    const all = candidates.map((c) => [c, functionWordsOf(c)] as const);
    distinct = new Map(all.map(([c, set]) => [c, new Set([...set].filter((w) => all.every(([o, other]) => o === c || !other.has(w))))]));
    if (distinctByCandidates.size >= 100) distinctByCandidates.clear();
    distinctByCandidates.set(key, distinct);
  }
  return distinct;
}

/** The candidate whose own function words (distinctFunctionWords) the text uses most, by VOTE_MARGIN words or more; undefined when none leads so. */
function voteByFunctionWords(text: string, candidates: readonly string[]): string | undefined {
  const words = (text.match(WORDS) ?? []).map(normalizeWord);
  const distinct = distinctFunctionWords(candidates);
  const counts = candidates.map((c) => {
    const set = distinct.get(c)!;
    return { c, n: words.filter((w) => set.has(w)).length };
  });
  counts.sort((a, b) => b.n - a.n);
  const [best, second] = counts;
  return best && best.n >= VOTE_MARGIN && best.n - (second?.n ?? 0) >= VOTE_MARGIN ? best.c : undefined;
}

/** The language of one text among `candidates`, or undefined when it cannot be told with confidence. */
export function detectLanguage(text: string, candidates: readonly string[]): string | undefined {
  const letters = text.match(LETTER)?.length ?? 0;
  if (letters === 0) return undefined;
  for (const [script, language] of SCRIPTS) {
    const inScript = text.match(new RegExp(script.source, 'gu'))?.length ?? 0;
    // Japanese writes kanji beside its kana: a text with kana counts both. A Chinese or Japanese
    // character carries about a Latin word's meaning: it weighs CJK_WEIGHT letters, so English UI
    // labels quoted in a Japanese sentence ("「Settings」を開き、…をクリックします") do not outweigh it.
    const counted = language === 'ja' && inScript > 0 ? (text.match(JAPANESE)?.length ?? 0) : inScript;
    const weight = language === 'ja' || language === 'zh' ? CJK_WEIGHT : 1;
    if (counted * weight >= letters - counted && candidates.includes(language)) return language;
  }
  const voted = voteByFunctionWords(text, candidates);
  if (voted) return voted;
  if (letters < MIN_LETTERS) return undefined;
  const only = candidates.flatMap((c) => (FRANC_CODES[c] ? [FRANC_CODES[c]!] : []));
  // franc knows one of several candidates (Japanese and English: only English): it cannot choose, only name that one.
  if (only.length === 0 || (only.length === 1 && candidates.length > 1)) return undefined;
  const [best, second] = francAll(text, { only, minLength: MIN_LETTERS });
  if (!best || best[0] === 'und') return undefined;
  if (only.length > 1 && second && second[1] > DETECTION_LEAD) return undefined;
  return FROM_FRANC.get(best[0]);
}

/** The turn's customer language (see the module comment); `kbLanguages`: the KB's languages, its default first. */
export function customerLanguage(
  { question, previous }: { question: string; previous?: string },
  kbLanguages: readonly string[],
  hints: LanguageHints = {},
): CustomerLanguage {
  const fallback = kbLanguages[0] ?? 'en';
  const hinted = [hints.widget, ...(hints.accepted ?? [])].filter((l): l is string => l !== undefined && hasAnalyzer(l));
  const candidates = [...new Set([...kbLanguages, ...hinted])];
  if (candidates.length <= 1) return { language: candidates[0] ?? fallback, source: 'single' };
  const detected = detectLanguage(question, candidates);
  if (detected) return { language: detected, source: 'detected' };
  const withPrevious = previous === undefined ? undefined : detectLanguage(`${previous}\n${question}`, candidates);
  if (withPrevious) return { language: withPrevious, source: 'conversation' };
  if (hints.widget && candidates.includes(hints.widget)) return { language: hints.widget, source: 'widget' };
  const accepted = hints.accepted?.find((l) => candidates.includes(l));
  if (accepted) return { language: accepted, source: 'accept-language' };
  return { language: fallback, source: 'kb-default' };
}
