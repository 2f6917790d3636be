import type { AssistantIdentity } from '../retrieval/index';

/**
 * Does the customer ask for a person, in their own words? A small list of patterns per language
 * (ISO 639-1 code), which a KB extends in its identity file (`handoff_phrases`, a list for the
 * KB's language or lists by language code). English only for now; another language is one more
 * entry here (issue 26 makes the KB's language known; until then it is English).
 *
 * A pattern is words separated by spaces, matched as consecutive words of the message after
 * both are normalised the same way (lower case, accents and apostrophes dropped, anything but
 * letters and digits a word break): `a|b` is one word out of several, a trailing `?` makes a
 * word optional, and `^` / `$` tie the pattern to the start / end of the message.
 *
 *     talk|speak to|with a|an|the? person|human      "Can I talk to a person?"  "speak with the human"
 *     ^ agent|human please? $                        "agent"  "Human please!"  — not "what does an agent do?"
 */

const PERSON = 'person|persons|human|humans|agent|agents|representative|representatives|rep|operator|being|people';

export const PERSON_PATTERNS: Readonly<Record<string, readonly string[]>> = {
  en: [
    `talk|speak|chat|connect|transfer me|us? to|with a|an|the|some|your? real|live|actual|human? ${PERSON}|someone|somebody|staff|employee|manager|supervisor|support|team`,
    `want|need|like|prefer|get|reach a|an? real|live|actual? ${PERSON}`,
    'real|live|actual|human person|human|agent|operator|representative|being', // singular: "can real humans see my videos?" is not asking
    `${PERSON} please`,
    'contact|call|email|reach|ring customer? support|service',
    `contact|call|email|reach|ring a|the? ${PERSON}|someone|somebody`,
    'contact|call|email|reach|ring your|the support? team',
    'customer service|support representative|agent|person|rep|team',
    'are|r you|u a|an? real|actual? human|person|bot|robot|machine|ai|real',
    'is this|it a|an? real? bot|robot|human|person|ai|machine',
    'no|not|stop|hate the|a|an|this|your? bot|robot|chatbot|machine',
    'dont want|like a|an|the|this|your? bot|robot|chatbot|machine|ai',
    'do not want|like a|an|the|this|your? bot|robot|chatbot|machine|ai',
    `^ ${PERSON}|someone please? $`,
  ],
};

/** Text as patterns see it: lower case, no accents or apostrophes, words separated by one space. */
export function normalizeWords(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’ʼ`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern as a regular expression over normalised text with a space after every word. Throws on a pattern with no word. */
export function compilePattern(pattern: string): RegExp {
  const slots = pattern.trim().split(/\s+/);
  const start = slots[0] === '^' ? (slots.shift(), '^') : '(?:^| )';
  const end = slots.at(-1) === '$' ? (slots.pop(), '$') : '';
  const parts = slots.map((slot) => {
    const optional = slot.endsWith('?');
    const words = (optional ? slot.slice(0, -1) : slot).split('|').map(normalizeWords).filter(Boolean);
    if (words.length === 0) throw new Error(`pattern "${pattern}": the slot "${slot}" has no word`);
    const group = `(?:${words.map(escape).join('|')}) `;
    return optional ? `(?:${group})?` : group;
  });
  if (parts.length === 0) throw new Error(`pattern "${pattern}" has no word`);
  return new RegExp(`${start}${parts.join('')}${end}`);
}

export interface PersonMatcher {
  /** The pattern the text matches (the first), or undefined when it does not ask for a person. */
  match(text: string): string | undefined;
}

/**
 * The built-in patterns of `language` and the KB's own for it. Unknown languages get the KB's
 * patterns only (an empty matcher when it has none).
 */
export function personMatcher(extra: Readonly<Record<string, readonly string[]>> = {}, language = 'en'): PersonMatcher {
  const patterns = [...(PERSON_PATTERNS[language] ?? []), ...(extra[language] ?? [])].map((p) => ({ p, regex: compilePattern(p) }));
  return {
    match(text) {
      const words = `${normalizeWords(text)} `;
      return patterns.find(({ regex }) => regex.test(words))?.p;
    },
  };
}

const byIdentity = new WeakMap<object, PersonMatcher>();

/** The matcher of a KB in its language (`language` in the identity file) with its `handoff_phrases`, compiled once per load. */
export function personMatcherOf(identity: Pick<AssistantIdentity, 'handoffPhrases' | 'language'>): PersonMatcher {
  let matcher = byIdentity.get(identity);
  if (!matcher) {
    matcher = personMatcher(identity.handoffPhrases, identity.language);
    byIdentity.set(identity, matcher);
  }
  return matcher;
}
