import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import stopwordsIso from 'stopwords-iso' with { type: 'json' };

/**
 * The languages the selector has an analyzer for, and what each analyzer is made of
 * (analyzer.ts runs them; docs/languages.md says why each choice):
 *
 * - **stemming**: the Snowball stemmer of the language (the `@orama/stemmers` ports, which give
 *   the Snowball project's output); none for Chinese, Japanese and Hebrew;
 * - **stop words**: the `stopwords-iso` list of the language (German, French, Spanish: FUNCTION_WORDS),
 *   plus a few **chat fillers**: the greetings, thanks and "help / question" words of a support
 *   chat, which name no subject (the English list is analyzer.ts's CHAT_FILLER_WORDS);
 * - **elisions** (French, Italian): the elided article or pronoun before an apostrophe is
 *   dropped ("l'abonnement" → "abonnement", "dell'account" → "account");
 * - **compounds** (German, Dutch, Swedish, Danish, Norwegian): a long word is split into words
 *   the KB uses on their own, or their stems (decompound.ts), with the language's linking letters;
 * - **separable verbs** (German, Dutch): a verb particle left at the end of a clause is joined to
 *   a verb before it ("Wie richte ich das WLAN ein?" → einrichten), when the KB has the joined verb;
 *   German "einzurichten" gives einrichten too;
 * - **segmentation**: Chinese and Japanese have no spaces between words; their text is cut into
 *   words by the Unicode word segmentation of ICU (`Intl.Segmenter`), not stemmed.
 *
 * English is not in this table: its analyzer is the one the selector always had (Porter, the
 * `stopword` list, analyzer.ts), unchanged.
 */

export interface LanguageSpec {
  /** The Snowball stemmer; absent: words are not stemmed. */
  stem?: (word: string) => string;
  /** Stop words (stopwords-iso) and chat fillers, lowercase. */
  stopWords: readonly string[];
  /** Elided words that end in an apostrophe before a word ("l'", "qu'"), without it. */
  elisions?: readonly string[];
  /** Compound words are split into the KB's words; `linkers` are the letters that may join two parts ("s" in "Verbindungsaufbau"). */
  compounds?: { linkers: readonly string[] };
  /** Words are found by `Intl.Segmenter` (languages written without spaces). */
  segmented?: boolean;
  /**
   * Separable verbs: their particles, lowercase (a particle ending a clause is joined to its verb:
   * "richte … ein" → "einrichte"), and the infix of their infinitive with "to", written inside the
   * verb (German "ein*zu*richten": einrichten).
   */
  separable?: { particles: readonly string[]; infinitiveInfix?: string };
}

const iso = stopwordsIso as Record<string, string[]>;

/** Chat fillers per language: greetings, thanks, "please", "help", "question", "support": a support chat's setting, not its subject. */
export const CHAT_FILLERS: Readonly<Record<string, readonly string[]>> = {
  de: ['hallo', 'hi', 'hey', 'moin', 'servus', 'danke', 'dank', 'bitte', 'hilfe', 'helfen', 'frage', 'fragen', 'brauche', 'ok', 'okay', 'support'],
  fr: ['bonjour', 'bonsoir', 'salut', 'coucou', 'merci', 'svp', 'stp', 'aide', 'aider', 'question', 'questions', 'besoin', 'ok', 'support'],
  es: ['hola', 'buenas', 'gracias', 'favor', 'ayuda', 'ayudar', 'pregunta', 'preguntas', 'necesito', 'ok', 'soporte'],
  it: ['ciao', 'salve', 'grazie', 'favore', 'aiuto', 'aiutare', 'domanda', 'domande', 'ok', 'supporto'],
  pt: ['olá', 'ola', 'oi', 'obrigado', 'obrigada', 'favor', 'ajuda', 'ajudar', 'pergunta', 'ok', 'suporte'],
  nl: ['hallo', 'hoi', 'dank', 'bedankt', 'alstublieft', 'graag', 'hulp', 'helpen', 'vraag', 'ok', 'support'],
  zh: ['你好', '您好', '谢谢', '请', '请问', '帮助', '帮忙'],
  ja: ['こんにちは', 'ありがとう', 'ありがとうございます', 'お願いします', '教えて', '助けて'],
};

