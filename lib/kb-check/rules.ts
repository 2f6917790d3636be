/** Does a sentence read as a rule for the support assistant? Its form, then its score: docs/rule-detection.md. */

export const RULE_THRESHOLD = 2;

export type RuleForm = 'prohibition' | 'always' | 'only-may' | 'we-cannot' | 'obligation' | 'authority' | 'imperative';

export interface RuleVerdict {
  rule: boolean;
  score: number;
  /** The directive form found, if any (none → never a rule). */
  form?: RuleForm;
  /** What the score is made of, e.g. `speech "promise"`, `policy "refund"`. */
  signals: string[];
}

const SPEECH_VERBS = new Set([
  'promise', 'promising', 'tell', 'telling', 'say', 'saying', 'quote', 'quoting', 'offer', 'offering',
  'share', 'sharing', 'mention', 'mentioning', 'reveal', 'revealing', 'disclose', 'disclosing',
  'discuss', 'discussing', 'guarantee', 'guaranteeing', 'confirm', 'confirming', 'comment',
  'commenting', 'speculate', 'speculating', 'ask', 'asking', 'answer', 'answering', 'name', 'naming',
  'recommend', 'recommending', 'advise', 'advising', 'commit', 'committing', 'agree', 'agreeing',
  'grant', 'granting', 'approve', 'approving', 'issue', 'issuing', 'give', 'giving', 'refund',
  'refunding', 'waive', 'waiving', 'compensate', 'compensating', 'reply', 'replying', 'respond',
  'responding', 'escalate', 'escalating', 'compare', 'comparing', 'accept', 'accepting', 'change',
  'changing', 'transfer', 'transferring', 'provide', 'providing', 'make', 'making', 'apologize',
  'admit', 'blame', 'estimate', 'predict', 'point', 'refer', 'direct', 'redirect', 'hand',
]);

/** Policy vocabulary: lowercase words or phrases, matched on word boundaries (plurals too). */
const POLICY_WORDS = [
  'refund', 'money back', 'reimburse', 'reimbursement', 'price', 'pricing', 'fee', 'discount',
  'coupon', 'promo code', 'credit', 'compensation', 'exception', 'guarantee', 'legal', 'lawyer',
  'lawsuit', 'tax advice', 'sla', 'chargeback', 'escalate', 'competitor', 'another customer',
  'other customers', 'another client', 'other clients', 'client name', 'customer name',
  'other accounts', 'password', 'two-factor code', 'card number', 'secret key', 'personal data',
  'free month', 'free upgrade', 'eta', 'fix time', 'release date', 'roadmap', 'deadline',
];
const POLICY_PATTERNS = POLICY_WORDS.map((w) => ({
  word: w,
  re: new RegExp(`\\b${w.replace(/[-\s]/g, '[-\\s]')}(?:s|es)?\\b`, 'i'),
}));

/** The assistant or support staff ("agent" alone is too often software: ssh-agent, a service agent). */
const ASSISTANT = /\b(assistant|chatbot|bot|(?:support|human|live|customer service) agents?|(?<![-\w])agents|support staff|support team members?|representatives?)\b/i;
const THIRD_PERSON = /\b(?:(?:the|a|an|any|another|other|each|every|no)\s+(?:customer|client)s?|customers|clients)\b/i;
/** "you" in an obligation's subject: the customer's obligation, not the assistant's. */
const SECOND_PERSON = /\b(you|your|yours|yourself|yourselves)\b/i;
/**
 * Speaking to the customer: "your …" anywhere ("Never share your stream key"), or a
 * clause whose subject is "you". A bare "you" inside a clause ("a price that you cannot
 * confirm") is how rules address the assistant, so it does not count.
 */
const POSSESSIVE_SECOND_PERSON = /\b(your|yours|yourself|yourselves)\b/i;

