import { RULE_LEXICONS, type RuleLexicon } from './rule-lexicons';
import {
  aboutWord,
  classifySentence as classifyEnglish,
  clauseStartsOf,
  isInstruction as isEnglishInstruction,
  normalize,
  policyWords as englishPolicyWords,
  questionFor as englishQuestionFor,
  RULE_WORDS,
  verdictOf,
  type RuleForm,
  type RuleVerdict,
} from './rules';

/**
 * Rule detection in the KB's languages: English with its own patterns (rules.ts, unchanged),
 * German, French and Spanish with the same two steps (a directive form, then a score) read
 * from each language's lexicon (rule-lexicons.ts). docs/rule-detection.md, "Other languages".
 */

/** How one language's sentences are read as rules. */
export interface RuleReader {
  language: string;
  classifySentence(sentence: string): RuleVerdict;
  /** Any instruction at all (a pinned section with none reads as reference material). */
  isInstruction(sentence: string): boolean;
  /** The policy words of a sentence, as listed. */
  policyWords(sentence: string): string[];
  /** The question a customer asks about a rule's key word ("can I get a refund?", "Kann ich eine Rückerstattung bekommen?"). */
  questionFor(word: string): string;
  /** "what about <word>?" in the language. */
  about(word: string): string;
  /** Words that make a sentence a rule rather than say what it is about (never a rule's key word). */
  ruleWords: ReadonlySet<string>;
}

const ENGLISH_READER: RuleReader = {
  language: 'en',
  classifySentence: classifyEnglish,
  isInstruction: isEnglishInstruction,
  policyWords: englishPolicyWords,
  questionFor: englishQuestionFor,
  about: aboutWord,
  ruleWords: RULE_WORDS,
};

/** The languages rules are read in. */
export const RULE_LANGUAGES: readonly string[] = ['en', ...Object.keys(RULE_LEXICONS)];

const readers = new Map<string, RuleReader>([['en', ENGLISH_READER]]);

/** The reader of `language` (a primary subtag), or undefined when rules are not read in it. */
export function ruleReader(language: string): RuleReader | undefined {
  let reader = readers.get(language);
  if (!reader && RULE_LEXICONS[language]) readers.set(language, (reader = lexiconReader(RULE_LEXICONS[language])));
  return reader;
}

const WORDS = /\p{L}+(?:-\p{L}+)*/gu;
/** How many words after a form's marker its verb may stand at, in a language whose verb is not last ("ne jamais *promettre*"). */
const VERB_WINDOW = 3;
const wordsOf = (text: string) => text.toLowerCase().match(WORDS) ?? [];
/** A clause's first word, a pronoun written onto it taken off ("orientez-le" → "orientez", "Dile" → "di"). */
function firstWordOf(lexicon: RuleLexicon, words: string[]): string {
  const first = words[0] ?? '';
  if (!lexicon.clitic || lexicon.imperatives.has(first) || lexicon.speechVerbs.has(first)) return first;
  const bare = first.replace(lexicon.clitic, '');
  return bare === first ? first : bare.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}
/**
 * The clause a form's verb stands in, from the text after its marker: up to a comma; after the
 * comma when the marker ends with one ("Es ist verboten, … zu versprechen"), past an inserted
 * condition ("Der Assistent muss, wenn der Kunde fragt, keine … nennen").
 */
function verbClause(lexicon: RuleLexicon, after: string): string {
  const parts = after.split(',');
  if (parts[0]!.trim() !== '' || parts.length < 2) return parts[0]!;
  return lexicon.condition.test(parts[1]!.trim()) ? parts.slice(2).join(',') : parts[1]!;
}

/** Typographic quotes as plain ones, guillemets and German low quotes too. */
const plain = (raw: string) => normalize(raw).replace(/[«»„‚‹›]/g, '"').trim();
type Clause = { clause: string; afterComma: boolean };

interface FoundForm {
  form: RuleForm;
  detail: string;
  /** The words after the form's marker: where its verb stands (the first few words, or in German the last of the clause). */
  after?: string;
  /** The directive's own verb, when the form names it. */
  verb?: string;
}