/**
 * Function words for the languages whose stopwords-iso list also holds content words (German's
 * has "neue", "richtig", "zeit", "ende", "beispiel"; French's "ouvert", "valeur", "état",
 * "nouveau", "possible"; Spanish's "nuevo", "tiempo", "ejemplo", "trabajo", "uso", "usar",
 * "valor"): dropping those from every section and question loses subjects. These
 * lists are, like the English one, function words only: the **Snowball** stop list of the
 * language (snowballstem.org, the lists of PostgreSQL's text search and of Lucene's German,
 * French and Spanish analyzers), plus the closed-class words a chat question adds that Snowball's lists,
 * written for running text, lack: the question words (the English list has how, what, where,
 * which, who) and the modal verbs (can, could, must, should are in the English list); German
 * "dass", the reformed spelling of the listed "daß"; and the quantifiers and adverbs of the
 * English list that a language's Snowball list lacks (English drops all, each, some, many, very,
 * also, still, too, only, now, then, there, such, other, more, most, both, never: French "tout",
 * "chaque", "très", "encore", "plus"…, German "viele", "mehr", "beide", "nie"); German's
 * pronominal adverbs ("darauf", "davon", "worüber": a preposition and a pronoun in one word, two
 * stop words in English), of which Snowball lists "damit" and "dazu" only.
 */