const LEAD_CONJUNCTION = /^(?:and|but|or|so|then|also|instead|otherwise)\s+/i;
const CONDITION = /^(?:if|when|whenever|unless|before|after|while|once|even if|even when|in case)\b/i;

const PROHIBITION = /^(?:please\s+)?(never|do not|don't|dont|must not|must never|should not|shouldn't|should never|under no circumstances|avoid)\b\s*(?:,\s*)?(?<verb>[a-z']+)?/i;
const ALWAYS = /^(?:please\s+)?(always)\s+(?<verb>[a-z']+)/i;
const ONLY_MAY = /\bonly\s+(?<subject>(?:[\w'-]+\s+){0,4}?)(?:may|can|is allowed to|are allowed to|is authorized to|are authorized to|decides?|approves?)\s+(?:(?:be\s+)?(?<verb>[a-z']+))?/i;
const WE_CANNOT = /^we\s+(?:cannot|can't|can not|do not|don't|never|will not|won't|will never|must not|are unable to|are not able to|are not allowed to)\s+(?:(?:be\s+)?(?<verb>[a-z']+))?/i;
const OBLIGATION = /^(?<subject>(?:[\w'’-]+\s+){1,6}?)(?<modal>must not|must never|must|shall not|shall|should not|should never|may not|may only|is not allowed to|are not allowed to|is not permitted to|are not permitted to|cannot|can't|can not)\s+(?:(?:be|only|ever)\s+)*(?<verb>[a-z']+)?/i;
const AGENT_SUBJECT = /\b(we|assistant|chatbot|bot|agents?|support|staff|team|representatives?)\b/i;
const AUTHORITY = /\b(?:is|are)\s+(?:only\s+)?(?:decided|approved|granted|determined|authori[sz]ed|confirmed|set|issued)\s+(?:only\s+)?by\b|\bat (?:the|its|our|their) (?:sole )?discretion\b|\bmakes? the final (?:call|decision)\b|\bhas the final say\b/i;

/** Plain imperatives that instruct support ("Tell the customer …", "Point the customer to …"). */
const RULE_IMPERATIVES = new Set([
  'say', 'tell', 'offer', 'quote', 'answer', 'reply', 'respond', 'mention', 'point', 'refer',
  'escalate', 'hand', 'direct', 'redirect', 'decline', 'apologize', 'apologise', 'treat', 'promise',
  'confirm', 'explain', 'ask', 'share', 'reveal', 'disclose', 'name', 'recommend', 'advise',
]);

/** Typographic quotes as plain ones, so patterns need only `'` and `"`. */
export const normalize = (s: string) => s.replace(/[’‘]/g, "'").replace(/[“”]/g, '"');

/**
 * Where an instruction may start: the sentence, each clause after ; — : or a bracket,
 * and (for imperatives only) each part after a comma: "If a customer asks, never …".
 * `leadConjunction`: the words dropped from a clause's start ("and", "but", … in English).
 */
export function clauseStartsOf(sentence: string, leadConjunction: RegExp): { clause: string; afterComma: boolean }[] {
  const starts: { clause: string; afterComma: boolean }[] = [];
  const body = sentence.replace(/^[^.:!?]{1,60}?:\s+/, (label) => (label.split(/\s+/).length <= 6 ? '' : label));
  for (let clause of body.split(/\s*(?:;|\s[—–]\s|:\s|\(|\))\s*/)) {
    clause = clause.replace(/^["'*\s]+/, '').replace(leadConjunction, '');
    if (!clause) continue;
    starts.push({ clause, afterComma: false });
    // After a comma: "If a customer asks, never …", "During an incident, do not …".
    for (const [i, part] of clause.split(', ').entries()) {
      if (i > 0) starts.push({ clause: part.replace(leadConjunction, ''), afterComma: true });
    }
  }
  return starts;
}

const clauseStarts = (sentence: string) => clauseStartsOf(sentence, LEAD_CONJUNCTION);

function findForm(sentence: string): { form: RuleForm; verb?: string; detail: string } | undefined {
  for (const { clause, afterComma } of clauseStarts(sentence)) {
    let m = PROHIBITION.exec(clause);
    if (m) return { form: 'prohibition', verb: m.groups?.verb, detail: m[1]!.toLowerCase() };
    m = ALWAYS.exec(clause);
    if (m) return { form: 'always', verb: m.groups?.verb, detail: 'always' };
    if (afterComma) continue; // mid-clause, only an imperative opens a new instruction
    m = WE_CANNOT.exec(clause);
    if (m) return { form: 'we-cannot', verb: m.groups?.verb, detail: m[0].trim().toLowerCase() };
    m = OBLIGATION.exec(clause);
    if (m) {
      const subject = m.groups!.subject!.trim();
      const modal = m.groups!.modal!.toLowerCase();
      const customers = SECOND_PERSON.test(subject) || CONDITION.test(subject);
      const ability = /^(cannot|can't|can not)$/.test(modal);
      if (!customers && (!ability || AGENT_SUBJECT.test(subject))) {
        return { form: 'obligation', verb: m.groups?.verb, detail: `${subject} ${modal}`.toLowerCase() };
      }
    }
  }
  const only = ONLY_MAY.exec(sentence);
  if (only && !SECOND_PERSON.test(only.groups?.subject ?? '')) {
    return { form: 'only-may', verb: only.groups?.verb, detail: only[0].trim().toLowerCase() };
  }
  const authority = AUTHORITY.exec(sentence);
  if (authority) return { form: 'authority', detail: authority[0].toLowerCase() };
  const conditional = CONDITION.test(sentence);
  for (const { clause, afterComma } of clauseStarts(sentence)) {
    if (afterComma && !conditional) continue;
    const first = /^[a-z]+/i.exec(clause)?.[0];
    // "Name of the client", "Share: …" are nouns, not imperatives.
    if (first && RULE_IMPERATIVES.has(first.toLowerCase()) && !/^[a-z]+\s*(?:of\b|:|$)/i.test(clause)) {
      return { form: 'imperative', verb: first.toLowerCase(), detail: first.toLowerCase() };
    }
  }
  return undefined;
}

/** The policy words of a sentence (lowercase, as listed in POLICY_WORDS). */
export function policyWords(sentence: string): string[] {
  return POLICY_PATTERNS.filter((p) => p.re.test(sentence)).map((p) => p.word);
}

/** What a sentence's score is made of (see docs/rule-detection.md, step 2), read by each language's patterns. */
export interface RuleEvidence {
  form: RuleForm;
  /** The words that made the form ("never", "darf … nicht"). */
  detail: string;
  /** The directive's speech or commitment verb, if it has one. */
  speechVerb?: string;
  /** Policy words of the sentence, as listed. */
  policy: string[];
  assistant: boolean;
  thirdPerson: boolean;
  /** The sentence speaks to the customer ("your …", a clause whose subject is "you"). */
  customerAddressed: boolean;
}

/** The score of a sentence with a directive form, and whether it reads as a rule. */
export function verdictOf({ form, detail, speechVerb, policy, assistant, thirdPerson, customerAddressed }: RuleEvidence): RuleVerdict {
  const signals = [`${form} "${detail}"`];
  let score = 0;
  if (speechVerb) {
    score += 1;
    signals.push(`speech "${speechVerb}"`);
  }
  if (policy.length) {
    score += Math.min(2, policy.length);
    signals.push(...policy.slice(0, 2).map((w) => `policy "${w}"`));
  }
  if (assistant) {
    score += 2;
    signals.push('assistant');
  } else if (thirdPerson) {
    score += 1;
    signals.push('third-person customer');
  }
  if (form === 'authority') {
    score += 1;
    signals.push('authority');
  }
  if (customerAddressed && !thirdPerson && !assistant) {
    score -= 2;
    signals.push('second person (speaks to the customer)');
  }
  // Help pages are full of plain imperatives ("Ask for a refund within 14 days"): one
  // counts only when it is about a customer or the assistant ("Point the customer to …").
  const rule = score >= RULE_THRESHOLD && (form !== 'imperative' || assistant || thirdPerson);
  return { rule, score, form, signals };
}

/** Scores one English sentence (plain text, markdown already removed). */
export function classifySentence(raw: string): RuleVerdict {
  const sentence = normalize(raw).trim();
  const found = findForm(sentence);
  if (!found) return { rule: false, score: 0, signals: [] };
  const verb = found.verb?.toLowerCase();
  return verdictOf({
    form: found.form,
    detail: found.detail,
    speechVerb: verb && SPEECH_VERBS.has(verb) ? verb : undefined,
    policy: policyWords(sentence),
    assistant: ASSISTANT.test(sentence),
    thirdPerson: THIRD_PERSON.test(sentence),
    customerAddressed: POSSESSIVE_SECOND_PERSON.test(sentence) || clauseStarts(sentence).some(({ clause }) => /^you\b/i.test(clause)),
  });
}

const OBTAINABLE = new Set([
  'refund', 'discount', 'coupon', 'credit', 'compensation', 'exception', 'reimbursement',
  'free month', 'free upgrade', 'promo code', 'extension',
]);
const PRICE_WORDS = new Set(['price', 'pricing', 'fee', 'cost']);

/** "what about <word>?": the question about a key word with no question of its own. */
export const aboutWord = (word: string) => `what about ${word}?`;

/** The question a customer asks about a rule's key word: "can I get a refund?", "what is the price?", … */
export function questionFor(word: string): string {
  if (word === 'money back') return 'can I get my money back?';
  if (OBTAINABLE.has(word)) return `can I get ${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}?`;
  if (PRICE_WORDS.has(word)) return `what is the ${word}?`;
  return aboutWord(word);
}

/** Words that make a sentence a rule rather than say what it is about (kb-check/questions.ts leaves them out of key words). */
export const RULE_WORDS: ReadonlySet<string> = new Set([
  'promise', 'promised', 'tell', 'say', 'quote', 'offer', 'share', 'mention', 'reveal', 'disclose',
  'discuss', 'confirm', 'comment', 'speculate', 'ask', 'answer', 'name', 'recommend', 'advise',
  'decided', 'decide', 'decides', 'approved', 'approve', 'granted', 'grant', 'determined',
  'authorized', 'authorised', 'issued', 'handled', 'team', 'customer', 'customers', 'client',
  'clients', 'assistant', 'agent', 'agents', 'bot', 'chatbot', 'support', 'staff', 'always',
  'cannot', 'may', 'not', 'instead', 'allowed', 'final', 'call', 'discretion', 'rather', 'ever',
  'also', 'explain', 'reply', 'respond', 'give', 'make', 'makes', 'sure', 'open',
]);

const IMPERATIVE_VERBS = new Set([
  'say', 'offer', 'quote', 'send', 'reply', 'answer', 'explain', 'point', 'share', 'ask', 'tell',
  'refer', 'escalate', 'use', 'keep', 'mention', 'check', 'confirm', 'direct', 'hand', 'open',
  'follow', 'include', 'apologize', 'apologise', 'suggest', 'recommend', 'treat', 'stay', 'redirect',
  'give', 'make', 'avoid', 'respond', 'link', 'cite', 'describe', 'decline', 'acknowledge',
]);

/**
 * Any instruction at all (for pinned sections: a section with none reads as reference
 * material). A directive form, or a clause starting with an imperative verb ("Say that …",
 * "Offer to …", "Quote numbers from here.").
 */
export function isInstruction(raw: string): boolean {
  const sentence = normalize(raw).trim();
  if (findForm(sentence)) return true;
  return clauseStarts(sentence).some(({ clause }) => IMPERATIVE_VERBS.has(clause.split(/\s+/)[0]!.toLowerCase()));
}