function lexiconReader(lexicon: RuleLexicon): RuleReader {
  const starts = (sentence: string) => clauseStartsOf(sentence, lexicon.leadConjunction);
  const policyWords = (sentence: string) => lexicon.policy.filter((p) => p.re.test(sentence)).map((p) => p.word);
  const speechVerb = ({ verb, after }: FoundForm) => {
    if (verb && lexicon.speechVerbs.has(verb)) return verb;
    if (after === undefined) return undefined;
    const words = wordsOf(verbClause(lexicon, after));
    const candidates = lexicon.verbLast ? words.slice(-1) : words.slice(0, VERB_WINDOW);
    return candidates.find((w) => lexicon.speechVerbs.has(w));
  };
  return {
    language: lexicon.language,
    policyWords,
    questionFor: (word) => lexicon.policy.find((p) => p.word === word)?.question ?? lexicon.about(word),
    about: lexicon.about,
    ruleWords: lexicon.ruleWords,
    classifySentence(raw) {
      const sentence = plain(raw);
      const clauses = starts(sentence);
      const found = findForm(lexicon, sentence, clauses);
      if (!found) return { rule: false, score: 0, signals: [] };
      return verdictOf({
        form: found.form,
        detail: found.detail,
        speechVerb: speechVerb(found),
        policy: policyWords(sentence),
        assistant: lexicon.assistant.test(sentence),
        thirdPerson: lexicon.thirdPerson.test(sentence),
        customerAddressed: lexicon.possessiveSecondPerson.test(sentence) || clauses.some(({ clause }) => lexicon.secondPersonSubject.test(clause)),
      });
    },
    isInstruction(raw) {
      const sentence = plain(raw);
      const clauses = starts(sentence);
      if (findForm(lexicon, sentence, clauses)) return true;
      return clauses.some(({ clause }) => lexicon.instructionVerbs.has(firstWordOf(lexicon, wordsOf(clause))));
    },
  };
}

