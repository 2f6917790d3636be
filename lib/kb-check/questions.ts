import { createAnalyzer, selectContext, type Analyzer, type RetrievalIndex, type Section, type SynonymGroup } from '../retrieval/index';
import { ruleReader } from './rule-languages';
import type { QuestionResult } from './types';

/**
 * The questions a customer would ask when a rule applies, and whether the selector sends
 * the rule's section for them.
 *
 * Key words of a rule sentence (at most three policy words, or two content words):
 * 1. its policy words ("refund", "discount", "money back", …; see rules.ts), else
 * 2. the policy words of its section's title path (a sentence in "How refund requests
 *    are reviewed" is about refunds even if it never says so), else
 * 3. its content words, leaving out the words that make it a rule (promise, tell,
 *    decided, team, customer, …), preferring words that other sections share (a word
 *    only this section uses is wording, not a topic customers ask about);
 * rarest first across the scored sections (fewest sections containing it).
 *
 * Questions, in order (the first is the rule's own question):
 * - per key word: "can I get a refund?" for things a customer asks to get (refund,
 *   discount, credit, compensation, exception, …), "can I get my money back?",
 *   "what is the price?" for price words, else "what about <word>?";
 * - per key word, up to two other entries of its synonym groups ("what about
 *   reimbursement?"), longest entries first, so the check covers the words customers
 *   use, not only the KB's.
 * Questions with the same analyzed terms are asked once.
 *
 * In German, French and Spanish (rule-lexicons.ts) the same steps run with the language's
 * policy words, each with its own question ("Kann ich eine Rückerstattung bekommen?"), else
 * "Was ist mit <word>?" / "Qu'en est-il de <word> ?" / "¿Qué pasa con <word>?", its rule words,
 * and the language's analyzer; a section's questions are asked as a customer on a widget in the
 * section's language would ask them.
 */

/** Common words that name no topic a customer would ask about. */
const GENERIC_WORDS = new Set([
  'come', 'comes', 'came', 'go', 'goes', 'get', 'gets', 'got', 'use', 'uses', 'used', 'using',
  'keep', 'keeps', 'take', 'takes', 'show', 'shows', 'see', 'know', 'want', 'like', 'way', 'time',
  'short', 'long', 'first', 'new', 'good', 'right', 'page', 'part', 'case', 'else', 'even',
  'information', 'details', 'question', 'questions', 'product', 'answers',
]);

/** At most this many key words (policy words) per rule; two when they come from plain content words. */
const MAX_KEY_WORDS = 3;

/** The analyzer a language's terms are counted with here: English as retrieval has it, others without the KB's vocabulary. */
const analyzers = new Map<string, Analyzer>();
export function termAnalyzer(language = 'en'): Analyzer {
  let analyzer = analyzers.get(language);
  if (!analyzer) analyzers.set(language, (analyzer = createAnalyzer(language)));
  return analyzer;
}