export const FUNCTION_WORDS: Readonly<Record<string, readonly string[]>> = {
  de: [
    // Snowball German
    'aber', 'alle', 'allem', 'allen', 'aller', 'alles', 'als', 'also', 'am', 'an', 'ander', 'andere',
    'anderem', 'anderen', 'anderer', 'anderes', 'anderm', 'andern', 'anderr', 'anders', 'auch', 'auf',
    'aus', 'bei', 'bin', 'bis', 'bist', 'da', 'damit', 'dann', 'der', 'den', 'des', 'dem', 'die',
    'das', 'daß', 'derselbe', 'derselben', 'denselben', 'desselben', 'demselben', 'dieselbe',
    'dieselben', 'dasselbe', 'dazu', 'dein', 'deine', 'deinem', 'deinen', 'deiner', 'deines', 'denn',
    'derer', 'dessen', 'dich', 'dir', 'du', 'dies', 'diese', 'diesem', 'diesen', 'dieser', 'dieses',
    'doch', 'dort', 'durch', 'ein', 'eine', 'einem', 'einen', 'einer', 'eines', 'einig', 'einige',
    'einigem', 'einigen', 'einiger', 'einiges', 'einmal', 'er', 'ihn', 'ihm', 'es', 'etwas', 'euer',
    'eure', 'eurem', 'euren', 'eurer', 'eures', 'für', 'gegen', 'gewesen', 'hab', 'habe', 'haben',
    'hat', 'hatte', 'hatten', 'hier', 'hin', 'hinter', 'ich', 'mich', 'mir', 'ihr', 'ihre', 'ihrem',
    'ihren', 'ihrer', 'ihres', 'euch', 'im', 'in', 'indem', 'ins', 'ist', 'jede', 'jedem', 'jeden',
    'jeder', 'jedes', 'jene', 'jenem', 'jenen', 'jener', 'jenes', 'jetzt', 'kann', 'kein', 'keine',
    'keinem', 'keinen', 'keiner', 'keines', 'können', 'könnte', 'machen', 'man', 'manche', 'manchem',
    'manchen', 'mancher', 'manches', 'mein', 'meine', 'meinem', 'meinen', 'meiner', 'meines', 'mit',
    'muss', 'musste', 'nach', 'nicht', 'nichts', 'noch', 'nun', 'nur', 'ob', 'oder', 'ohne', 'sehr',
    'sein', 'seine', 'seinem', 'seinen', 'seiner', 'seines', 'selbst', 'sich', 'sie', 'ihnen', 'sind',
    'so', 'solche', 'solchem', 'solchen', 'solcher', 'solches', 'soll', 'sollte', 'sondern', 'sonst',
    'über', 'um', 'und', 'uns', 'unsere', 'unserem', 'unseren', 'unser', 'unseres', 'unter', 'viel',
    'vom', 'von', 'vor', 'während', 'war', 'waren', 'warst', 'was', 'weg', 'weil', 'weiter', 'welche',
    'welchem', 'welchen', 'welcher', 'welches', 'wenn', 'werde', 'werden', 'wie', 'wieder', 'will',
    'wir', 'wird', 'wirst', 'wo', 'wollen', 'wollte', 'würde', 'würden', 'zu', 'zum', 'zur', 'zwar',
    'zwischen',
    // question words, modal verbs, "dass"
    'wann', 'warum', 'wieso', 'weshalb', 'wer', 'wen', 'wem', 'wessen', 'woher', 'wohin', 'womit', 'wozu',
    'darf', 'darfst', 'dürfen', 'kannst', 'könnt', 'könnten', 'musst', 'müssen', 'mussten', 'sollen', 'sollst',
    'sollten', 'willst', 'möchte', 'möchten', 'mag', 'dass',
    // quantifiers and adverbs the English list drops (many, more, most, both, never)
    'viele', 'vielen', 'vieler', 'vieles', 'mehr', 'meist', 'meiste', 'meisten', 'beide', 'beiden', 'beides',
    'nie', 'niemals',
    // pronominal adverbs (da(r)- and wo(r)- with a preposition: "darauf" is "on it", two English
    // stop words); Snowball lists damit, dazu, womit and wozu only
    'dabei', 'dadurch', 'dafür', 'dagegen', 'daher', 'dahin', 'danach', 'daneben', 'daran', 'darauf', 'daraus',
    'darin', 'darüber', 'darum', 'darunter', 'davon', 'davor', 'dazwischen', 'wobei', 'wodurch', 'wofür',
    'wogegen', 'wonach', 'woran', 'worauf', 'woraus', 'worin', 'worüber', 'worum', 'wovon', 'wovor',
  ],
  fr: [
    // Snowball French
    'au', 'aux', 'avec', 'ce', 'ces', 'dans', 'de', 'des', 'du', 'elle', 'en', 'et', 'eux', 'il', 'je',
    'la', 'le', 'leur', 'lui', 'ma', 'mais', 'me', 'même', 'mes', 'moi', 'mon', 'ne', 'nos', 'notre',
    'nous', 'on', 'ou', 'où', 'par', 'pas', 'pour', 'qu', 'que', 'qui', 'sa', 'se', 'ses', 'son',
    'sur', 'ta', 'te', 'tes', 'toi', 'ton', 'tu', 'un', 'une', 'vos', 'votre', 'vous', 'c', 'd', 'j',
    'l', 'à', 'm', 'n', 's', 't', 'y', 'été', 'étée', 'étées', 'étés', 'étant', 'suis', 'es', 'est',
    'sommes', 'êtes', 'sont', 'serai', 'seras', 'sera', 'serons', 'serez', 'seront', 'serais',
    'serait', 'serions', 'seriez', 'seraient', 'étais', 'était', 'étions', 'étiez', 'étaient', 'fus',
    'fut', 'fûmes', 'fûtes', 'furent', 'sois', 'soit', 'soyons', 'soyez', 'soient', 'fusse', 'fusses',
    'fût', 'fussions', 'fussiez', 'fussent', 'ayant', 'eu', 'eue', 'eues', 'eus', 'ai', 'as', 'avons',
    'avez', 'ont', 'aurai', 'auras', 'aura', 'aurons', 'aurez', 'auront', 'aurais', 'aurait',
    'aurions', 'auriez', 'auraient', 'avais', 'avait', 'avions', 'aviez', 'avaient', 'eut', 'eûmes',
    'eûtes', 'eurent', 'aie', 'aies', 'ait', 'ayons', 'ayez', 'aient', 'eusse', 'eusses', 'eût',
    'eussions', 'eussiez', 'eussent', 'ceci', 'cela', 'celà', 'cet', 'cette', 'ici', 'ils', 'les',
    'leurs', 'quel', 'quels', 'quelle', 'quelles', 'sans', 'soi',
    // question words, modal verbs, "ça" (the spoken form of the listed "cela")
    'ça', 'comment', 'pourquoi', 'quand', 'combien', 'quoi', 'lequel', 'laquelle', 'lesquels', 'lesquelles',
    'peux', 'peut', 'peuvent', 'pouvoir', 'pourrais', 'pourrait', 'veux', 'veut', 'vouloir', 'voudrais',
    'dois', 'doit', 'doivent', 'devoir', 'faut',
    // quantifiers and adverbs the English list drops (all, each, some, any, many, very, also, still,
    // too, only, now, then, there, such, other, more, never)
    'tout', 'toute', 'tous', 'toutes', 'chaque', 'quelque', 'quelques', 'certain', 'certaine', 'certains',
    'certaines', 'aucun', 'aucune', 'plusieurs', 'beaucoup', 'très', 'aussi', 'encore', 'trop', 'seulement',
    'maintenant', 'alors', 'puis', 'là', 'tel', 'telle', 'tels', 'telles', 'autre', 'autres', 'plus', 'jamais',
  ],
  es: [
    // Snowball Spanish: articles, prepositions, conjunctions, pronouns, determiners
    'a', 'al', 'algo', 'algunas', 'algunos', 'ante', 'antes', 'como', 'con', 'contra', 'cual', 'cuando', 'de',
    'del', 'desde', 'donde', 'durante', 'e', 'el', 'ella', 'ellas', 'ellos', 'en', 'entre', 'ha', 'hasta', 'la',
    'las', 'le', 'les', 'lo', 'los', 'me', 'mi', 'mis', 'mucho', 'muchos', 'muy', 'más', 'mí', 'mía', 'mías',
    'mío', 'míos', 'nada', 'ni', 'no', 'nos', 'nosotras', 'nosotros', 'nuestra', 'nuestras', 'nuestro',
    'nuestros', 'o', 'os', 'otra', 'otras', 'otro', 'otros', 'para', 'pero', 'poco', 'por', 'porque', 'que',
    'quien', 'quienes', 'qué', 'se', 'sin', 'sobre', 'su', 'sus', 'suya', 'suyas', 'suyo', 'suyos', 'sí',
    'también', 'tanto', 'te', 'ti', 'todo', 'todos', 'tu', 'tus', 'tuya', 'tuyas', 'tuyo', 'tuyos', 'tú', 'un',
    'una', 'uno', 'unos', 'vosotras', 'vosotros', 'vuestra', 'vuestras', 'vuestro', 'vuestros', 'y', 'ya', 'yo',
    'él', 'esa', 'esas', 'ese', 'eso', 'esos', 'esta', 'estas', 'este', 'esto', 'estos',
    // Snowball Spanish: the forms of estar, haber, ser and tener
    'estaba', 'estabais', 'estaban', 'estabas', 'estad', 'estada', 'estadas', 'estado', 'estados', 'estamos',
    'estando', 'estar', 'estaremos', 'estará', 'estarán', 'estarás', 'estaré', 'estaréis', 'estaría',
    'estaríais', 'estaríamos', 'estarían', 'estarías', 'estemos', 'estoy', 'estuve', 'estuviera',
    'estuvierais', 'estuvieran', 'estuvieras', 'estuvieron', 'estuviese', 'estuvieseis', 'estuviesen',
    'estuvieses', 'estuvimos', 'estuviste', 'estuvisteis', 'estuviéramos', 'estuviésemos', 'estuvo', 'está',
    'estábamos', 'estáis', 'están', 'estás', 'esté', 'estéis', 'estén', 'estés',
    'habida', 'habidas', 'habido', 'habidos', 'habiendo', 'habremos', 'habrá', 'habrán', 'habrás', 'habré',
    'habréis', 'habría', 'habríais', 'habríamos', 'habrían', 'habrías', 'habéis', 'había', 'habíais',
    'habíamos', 'habían', 'habías', 'han', 'has', 'hay', 'haya', 'hayamos', 'hayan', 'hayas', 'hayáis', 'he',
    'hemos', 'hube', 'hubiera', 'hubierais', 'hubieran', 'hubieras', 'hubieron', 'hubiese', 'hubieseis',
    'hubiesen', 'hubieses', 'hubimos', 'hubiste', 'hubisteis', 'hubiéramos', 'hubiésemos', 'hubo',
    'era', 'erais', 'eran', 'eras', 'eres', 'es', 'fue', 'fuera', 'fuerais', 'fueran', 'fueras', 'fueron',
    'fuese', 'fueseis', 'fuesen', 'fueses', 'fui', 'fuimos', 'fuiste', 'fuisteis', 'fuéramos', 'fuésemos',
    'sea', 'seamos', 'sean', 'seas', 'seremos', 'será', 'serán', 'serás', 'seré', 'seréis', 'sería', 'seríais',
    'seríamos', 'serían', 'serías', 'seáis', 'sido', 'siendo', 'sois', 'somos', 'son', 'soy', 'éramos',
    'tendremos', 'tendrá', 'tendrán', 'tendrás', 'tendré', 'tendréis', 'tendría', 'tendríais', 'tendríamos',
    'tendrían', 'tendrías', 'tened', 'tenemos', 'tenga', 'tengamos', 'tengan', 'tengas', 'tengo', 'tengáis',
    'tenida', 'tenidas', 'tenido', 'tenidos', 'teniendo', 'tenéis', 'tenía', 'teníais', 'teníamos', 'tenían',
    'tenías', 'tiene', 'tienen', 'tienes', 'tuve', 'tuviera', 'tuvierais', 'tuvieran', 'tuvieras', 'tuvieron',
    'tuviese', 'tuvieseis', 'tuviesen', 'tuvieses', 'tuvimos', 'tuviste', 'tuvisteis', 'tuviéramos',
    'tuviésemos', 'tuvo',
    // question words (written with their accents), modal verbs
    'cómo', 'cuál', 'cuáles', 'cuándo', 'dónde', 'adónde', 'quién', 'quiénes', 'cuánto', 'cuánta', 'cuántos',
    'cuántas', 'puedo', 'puedes', 'puede', 'podemos', 'pueden', 'poder', 'podría', 'podrías', 'podrían',
    'debo', 'debes', 'debe', 'debemos', 'deben', 'deber', 'debería', 'deberían', 'quiero', 'quieres',
    'quiere', 'queremos', 'quieren', 'querer', 'quisiera',
    // quantifiers and adverbs the English list drops (all, each, some, any, much, also, still, too, only,
    // now, then, here, there, such, same, both, never)
    'toda', 'todas', 'cada', 'mucha', 'muchas', 'algún', 'alguna', 'alguno', 'ningún', 'ninguna', 'ninguno',
    'aquí', 'allí', 'ahí', 'ahora', 'entonces', 'luego', 'nunca', 'solo', 'sólo', 'aún', 'todavía', 'demasiado',
    'mismo', 'misma', 'mismos', 'mismas', 'ambos', 'ambas', 'tal', 'tales', 'poca', 'pocas', 'pocos',
  ],
};