/** The directive form of a sentence in a lexicon's language (docs/rule-detection.md, step 1); a question has none. */
function findForm(lexicon: RuleLexicon, sentence: string, clauses: Clause[]): FoundForm | undefined {
  // "Gibt es keine Rückerstattung, wenn …?" (a question quoted in a rule does not count: "Antworte … auf die Frage „…?“").
  if (/\?[')\s]*$/.test(sentence.replace(/"[^"]*"/g, ''))) return undefined;
  for (const { clause, afterComma } of clauses) {
    const found = clauseForm(lexicon, clause, afterComma);
    if (found) return found;
  }
  const only = lexicon.onlyMay.exec(sentence);
  const onlySubject = only?.groups?.subject ?? '';
  if (only && !lexicon.secondPersonSubject.test(onlySubject) && !lexicon.possessiveSecondPerson.test(onlySubject)) {
    return { form: 'only-may', detail: only[0].trim().toLowerCase(), after: sentence.slice(only.index + only[0].length) };
  }
  const authority = lexicon.authority.exec(sentence);
  if (authority) return { form: 'authority', detail: authority[0].trim().toLowerCase() };
  return imperativeForm(lexicon, clauses, lexicon.condition.test(sentence));
}

/** A prohibition, "always", "we cannot" or an obligation opening `clause`. */
function clauseForm(lexicon: RuleLexicon, clause: string, afterComma: boolean): FoundForm | undefined {
  const words = wordsOf(clause);
  const first = firstWordOf(lexicon, words);
  const imperativeFirst = lexicon.imperatives.has(first) && !lexicon.nounFirst?.test(clause);
  let m = lexicon.prohibitionStart.exec(clause);
  // German "Keine … <infinitive>": a capitalised last word is a noun ("Keine versteckten Gebühren, keine lästigen Fragen"), unless all is capitals.
  const verb = m?.groups?.verb;
  const nounLast = verb !== undefined && lexicon.infinitiveLast !== undefined && verb !== verb.toUpperCase() && !lexicon.infinitiveLast.infinitive.test(verb);
  if (m && !nounLast) return { form: 'prohibition', detail: m[0].trim().toLowerCase(), after: clause.slice(m[0].length), verb: m.groups?.verb?.toLowerCase() };
  const negated = imperativeFirst ? negatedImperativeForm(lexicon, clause, first) : undefined;
  if (negated) return negated;
  m = lexicon.alwaysStart.exec(clause);
  if (m) return { form: 'always', detail: m[0].trim().toLowerCase(), after: clause.slice(m[0].length) };
  const always = imperativeFirst ? words.slice(1).find((w) => lexicon.alwaysWord.test(w)) : undefined;
  if (always) return { form: 'always', detail: `${first} … ${always}`, verb: first };
  if (afterComma) return undefined; // mid-clause, only an imperative opens a new instruction
  m = lexicon.weCannot.exec(clause);
  if (m) return { form: 'we-cannot', detail: m[0].trim().toLowerCase(), after: clause.slice(m[0].length), verb: m.groups?.verb?.toLowerCase() };
  return obligationForm(lexicon, clause);
}

/**
 * German: a negation in an imperative's clause ("Versprich niemals …", "Teilen Sie … nicht
 * mit"), up to a comma; a separable verb's particle at the clause's end joins the verb.
 */
function negatedImperativeForm(lexicon: RuleLexicon, clause: string, first: string): FoundForm | undefined {
  if (!lexicon.negatedImperative) return undefined;
  const own = clause.split(', ')[0]!;
  const negation = lexicon.negation.exec(own.slice(first.length));
  if (!negation) return undefined;
  const last = wordsOf(own).at(-1) ?? '';
  const { separableParticles, irregular } = lexicon.negatedImperative;
  if (!separableParticles.has(last)) return { form: 'prohibition', detail: `${first} … ${negation[0].toLowerCase()}`, verb: first };
  // "Teilen Sie … mit", "Teile … mit", "Gib … weiter": the particle and the verb's infinitive.
  const stems = [first, `${first}n`, `${first}en`, irregular[first] ?? ''].map((form) => `${last}${form}`);
  const verb = stems.find((v) => lexicon.speechVerbs.has(v)) ?? stems[0]!;
  return { form: 'prohibition', detail: `${first} … ${negation[0].toLowerCase()}`, verb };
}

/**
 * "X must / must not / may not …", or "X cannot" / "X can only" when X is the assistant, an
 * agent, support or a team; not "X need not" (German "muss nicht"), nor a modal whose subject
 * stands after it ("Das Passwort sollten Sie niemals …"). The negation is looked for up to the
 * first comma (a subordinate clause's "nicht" is not the modal's).
 */
function obligationForm(lexicon: RuleLexicon, clause: string): FoundForm | undefined {
  const m = lexicon.obligation.exec(clause);
  if (!m) return undefined;
  const subject = m.groups!.subject!.trim();
  const modal = m.groups!.modal!.toLowerCase();
  const rest = m.groups!.rest ?? '';
  const own = verbClause(lexicon, rest);
  if (lexicon.secondPersonSubject.test(subject) || lexicon.condition.test(subject) || lexicon.subjectAfterModal?.test(own.trim())) return undefined;
  const negation = lexicon.negation.test(modal) ? modal : lexicon.negation.exec(own)?.[0];
  const duty = negation !== undefined || lexicon.restrictedAbility?.test(modal) === true;
  if (lexicon.ability.test(modal) && !(duty && lexicon.agentSubject.test(subject))) return undefined;
  if (negation && lexicon.needNot?.test(modal)) return undefined;
  const { permission } = lexicon;
  if (permission?.modal.test(modal) && !negation && !permission.restriction.test(own)) return undefined; // "Jeder Kunde darf …": may, no duty
  const detail = negation && negation !== modal ? `${subject} ${modal} … ${negation}` : `${subject} ${modal}`;
  return { form: 'obligation', detail: detail.toLowerCase(), after: rest };
}

/** A clause that starts with a verb instructing support, or (German) ends with one as an infinitive. */
function imperativeForm(lexicon: RuleLexicon, clauses: Clause[], conditional: boolean): FoundForm | undefined {
  for (const { clause, afterComma } of clauses) {
    if (afterComma && !conditional) continue;
    const words = wordsOf(clause);
    const first = firstWordOf(lexicon, words);
    // "Frage des Kunden", "Antwort: …" are nouns, not imperatives.
    const noun = /^\S+\s*(?::|$)/u.test(clause) || lexicon.nounFirst?.test(clause);
    // "Demander un remboursement est simple": an infinitive as the subject states a fact.
    if (lexicon.imperatives.has(first) && !noun && !lexicon.infinitiveSubject?.test(clause)) return { form: 'imperative', detail: first, verb: first };
    const last = infinitiveLast(lexicon, clause, words);
    if (last) return { form: 'imperative', detail: `… ${last}`, verb: last };
  }
  return undefined;
}

/** German: the instructing infinitive a clause ends with ("Den Kunden auf die Statusseite verweisen."), if it has no finite verb. */
function infinitiveLast(lexicon: RuleLexicon, clause: string, words: string[]): string | undefined {
  if (!lexicon.infinitiveLast || words.length < 2) return undefined;
  const { infinitive, finiteVerbs } = lexicon.infinitiveLast;
  const asWritten = clause.match(WORDS)?.at(-1) ?? '';
  const last = asWritten.toLowerCase();
  // "…, Kunden einen Rabatt zu geben": a zu-infinitive completes another verb.
  if (!lexicon.imperatives.has(last) || !infinitive.test(asWritten) || words.at(-2) === 'zu') return undefined;
  if (finiteVerbs.test(clause) || lexicon.secondPersonSubject.test(clause)) return undefined;
  return last;
}