/** Document frequency of each analyzed term over the scored (unpinned) sections, each read in its own language. */
export function documentFrequencies(pool: readonly Section[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const s of pool) {
    const { analyze } = termAnalyzer(s.language);
    for (const t of new Set(analyze(`${[...s.parents, s.title].join(' ')} ${s.text}`))) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return df;
}

/** The key words of a rule sentence of `section` (see the module comment), at most three; read in the section's language, which has a rule reader. */
export function ruleKeyWords(sentence: string, section: Section, df: ReadonlyMap<string, number>): string[] {
  const language = section.language ?? 'en';
  const { analyze, contentWords } = termAnalyzer(language);
  const { policyWords, ruleWords } = ruleReader(language)!;
  const rarity = (w: string) => Math.min(...analyze(w).map((t) => df.get(t) ?? 0));
  const rarestFirst = (words: string[]) => [...words].sort((a, b) => rarity(a) - rarity(b));
  const fromSentence = policyWords(sentence);
  if (fromSentence.length) return rarestFirst(fromSentence).slice(0, MAX_KEY_WORDS);
  const fromTitle = policyWords([...section.parents, section.title].join(' '));
  if (fromTitle.length) return rarestFirst(fromTitle).slice(0, MAX_KEY_WORDS);
  const words = contentWords(sentence).filter(
    (w) => !ruleWords.has(w) && !GENERIC_WORDS.has(w) && !/^\d/.test(w) && w.length > 2 && analyze(w).length > 0,
  );
  // Words found only in this section ("concrete") are its wording, not a topic a customer
  // asks about: prefer words other sections share, the rarest of them first.
  // (GENERIC_WORDS drops words such as "comes" or "details" that name no topic.)
  const shared = words.filter((w) => rarity(w) >= 2);
  return rarestFirst(shared.length ? shared : words).slice(0, 2);
}

/**
 * Questions for a rule in `language`: its own question(s) first, then synonym variants (the
 * language's groups); no two with the same terms.
 */
export function questionsForRule(keyWords: readonly string[], allSynonyms: readonly SynonymGroup[], language = 'en', kbLanguage = 'en'): string[] {
  const { analyze } = termAnalyzer(language);
  const { questionFor, about } = ruleReader(language)!;
  const synonyms = allSynonyms.filter((g) => (g.language ?? kbLanguage) === language);
  const questions: string[] = [];
  const seen = new Set<string>();
  const add = (q: string) => {
    const key = [...new Set(analyze(q))].sort().join(' ');
    if (seen.has(key)) return;
    seen.add(key);
    questions.push(q);
  };
  for (const word of keyWords) add(questionFor(word));
  for (const word of keyWords) {
    const terms = analyze(word).join(' ');
    for (const group of synonyms) {
      if (!group.terms.some((entry) => entry.join(' ') === terms)) continue;
      const others = [...new Map(group.words.map((w, i) => [group.terms[i]!.join(' '), w] as const)).entries()]
        .filter(([t]) => t !== terms)
        .map(([, w]) => w)
        .sort((a, b) => b.length - a.length)
        .slice(0, 2);
      for (const other of others) add(about(other));
    }
  }
  return questions;
}

/**
 * Asks the selector one question and reports what happened to one section: asked as on a widget
 * in `language` (the section's), so a short question that detection cannot place is read in it.
 */
export function askFor(index: RetrievalIndex, sectionId: string, question: string, language?: string): QuestionResult {
  const e = selectContext(index, [question], undefined, language ? { widget: language } : undefined);
  const verdict = e.sections.find((v) => v.id === sectionId);
  const sentInstead = e.sections
    .filter((v) => v.reason === 'scored' && v.id !== sectionId)
    .slice(0, 3)
    .map((v) => v.id);
  const outrankedBy =
    verdict?.rank === undefined
      ? []
      : e.sections.filter((v) => v.sent && v.rank !== undefined && v.rank < verdict.rank!).map((v) => v.id);
  return {
    question,
    sent: e.sentIds.includes(sectionId),
    reason: verdict?.reason ?? 'no-match',
    rank: verdict?.rank,
    score: verdict?.score ?? 0,
    tokens: verdict?.tokens ?? 0,
    available: e.budget - e.tokens.pinned,
    sentInstead,
    outrankedBy,
  };
}

/** "ranked 4th, did not fit" / "no match" / "sent by the floor" — for messages. */
export function describeResult(r: QuestionResult): string {
  if (r.sent) return r.reason === 'floor' ? 'sent (by the floor, in file order)' : `sent (ranked ${r.rank})`;
  if (r.reason === 'over-budget') {
    return `ranked ${r.rank}, did not fit (${r.tokens} tokens; ${r.sentInstead.length ? `sent instead: ${r.sentInstead.join(', ')}` : 'budget used up'})`;
  }
  return 'no match: none of its words are in the question';
}
