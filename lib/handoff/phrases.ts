import { identityLanguages, type AssistantIdentity } from '../retrieval/index';

/**
 * Does the customer ask for a person, in their own words? A small list of patterns per language
 * (ISO 639-1 code: English, German, French, Spanish built in), which a KB extends in its identity
 * file (`handoff_phrases`, a list for the KB's language or lists by language code). A KB's matcher
 * uses every language it has text in (`language`, its `translations`), the languages of its own
 * patterns, and English always (customers often write English to any KB).
 *
 * A pattern is words separated by spaces, matched as consecutive words of the message after
 * both are normalised the same way (lower case, accents and apostrophes dropped, anything but
 * letters and digits a word break): `a|b` is one word out of several, a trailing `?` makes a
 * word optional, and `^` / `$` tie the pattern to the start / end of the message.
 *
 *     talk|speak to|with a|an|the? person|human      "Can I talk to a person?"  "speak with the human"
 *     ^ agent|human please? $                        "agent"  "Human please!"  — not "what does an agent do?"
 *
 * Words that name a person are also everyday words in product questions ("add a person to my
 * team", "Mitarbeiter hinzufügen", "une personne de plus"), so a pattern pairs them with a verb
 * of talking or reaching, an adjective such as "real", or stands alone as the whole message.
 */

const PERSON = 'person|persons|human|humans|agent|agents|representative|representatives|rep|operator|being|people';

const DE_PERSON =
  'mensch|menschen|person|mitarbeiter|mitarbeiterin|mitarbeitenden|berater|beraterin|kundenberater|kundenberaterin|agent|agenten|ansprechpartner|ansprechpartnerin|servicemitarbeiter|supportmitarbeiter';