/**
 * Separable verb particles. German and Dutch put the finite verb second (or first, in a question
 * or an order) and leave its particle at the end of the clause: "Wie *richte* ich das WLAN *ein*?",
 * "Hoe *zet* ik de computer *uit*?", where the KB writes "einrichten", "Einrichtung",
 * "uitzetten". The lists are the particles of the grammars (Duden, *Die Grammatik*, on
 * "Partikelverben"; the Algemene Nederlandse Spraakkunst on "scheidbare werkwoorden"): prepositions
 * and adverbs that form separable verbs. The analyzer joins one to a verb only when the KB has the
 * joined verb (analyzer.ts), so a preposition that merely ends a clause joins nothing. German writes
 * the infinitive with "zu" inside such a verb ("um das WLAN einzurichten"): that word also gives
 * the verb's term, when the KB has the verb.
 */
export const SEPARABLE_VERBS: Readonly<Record<string, NonNullable<LanguageSpec['separable']>>> = {
  de: {
    infinitiveInfix: 'zu',
    particles: [
      'ab', 'an', 'auf', 'aus', 'bei', 'dar', 'durch', 'ein', 'fest', 'fort', 'frei', 'her', 'herab', 'heran',
      'herauf', 'heraus', 'herbei', 'herein', 'herüber', 'herum', 'herunter', 'hervor', 'hin', 'hinab', 'hinauf',
      'hinaus', 'hinein', 'hinüber', 'hinunter', 'hinzu', 'hoch', 'los', 'mit', 'nach', 'nieder', 'um', 'vor',
      'voran', 'voraus', 'vorbei', 'weg', 'weiter', 'wieder', 'zu', 'zurecht', 'zurück', 'zusammen',
    ],
  },
  nl: {
    particles: [
      'aan', 'achter', 'af', 'bij', 'binnen', 'dicht', 'door', 'in', 'los', 'mee', 'na', 'neer', 'om', 'op',
      'open', 'over', 'samen', 'terug', 'toe', 'uit', 'vast', 'voor', 'weg',
    ],
  },
};