const DE_SUPPORT = 'support|kundenservice|kundendienst|kundensupport|supportteam|serviceteam|hotline';
const FR_PERSON = 'humain|humaine|personne|conseiller|conseillere|agent|lagent|operateur|operatrice|loperateur|interlocuteur|interlocutrice|employe|employee|quelquun|lhumain';
const ES_PERSON = 'persona|humano|humana|agente|asesor|asesora|operador|operadora|representante|ejecutivo|ejecutiva|empleado|empleada|alguien|especialista';

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
  de: [
    `mit|an|zu einem|einer|einen|eine|dem|der|den|die|ihrem|ihrer|ihren|eurem? echten|richtigen|realen|menschlichen|lebenden? ${DE_PERSON}|${DE_SUPPORT}|jemandem|jemand sprechen|reden|chatten|schreiben|telefonieren|verbinden|verbunden|weiterleiten|weitergeleitet|durchstellen|ubergeben`,
    `verbinden|verbinde|verbindet|leiten|leite|leitet|stellen|stelle|stellt sie|du|ihr? mich|uns mit|an|zu|durch einem|einer|einen|eine|dem|der|den? echten? ${DE_PERSON}|${DE_SUPPORT}|jemandem`,
    'will|mochte|brauche|hatte|wunsche|suche|bitte einen|eine? echten|echte|richtigen|richtige? menschen|mensch', // "eine Person", "einen Mitarbeiter": only with a verb of reaching (below) or "echte"
    `einen|eine|ein? echten|echte|richtigen|richtige|realen|reale? ${DE_PERSON} sprechen|erreichen|kontaktieren|anrufen`,
    'echten|echter|echte|echtes|richtigen|richtiger|richtige|realen|realer|reale|lebenden|lebender mensch|menschen|person|mitarbeiter|mitarbeiterin|berater|beraterin',
    `${DE_SUPPORT} kontaktieren|erreichen|anrufen|anschreiben|sprechen`,
    `kontaktiere|erreiche|kontaktieren|erreichen|rufe|ruft ich|man|wir? den|die|das|ihren|ihre|euren? ${DE_SUPPORT}|mitarbeiter|menschen`,
    'bist|seid|sind du|ihr|sie ein|eine? echter|echte|echtes|richtiger|richtige? mensch|person|bot|roboter|chatbot|ki|maschine|computer',
    'ist das|dies|hier ein|eine? echter|echte? mensch|person|bot|roboter|chatbot|ki|maschine|computer $',
    'bot|roboter|chatbot|ki|maschine|computer oder ein|eine? mensch|person|mitarbeiter',
    'will|mochte|moechte keinen|kein bot|roboter|chatbot|maschine|computer',
    'nicht mit einem|einer|dem|der? bot|roboter|chatbot|maschine|computer|ki sprechen|reden|chatten|schreiben',
    'mensch|menschen|mitarbeiter|mitarbeiterin|berater|beraterin|agent bitte',
    `^ ein|einen|eine? ${DE_PERSON}|jemand bitte? $`,
  ],
  fr: [
    `parler|discuter|echanger|chatter|parle|discute a|avec|au|aux un|une|le|la|l|des? vrai|vraie|veritable|vrais|vraies|etre? ${FR_PERSON}|support|service|sav|assistance`,
    'veux|voudrais|souhaite|souhaiterais|jaimerais|aimerais|besoin|prefere|prefererais|demande un|une|dun|dune vrai|vraie|veritable? humain|humaine|conseiller|conseillere|agent|operateur|operatrice|interlocuteur|interlocutrice', // not "personne": also "nobody", and "une personne de plus"
    'vrai|vraie|veritable humain|humaine|personne|conseiller|conseillere|agent|operateur|operatrice|interlocuteur|interlocutrice',
    'etre humain',
    `en relation|contact avec un|une|le|la|l|des? vrai|vraie? ${FR_PERSON}|support|service|sav|assistance`,
    `passez|passe|passer|transferez|transfere|transferer|redirigez|redirige|rediriger moi|nous a|au|vers? un|une|le|la|l? vrai|vraie? ${FR_PERSON}|support|service|sav|assistance`,
    'contacter|joindre|appeler|ecrire|contacte|joins|joint a|au? le|la|l|un|une|votre|vos? service|support|sav|assistance|hotline|conseiller|conseillere|agent|lagent|humain|lassistance',
    'service client|clientele|apres',
    'etes|es vous|tu un|une? vrai|vraie? robot|bot|humain|humaine|personne|ia|machine|chatbot|ordinateur',
    'vous|tu etes|es un|une? vrai|vraie? robot|bot|humain|humaine|personne|ia|machine|chatbot|ordinateur',
    'cest|ce un|une robot|bot|chatbot|ia|machine|ordinateur|humain $',
    'robot|bot|chatbot|ia|machine ou un|une? humain|personne|conseiller',
    'pas|plus de|dun|un|une? bot|robot|chatbot|machine',
    'pas|plus parler|discuter a|avec un|une|le|la? bot|robot|chatbot|machine|ia',
    'humain|conseiller|conseillere|agent|operateur|operatrice|interlocuteur svp|stp|sil',
    '^ un|une? humain|conseiller|conseillere|agent|operateur|operatrice|interlocuteur|quelquun svp|stp? $',
  ],
  es: [
    `hablar|hablo|habla|chatear|conversar|comunicarme|comunicarse|comunicar|contactar|contactarme|contactarse|pasame|paseme|pasarme|pasas|pasa|pasan|ponme|pongame|transfiereme|transfierame|transferirme|conectame|conecteme|conectarme|comuniqueme|comunicame con|a|al un|una|el|la|algun|alguna? real|ser|verdadero|verdadera? ${ES_PERSON}|soporte|atencion|servicio|asistencia`,
    'quiero|necesito|quisiera|prefiero|deseo|busco|pido un|una|a? humano|humana|agente|asesor|asesora|operador|operadora|representante', // not "persona": "quiero una persona más en mi cuenta"
    'persona|agente|humano|operador|operadora|asesor|asesora|representante real|humano|humana|verdadera|verdadero',
    'persona|agente de verdad',
    'un|una ser humano',
    'atencion|servicio al|a|de cliente|clientes|cliente',
    'contactar|contacto|llamar|escribir|escribirle|llamo|contacto a|al|con|el|la? soporte|servicio|atencion|asistencia|agente|asesor',
    'eres|sos un|una? bot|robot|humano|humana|persona|ia|maquina|chatbot|real',
    'es usted un|una? bot|robot|humano|humana|persona|ia|maquina|chatbot|real',
    'esto es|eres un|una? bot|robot|chatbot|ia|maquina|humano|persona $',
    'hablo con un|una|el|la? bot|robot|maquina|chatbot|ia',
    'bot|robot|chatbot|ia|maquina o un|una? humano|persona|agente',
    'no quiero|deseo hablar? con? un|una|el|al? bot|robot|chatbot|maquina|ia',
    'humano|humana|agente|asesor|asesora|operador|operadora|representante por favor',
    '^ un|una? humano|humana|agente|asesor|asesora|operador|operadora|representante|alguien $',
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

/** One word slot of a pattern: its words (an alternative of several words, as `e-mail` normalises to, is a phrase). */
interface Slot {
  words: ReadonlySet<string>;
  phrases: readonly (readonly string[])[];
  optional: boolean;
}

/** A pattern, compiled: matched word by word, never as a regular expression (see `testWords`). */
export interface PersonPattern {
  /** Does `text` hold the pattern (normalised here, as `normalizeWords`)? */
  test(text: string): boolean;
  /** The same for text already normalised and split into its words. */
  testWords(words: readonly string[]): boolean;
}

/** Text's words as patterns see them (normalizeWords, split). */
export const wordsOf = (text: string): string[] => normalizeWords(text).split(' ').filter(Boolean);

/** A pattern's slots and anchors. Throws on a pattern with no word, or a slot with none. */
export function compilePattern(pattern: string): PersonPattern {
  const tokens = pattern.trim().split(/\s+/);
  const atStart = tokens[0] === '^' ? (tokens.shift(), true) : false;
  const atEnd = tokens.at(-1) === '$' ? (tokens.pop(), true) : false;
  const slots: Slot[] = tokens.filter(Boolean).map((token) => {
    const optional = token.endsWith('?');
    const alternatives = (optional ? token.slice(0, -1) : token).split('|').map(wordsOf).filter((words) => words.length > 0);
    if (alternatives.length === 0) throw new Error(`pattern "${pattern}": the slot "${token}" has no word`);
    return { words: new Set(alternatives.filter((a) => a.length === 1).map((a) => a[0]!)), phrases: alternatives.filter((a) => a.length > 1), optional };
  });
  if (slots.length === 0) throw new Error(`pattern "${pattern}" has no word`);
  const testWords = (words: readonly string[]) => matchesWords(slots, atStart, atEnd, words);
  return { test: (text) => testWords(wordsOf(text)), testWords };
}

const phraseAt = (words: readonly string[], at: number, phrase: readonly string[]) => phrase.every((word, i) => words[at + i] === word);

/**
 * Whether the slots match consecutive words of `words` (from the first word with `atStart`, to
 * the last with `atEnd`). Each (word position, slot) pair is looked at once: time is linear in
 * the words times the slots, whatever the pattern. A regular expression of optional groups
 * backtracks instead: a KB's `a? a? … a? b` (22 optional words, 68 characters) took seconds
 * for each message of repeated words.
 */
function matchesWords(slots: readonly Slot[], atStart: boolean, atEnd: boolean, words: readonly string[]): boolean {
  const width = slots.length + 1;
  // reached[p * width + i]: the first i slots match words ending just before position p.
  const reached = new Uint8Array((words.length + 1) * width);
  for (let p = 0; p <= words.length; p++) {
    const row = p * width;
    if (p === 0 || !atStart) reached[row] = 1;
    for (let i = 0; i < slots.length; i++) {
      if (!reached[row + i]) continue;
      const slot = slots[i]!;
      if (slot.optional) reached[row + i + 1] = 1;
      if (p < words.length && slot.words.has(words[p]!)) reached[row + width + i + 1] = 1;
      for (const phrase of slot.phrases) if (phraseAt(words, p, phrase)) reached[(p + phrase.length) * width + i + 1] = 1;
    }
    if (reached[row + slots.length] && (!atEnd || p === words.length)) return true;
  }
  return false;
}

export interface PersonMatcher {
  /** The pattern the text matches (the first), or undefined when it does not ask for a person. */
  match(text: string): string | undefined;
}

/**
 * The built-in patterns of `languages` and the KB's own for them. Languages without built-in
 * patterns get the KB's only (an empty matcher when there are none).
 */
export function personMatcher(extra: Readonly<Record<string, readonly string[]>> = {}, languages: string | readonly string[] = 'en'): PersonMatcher {
  const codes = [...new Set(typeof languages === 'string' ? [languages] : languages)];
  const patterns = codes.flatMap((l) => [...(PERSON_PATTERNS[l] ?? []), ...(extra[l] ?? [])]).map((p) => ({ p, compiled: compilePattern(p) }));
  return {
    match(text) {
      const words = wordsOf(text);
      return patterns.find(({ compiled }) => compiled.testWords(words))?.p;
    },
  };
}

/** The languages a KB's matcher uses: the identity file's (`language`, then `translations`), those its `handoff_phrases` name, and English. */
export function personLanguages(identity: Pick<AssistantIdentity, 'handoffPhrases' | 'language' | 'translations'>): string[] {
  return [...new Set([...identityLanguages(identity), ...Object.keys(identity.handoffPhrases), 'en'])];
}

const byIdentity = new WeakMap<object, PersonMatcher>();

/** The matcher of a KB in its languages (personLanguages) with its `handoff_phrases`, compiled once per load. */
export function personMatcherOf(identity: Pick<AssistantIdentity, 'handoffPhrases' | 'language' | 'translations'>): PersonMatcher {
  let matcher = byIdentity.get(identity);
  if (!matcher) {
    matcher = personMatcher(identity.handoffPhrases, personLanguages(identity));
    byIdentity.set(identity, matcher);
  }
  return matcher;
}