function spec(language: string, rest: Omit<LanguageSpec, 'stopWords'> = {}): LanguageSpec {
  const base = FUNCTION_WORDS[language] ?? iso[language] ?? [];
  const separable = SEPARABLE_VERBS[language];
  return { ...rest, stopWords: [...base, ...(CHAT_FILLERS[language] ?? [])], ...(separable ? { separable } : {}) };
}

const LANGUAGES: Readonly<Record<string, LanguageSpec>> = {
  de: spec('de', { stem: german, compounds: { linkers: ['s', 'es'] } }),
  fr: spec('fr', { stem: french, elisions: ['l', 'd', 'j', 'm', 'n', 's', 't', 'c', 'qu', 'jusqu', 'lorsqu', 'puisqu', 'quoiqu', 'quelqu'] }),
  es: spec('es', { stem: spanish }),
  it: spec('it', { stem: italian, elisions: ['l', 'un', 'd', 'c', 'dell', 'all', 'dall', 'nell', 'sull', 'quest', 'quell'] }),
  pt: spec('pt', { stem: portuguese }),
  nl: spec('nl', { stem: dutch, compounds: { linkers: ['s', 'e', 'en'] } }),
  sv: spec('sv', { stem: swedish, compounds: { linkers: ['s'] } }),
  da: spec('da', { stem: danish, compounds: { linkers: ['s', 'e'] } }),
  no: spec('no', { stem: norwegian, compounds: { linkers: ['s', 'e'] } }),
  fi: spec('fi', { stem: finnish }),
  ru: spec('ru', { stem: russian }),
  tr: spec('tr', { stem: turkish }),
  ar: spec('ar', { stem: arabic }),
  he: spec('he'),
  zh: spec('zh', { segmented: true }),
  ja: spec('ja', { segmented: true }),
};

/** The language every KB and query had before languages: its analyzer is analyzer.ts's own. */
export const ENGLISH = 'en';

/** Every language with an analyzer (English first). */
export const ANALYZED_LANGUAGES: readonly string[] = [ENGLISH, ...Object.keys(LANGUAGES)];

/** The spec of a language other than English, or undefined when it has no analyzer. */
export function languageSpec(language: string): LanguageSpec | undefined {
  return Object.hasOwn(LANGUAGES, language) ? LANGUAGES[language] : undefined;
}

/** Does the selector have an analyzer for this language (a primary subtag)? */
export function hasAnalyzer(language: string): boolean {
  return language === ENGLISH || languageSpec(language) !== undefined;
}

/** The analyzer for a language without one: words found by Unicode segmentation, lowercase, accents stripped, no stop words, no stemming. */
export const GENERIC_SPEC: LanguageSpec = { stopWords: [], segmented: true };
