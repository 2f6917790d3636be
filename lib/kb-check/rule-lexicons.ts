/**
 * The words and patterns that make a German, French or Spanish sentence read as a rule for the
 * support assistant (rule-languages.ts reads them; English keeps its own patterns in rules.ts).
 * Each list mirrors the English one in docs/rule-detection.md: the directive forms, the speech
 * and commitment verbs, the policy vocabulary, who the sentence is about or speaks to, and the
 * questions a customer asks about a policy word. Patterns run on a clause that starts at its
 * first word, case-insensitive, with Unicode letters (`\p{L}`). In a pattern given to `re()`,
 * `\B` stands for a word start and `\E` for a word end that know accented letters ("ä", "é"),
 * which `\b` does not.
 */

/** A policy word: `word` as listed in findings, `re` its forms in a sentence, `question` what a customer asks about it. */
export interface PolicyWord {
  word: string;
  re: RegExp;
  question: string;
}

export interface RuleLexicon {
  language: string;
  /** Words dropped from a clause's start ("und", "aber"…). */
  leadConjunction: RegExp;
  /** A clause that opens with a prohibition ("Niemals …", "Ne jamais …", "Nunca …"). */
  prohibitionStart: RegExp;
  /** A negation word (in an obligation's detail: "darf … niemals"). */
  negation: RegExp;
  /**
   * German: a negation (`negation`) in the clause of an imperative first word (`imperatives`)
   * makes a prohibition ("Versprich niemals …", "Teilen Sie … nicht mit"); the verb is the
   * imperative with the clause's last word when that is one of `separableParticles` ("Teilen
   * Sie … mit" is "mitteilen", "Biete … an" is "anbieten", "Geben Sie … ein" is "eingeben", no
   * speech verb); `irregular` gives the infinitive of imperatives that do not contain it ("gib").
   */
  negatedImperative?: { separableParticles: ReadonlySet<string>; irregular: Readonly<Record<string, string>> };
  /** German: a first word that is a noun spelled as an imperative ("Fragen zu Preisen …", "Teile der Gebühr …"). */
  nounFirst?: RegExp;
  /** German: modals that a negation turns into "need not" ("Kunden müssen keine Gebühr zahlen"), which is no duty. */
  needNot?: RegExp;
  /** German: modals of permission ("darf": may), a duty only negated or with "nur" ("darf nur", as English "may not", "may only"). */
  permission?: { modal: RegExp; restriction: RegExp };
  /** German: the subject standing after the modal ("Das Passwort sollten *Sie* niemals …"): the customer, not a duty. */
  subjectAfterModal?: RegExp;
  /** German: a clause's verb stands last ("Der Assistent darf niemals eine Erstattung *versprechen*"). */
  verbLast?: boolean;
  /** A clause that opens with "always" ("Immer …", "Toujours …"). */
  alwaysStart: RegExp;
  /** "always" after an imperative first word ("Verweise immer …", "Indiquez toujours …"): the whole word. */
  alwaysWord: RegExp;
  /** "We cannot / do not …" at a clause's start; group `verb` when the pattern names it. */
  weCannot: RegExp;
  /** Subject + modal ("Der Assistent darf keine …", "L'assistant ne doit jamais …"): groups `subject`, `modal`. */
  obligation: RegExp;
  /** An obligation's modal that states an ability, not a duty ("kann", "ne peut pas"): it needs an agent subject and a negation ("Das Team kann keine …") or `restrictedAbility`. */
  ability: RegExp;
  /** An ability modal that restricts ("solo puede": can only): a duty for an agent subject without a negation. */
  restrictedAbility?: RegExp;
  /**
   * An infinitive that is the subject of a statement, not an instruction ("Demander un
   * remboursement est simple"): a clause that opens with one is no imperative.
   */
  infinitiveSubject?: RegExp;
  /** "only X may / decides": group `subject`. */
  onlyMay: RegExp;
  /** "decided by", "at the discretion of", "has the final say". */
  authority: RegExp;
  /** A clause that starts with a condition ("Wenn …", "Si …"): its modal is the customer's, not a duty. */
  condition: RegExp;
  /** The assistant or support staff. */
  assistant: RegExp;
  /** Words that name an agent as a subject (for an ability modal). */
  agentSubject: RegExp;
  /** A customer in the third person ("der Kunde", "le client", "otros clientes"). */
  thirdPerson: RegExp;
  /** Speaking to the customer: a second-person possessive anywhere. */
  possessiveSecondPerson: RegExp;
  /** Speaking to the customer: a clause whose subject is "you". */
  secondPersonSubject: RegExp;
  /** Imperative (or infinitive) first words that instruct support ("Verweise", "Orientez", "Remite"). */
  imperatives: ReadonlySet<string>;
  /**
   * A pronoun written onto an imperative ("orientez-le", "remítelo", "Dile"): taken off a first
   * word that is not itself a listed verb, accents dropped ("remíte" → "remite").
   */
  clitic?: RegExp;
  /** Any instruction's first word (a pinned section with none reads as reference material). */
  instructionVerbs: ReadonlySet<string>;
  /** Speech and commitment verbs, in the forms rules use (infinitive, imperatives, participle). */
  speechVerbs: ReadonlySet<string>;
  policy: PolicyWord[];
  /** The question about a key word with no question of its own. */
  about(word: string): string;
  /** Words that make a sentence a rule rather than say what it is about (lowercase). */
  ruleWords: ReadonlySet<string>;
  /**
   * German writes instructions as an infinitive at the clause's end ("Den Kunden auf die
   * Statusseite verweisen."): such a clause counts as an imperative when its last word, as
   * written, matches `infinitive` (lowercase: "Fragen" at the end is a noun) and none of
   * `finiteVerbs` is in it ("Sie können den Kunden verweisen" is a statement).
   */
  infinitiveLast?: { infinitive: RegExp; finiteVerbs: RegExp };
}

/** A word boundary that knows accented letters. */
const B = String.raw`(?<![\p{L}\p{N}])`;
const E = String.raw`(?![\p{L}\p{N}])`;
const re = (source: string, flags = 'iu') => new RegExp(source.replaceAll('\\B', B).replaceAll('\\E', E), flags);
const words = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/));
const policy = (word: string, source: string, question: string): PolicyWord => ({ word, re: re(source), question });

// ---------------------------------------------------------------------------
// German. Word order puts the verb last in a clause with a modal ("Der Assistent darf niemals
// eine Erstattung versprechen"), so the speech verb is the clause's last word, and "darf" or
// "soll" with a negation anywhere after it is a prohibition. "muss nicht" / "müssen keine" is
// "need not", no duty at all; "kann" is a duty only negated, of an agent ("Das Team kann keine
// Rabatte gewähren"), since "Das Team kann Rückerstattungen bearbeiten" says what it does.

const DE_SPEECH = words(`
  versprechen versprich versprecht verspricht versprochen zusagen zusage sagt zugesagt zusichern sichere zugesichert
  garantieren garantiere garantiert sagen sage sag gesagt nennen nenne nennt genannt mitteilen teile mitgeteilt teilen
  verraten verrate verrät offenlegen lege offengelegt preisgeben gib gibt preisgegeben weitergeben weitergegeben geben
  bestätigen bestätige bestätigt anbieten biete bietet angeboten bieten erstatten erstatte erstattet gewähren gewähre
  gewährt genehmigen genehmige genehmigt zustimmen stimme zugestimmt empfehlen empfiehl empfiehlt empfohlen raten rate
  rät beraten berate kommentieren kommentiere spekulieren spekuliere vergleichen vergleiche fragen frage frag fragt
  antworten antworte antwortet beantworten beantworte eskalieren eskaliere ändern ändere übertragen übertrage
  weiterleiten leite verweisen verweise verweist entschuldigen entschuldige zugeben schätzen schätze vorhersagen
  besprechen bespreche diskutieren diskutiere erwähnen erwähne erwähnt machen mache macht
  erfinden erfinde sprechen sprich nenn
`);

const DE_IMPERATIVES = words(`
  sag sage sagen nenne nennen biete bieten antworte antworten verweise verweisen leite leiten eskaliere eskalieren
  entschuldige entschuldigen erkläre erklären bestätige bestätigen empfiehl empfehlen teile teilen frage fragen
  versprich versprechen gib geben behandle behandeln weise weisen schreibe schreiben nenn erfinde erfinden
  vergleiche vergleichen kommentiere kommentieren spekuliere spekulieren
`);

/** The particles of separable verbs, standing last in an imperative clause ("Teilen Sie … mit"). */
const DE_SEPARABLE_PARTICLES = words('ab an auf aus bei ein fest her hin mit nach vor weg weiter zu zurück zusammen');

const de: RuleLexicon = {
  language: 'de',
  leadConjunction: re(String.raw`^(?:und|aber|oder|also|dann|auch|sondern|stattdessen|sonst|bitte)\s+`),
  prohibitionStart: re(String.raw`^(?:bitte\s+)?(?:niemals|nie(?!\s+wieder\E)|keinesfalls|auf keinen fall|unter keinen umständen|auf gar keinen fall|es ist (?:verboten|untersagt|nicht erlaubt|nicht gestattet))\E|^(?:kein|keine|keinen|keinem|keiner|keines|nichts|nicht)\s+(?:[\p{L}-]+\s+){0,6}(?<verb>${[...DE_SPEECH, ...DE_IMPERATIVES].filter((w) => w.endsWith('en')).join('|')})\s*[.!]?$`),
  negation: re(String.raw`\B(?:nie|niemals|nicht|keinesfalls|kein|keine|keinen|keinem|keiner|keines|nichts)\E`),
  negatedImperative: { separableParticles: DE_SEPARABLE_PARTICLES, irregular: { gib: 'geben', sprich: 'sprechen', nimm: 'nehmen', empfiehl: 'empfehlen', versprich: 'versprechen', sag: 'sagen', nenn: 'nennen' } },
  nounFirst: re(String.raw`^(?:fragen|frage|antworten|antwort|teile|weise)\s+(?:zu|zur|zum|auf|der|des|von|vom|und|über|an)\E`),
  needNot: re(String.raw`^(?:muss|müssen)$`),
  permission: { modal: re(String.raw`^(?:darf|dürfen)$`), restriction: re(String.raw`\B(?:nur|ausschließlich|lediglich)\E`) },
  subjectAfterModal: /^Sie(?![\p{L}\p{N}])/u,
  verbLast: true,
  // Not "Immer mehr Kunden …" (more and more).
  alwaysStart: re(String.raw`^(?:bitte\s+)?immer\E(?!\s+(?:mehr|weniger|wieder|noch|häufiger|öfter)\E)`),
  alwaysWord: re(String.raw`^(?:immer|stets)$`),
  weCannot: re(String.raw`^wir\s+(?:(?<modal>können|dürfen|werden|wollen)\s+(?:\p{L}+\s+){0,3}?(?:nicht|nie|niemals|kein\p{L}*)|(?<verb>\p{L}+)\s+(?:\p{L}+\s+)?(?:nicht|nie|niemals|kein\p{L}*))\E`),
  obligation: re(String.raw`^(?<subject>(?:[\p{L}'-]+\s+){1,6}?)(?<modal>darf|dürfen|soll|sollen|sollte|sollten|muss|müssen|kann|können)\E(?<rest>.*)$`),
  ability: re(String.raw`^(?:kann|können)$`),
  onlyMay: re(String.raw`\B(?:nur|ausschließlich|allein|einzig)\s+(?<subject>(?:[\p{L}-]+\s+){1,4}?)(?:darf|dürfen|kann|können|entscheidet|entscheiden|genehmigt|genehmigen|bewilligt|bewilligen)\E`),
  authority: re(String.raw`\B(?:wird|werden)\s+(?:[\p{L}-]+\s+){0,6}?(?:von|vom)\s+(?:[\p{L}-]+\s+){1,4}?(?:entschieden|genehmigt|bewilligt|festgelegt|freigegeben|bestätigt|gewährt)\E|\Bim\s+(?:alleinigen\s+)?ermessen\E|\Bdas letzte wort\E|\Bentscheide[tn]\s+(?:allein|abschließend|endgültig|ausschließlich|nur|einzig)\E`),
  condition: re(String.raw`^(?:wenn|falls|sobald|bevor|nachdem|während|solange|auch wenn|selbst wenn|sofern)\E`),
  // As in English: the assistant, a bot, support's agents or staff; not the team or service a customer is sent to.
  assistant: re(String.raw`\B(?:assistent(?:in|en)?|chatbot|bot|support-?mitarbeiter(?:in|innen)?|support-?agent(?:in|innen|en)?|kundendienstmitarbeiter(?:in|innen)?|servicemitarbeiter(?:in|innen)?|mitarbeiter(?:in|innen)?\s+(?:im|des)\s+support)\E`),
  agentSubject: re(String.raw`\B(?:wir|assistent\p{L}*|chatbot|bot|support\p{L}*|team|mitarbeiter\p{L}*)\E`),
  thirdPerson: re(String.raw`\B(?:(?:der|die|den|dem|des|ein|eine|einen|einem|eines|einer|jede[nmrs]?|kein\p{L}*|andere[nmrs]?)\s+(?:kunde|kundin|kunden|kundinnen)|kunden|kundinnen)\E`),
  possessiveSecondPerson: new RegExp(`${B}(?:Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres|[dD]ein|[dD]eine|[dD]einen|[dD]einem|[dD]einer|[dD]eines|[eE]uer|[eE]ure)${E}`, 'u'),
  secondPersonSubject: re(String.raw`^(?:sie|du|ihr)\E`),
  imperatives: DE_IMPERATIVES,
  instructionVerbs: new Set([...DE_IMPERATIVES, ...words('verwende verwenden nutze nutzen halte halten prüfe prüfen öffne öffnen folge folgen füge fügen bleibe bleiben vermeide vermeiden zitiere zitieren beschreibe beschreiben verlinke verlinken lehne lehnen')]),
  speechVerbs: DE_SPEECH,
  policy: [
    policy('rückerstattung', String.raw`\B(?:rück)?erstatt\p{L}*|\Bgeld\s+zurück\p{L}*`, 'Kann ich eine Rückerstattung bekommen?'),
    policy('preis', String.raw`\B\p{L}*preis(?!geb|gab)\p{L}*`, 'Was ist der Preis?'),
    policy('gebühr', String.raw`\B\p{L}*gebühr\p{L}*`, 'Wie hoch ist die Gebühr?'),
    policy('rabatt', String.raw`\B\p{L}*rabatt\p{L}*|\Bnachlass\p{L}*`, 'Kann ich einen Rabatt bekommen?'),
    policy('gutschein', String.raw`\B\p{L}*gutschein\p{L}*|\Bpromo-?code\p{L}*`, 'Kann ich einen Gutschein bekommen?'),
    policy('gutschrift', String.raw`\Bgutschrift\p{L}*`, 'Kann ich eine Gutschrift bekommen?'),
    policy('entschädigung', String.raw`\Bentschädigung\p{L}*|\Bkompensation\p{L}*`, 'Kann ich eine Entschädigung bekommen?'),
    policy('ausnahme', String.raw`\Bausnahme\p{L}*`, 'Kann ich eine Ausnahme bekommen?'),
    policy('garantie', String.raw`\Bgarantie(?!r)\p{L}*`, 'Gibt es eine Garantie?'),
    policy('rechtsberatung', String.raw`\Brechtlich\p{L}*|\Brechtsberatung\E|\Banwalt\p{L}*|\Bklage\p{L}*`, 'Was ist mit Rechtsberatung?'),
    policy('steuerberatung', String.raw`\Bsteuerberatung\E|\Bsteuerlich\p{L}*\s+beratung\E`, 'Was ist mit Steuerberatung?'),
    policy('sla', String.raw`\Bsla\p{L}*`, 'Was ist mit dem SLA?'),
    policy('rückbuchung', String.raw`\Brückbuchung\p{L}*|\Bchargeback\p{L}*`, 'Was ist mit einer Rückbuchung?'),
    policy('wettbewerber', String.raw`\Bwettbewerber\p{L}*|\Bkonkurren\p{L}*`, 'Was ist mit Wettbewerbern?'),
    policy('andere kunden', String.raw`\Bander\p{L}*\s+(?:kund\p{L}*)|\Bkundennamen?\E`, 'Welche anderen Kunden gibt es?'),
    policy('passwort', String.raw`\B(?:passwort|passwörter|kennwort|kennwörter)\E|\B\p{L}*code\s+der\s+zwei-faktor\p{L}*|\Bzwei-faktor-code\p{L}*`, 'Was ist mit meinem Passwort?'),
    policy('kartennummer', String.raw`\B\p{L}*kartennummer\p{L}*`, 'Was ist mit meiner Kartennummer?'),
    policy('personenbezogene daten', String.raw`\Bpersonenbezogene\p{L}*\s+daten\E|\Bpersönliche\p{L}*\s+daten\E`, 'Was ist mit personenbezogenen Daten?'),
    policy('gratismonat', String.raw`\Bgratismonat\p{L}*|\Bkostenlose\p{L}*\s+monat\p{L}*`, 'Kann ich einen Gratismonat bekommen?'),
    policy('termin', String.raw`\B(?:liefer|erscheinungs|veröffentlichungs|release)termin\p{L}*|\Broadmap\E|\Bfrist\p{L}*`, 'Wann kommt das?'),
  ],
  about: (word) => `Was ist mit ${word}?`,
  infinitiveLast: {
    infinitive: /^\p{Ll}\p{L}*en$/u,
    finiteVerbs: re(String.raw`\B(?:kann|kannst|können|könnt|darf|darfst|dürfen|dürft|soll|sollst|sollen|sollt|sollte|sollten|muss|musst|müssen|müsst|wird|wirst|werden|werdet|wurde|wurden|ist|bist|sind|seid|war|waren|hat|hast|haben|habt|hatte|hatten|möchte|möchten|will|willst|wollen|wollt|gibt|geht|lässt|lassen)\E`),
  },
  ruleWords: words(`
    versprechen zusagen sagen nennen mitteilen teilen verraten bestätigen anbieten kommentieren spekulieren fragen
    antworten empfehlen raten entschieden entscheiden entscheidet genehmigt genehmigen bewilligt festgelegt team kunde
    kunden kundin assistent assistentin chatbot bot support mitarbeiter immer stets niemals nie nicht darf dürfen soll
    sollen muss müssen kann können stattdessen erlaubt erklären antworte geben machen letzte wort ermessen
  `),
};

// ---------------------------------------------------------------------------
// French. A negation around the verb ("ne … jamais", "ne … pas", "n'… aucun") after a modal
// ("ne doit jamais") is a prohibition; a clause that opens with "ne" is a negated imperative or
// infinitive ("Ne jamais promettre", "Ne promettez pas"). Prose negates everywhere ("le
// remboursement n'est pas garanti"), so a negation elsewhere is no form at all.

const FR_SPEECH = words(`
  promettre promettez promets promis promise garantir garantissez garantis garanti garantie dire dites dis dit
  indiquer indiquez indique communiquer communiquez communique divulguer divulguez révéler révélez partager partagez
  partage mentionner mentionnez mentionne citer citez cite confirmer confirmez confirme proposer proposez propose
  offrir offrez offre accorder accordez accorde rembourser remboursez rembourse consentir approuver approuvez
  recommander recommandez recommande conseiller conseillez conseille commenter commentez spéculer spéculez demander
  demandez demande répondre répondez réponds comparer comparez accepter acceptez modifier modifiez changer changez
  transférer transférez fournir fournissez donner donnez donne faire faites fais excuser excusez admettre admettez
  estimer estimez prédire annoncer annoncez nommer nommez inventer inventez invente orienter orientez oriente renvoyer renvoyez rediriger
  redirigez escalader escaladez transmettre transmettez discuter discutez parler parlez
  promettons garantissons remboursons offrons proposons accordons communiquons partageons donnons faisons acceptons
  divulguons confirmons
`);

const FR_IMPERATIVES = words(`
  dites dis dire indiquez indique indiquer proposez propose proposer orientez oriente orienter renvoyez renvoie renvoyer
  redirigez redirige rediriger répondez réponds répondre expliquez explique expliquer escaladez escalade escalader
  transmettez transmets transmettre excusez-vous excuse-toi confirmez confirme confirmer recommandez recommande
  recommander conseillez conseille conseiller citez cite citer mentionnez mentionne mentionner promettez promets
  promettre demandez demande demander communiquez communique communiquer traitez traite traiter invitez invite inviter
`);

const fr: RuleLexicon = {
  language: 'fr',
  leadConjunction: re(String.raw`^(?:et|mais|ou|donc|puis|aussi|sinon|plutôt|ensuite)\s+`),
  prohibitionStart: re(String.raw`^(?:veuillez|merci de|prière de|veillez à)?\s*(?:ne\s+|n')(?!hésit|importe|vous\s+inqui|t'inqui|vous\s+en\s+faites|t'en\s+fais|vous\s+faites\s+pas\s+de\s+souci)|^(?:jamais|en aucun cas|sous aucun prétexte|il est interdit|interdiction|il ne faut (?:jamais|pas)|évitez|éviter|évite)\E`),
  negation: re(String.raw`\B(?:ne\E|n'|jamais\E|pas\E|aucune?\E|rien\E)`),
  alwaysStart: re(String.raw`^toujours\E(?!\s+(?:plus|moins|pas)\E)`),
  alwaysWord: re(String.raw`^toujours$`),
  weCannot: re(String.raw`^nous\s+(?:ne|n')\s*(?<verb>\p{L}+)`),
  obligation: re(String.raw`^(?<subject>(?:[\p{L}'-]+\s+){1,6}?)(?<modal>(?:ne|n')\s*(?:doit|doivent|devra|devront|devrait|devraient|peut|peuvent|pourra|pourront)\s+(?:jamais|pas|en aucun cas)|doit|doivent|devra|devront|n'est pas autorisée?|ne sont pas autorisée?s|n'est pas habilitée?|n'a pas le droit de|n'ont pas le droit de|ne peut|ne peuvent)\E(?<rest>.*)$`),
  ability: re(String.raw`\B(?:peut|peuvent|pourra|pourront)\E`),
  onlyMay: re(String.raw`\B(?:seul|seule|seuls|seules|uniquement|exclusivement)\s+(?<subject>(?:[\p{L}'-]+\s+){1,4}?)(?:peut|peuvent|décide|décident|approuve|approuvent|est habilitée?|sont habilitée?s|est autorisée?|sont autorisée?s)\E`),
  authority: re(String.raw`\B(?:est|sont)\s+(?:uniquement\s+|exclusivement\s+|seulement\s+)?(?:décidée?s?|approuvée?s?|accordée?s?|validée?s?|fixée?s?|autorisée?s?|déterminée?s?|confirmée?s?)\s+(?:uniquement\s+|exclusivement\s+)?par\E|\Bà la (?:seule |libre |entière )?discrétion\E|\Ba le dernier mot\E|\Bprend la décision finale\E`),
  condition: re(String.raw`^(?:(?:si|s'il|s'ils|lorsque|quand|avant|après|pendant que|tant que|une fois|même si|au cas où|dès que)\E|lorsqu')`),
  assistant: re(String.raw`\B(?:assistante?s?|chatbot|bot|agents?\s+(?:du\s+|de\s+)?(?:support|service\s+client\p{L}*)|conseill(?:er|ère)s?\s+(?:du|de)\s+(?:support|service\s+client\p{L}*)|représentants?)\E`),
  agentSubject: re(String.raw`\B(?:nous|assistante?|chatbot|bot|agents?|support|équipe|conseill\p{L}*|représentant\p{L}*)\E`),
  thirdPerson: re(String.raw`\B(?:(?:le|la|les|un|une|du|des|au|aux|chaque|aucun|aucune|autres?|d'autres|l')\s*(?:client|cliente|clients|clientes)|clients|clientes)\E`),
  possessiveSecondPerson: re(String.raw`\B(?:votre|vos|ton|ta|tes)\E`),
  secondPersonSubject: re(String.raw`^(?:vous|tu)\E`),
  // The statement's verb before any subordinate clause ("Proposer un geste si le client *est* mécontent" is an instruction).
  infinitiveSubject: re(String.raw`^\p{L}+(?:er|ir|re)\s+(?:(?!(?:que|qu'|si|s'|lorsque|lorsqu'|quand)(?![\p{L}]))[\p{L}'-]+\s+){0,8}(?:est|sont|était|sera|reste|permet)\E`),
  clitic: /-(?:le|la|les|lui|leur|nous|moi|y|en)$/u,
  imperatives: FR_IMPERATIVES,
  instructionVerbs: new Set([...FR_IMPERATIVES, ...words('utilisez utilise utiliser gardez garde garder vérifiez vérifie vérifier ouvrez ouvre ouvrir suivez suis suivre incluez inclure restez reste rester évitez éviter reliez relier décrivez décrire refusez refuse refuser')]),
  speechVerbs: FR_SPEECH,
  policy: [
    policy('remboursement', String.raw`\Bremboursements?\E|\Brembours\p{L}*|\Brécupérer\s+(?:son|votre|mon|leur)\s+argent\E`, 'Puis-je obtenir un remboursement ?'),
    policy('prix', String.raw`\Bprix\E|\Btarifs?\E|\Btarification\p{L}*`, 'Quel est le prix ?'),
    policy('frais', String.raw`\Bfrais\E`, 'Quels sont les frais ?'),
    policy('remise', String.raw`\Bremises?\E|\Brabais\E|\Bréductions?\E`, 'Puis-je avoir une remise ?'),
    policy('code promo', String.raw`\Bcodes?\s+promo\p{L}*|\Bcoupons?\E|\Bbons?\s+de\s+réduction\E`, 'Avez-vous un code promo ?'),
    policy('crédit', String.raw`\Bcrédits?\E|\Bavoirs\E`, 'Puis-je obtenir un crédit ?'),
    policy('dédommagement', String.raw`\Bdédommag\p{L}*|\Bindemni\p{L}*|\Bcompensations?\E`, 'Puis-je obtenir un dédommagement ?'),
    policy('exception', String.raw`\Bexceptions?\E|\Bgeste\s+commercial\E`, 'Puis-je bénéficier d’une exception ?'),
    policy('garantie', String.raw`\Bgaranties\E|\Bla garantie\E|\Bune garantie\E`, 'Y a-t-il une garantie ?'),
    policy('juridique', String.raw`\Bjuridiques?\E|\Bavocats?\E|\Bprocès\E|\Bpoursuites?\s+judiciaires?\E|\Bconseils?\s+légaux\E`, 'Et pour les questions juridiques ?'),
    policy('conseil fiscal', String.raw`\Bconseils?\s+fisca\p{L}*|\Bfiscal\p{L}*`, 'Et pour les questions fiscales ?'),
    policy('sla', String.raw`\Bsla\E`, 'Et pour le SLA ?'),
    policy('rétrofacturation', String.raw`\Brétrofacturation\p{L}*|\Bchargebacks?\E|\Bopposition\s+bancaire\E`, 'Et pour une rétrofacturation ?'),
    policy('concurrent', String.raw`\Bconcurren\p{L}*`, 'Et par rapport aux concurrents ?'),
    policy('autres clients', String.raw`\Bautres?\s+clients?\E|\Bautres?\s+clientes?\E|\Bnoms?\s+(?:de|des|d'un)\s+clients?\E`, 'Quels autres clients avez-vous ?'),
    policy('mot de passe', String.raw`\Bmots?\s+de\s+passe\E|\Bcodes?\s+(?:de\s+)?(?:double authentification|2fa)\E`, 'Et pour mon mot de passe ?'),
    policy('numéro de carte', String.raw`\Bnuméros?\s+de\s+carte\p{L}*`, 'Et pour mon numéro de carte ?'),
    policy('données personnelles', String.raw`\Bdonnées\s+personnelles\E`, 'Et pour les données personnelles ?'),
    policy('mois gratuit', String.raw`\Bmois\s+gratuits?\E|\Bmois\s+offerts?\E`, 'Puis-je avoir un mois gratuit ?'),
    policy('date de sortie', String.raw`\Bdates?\s+de\s+(?:sortie|livraison|disponibilité)\E|\Bfeuille\s+de\s+route\E|\Bdélais?\s+de\s+(?:livraison|correction|résolution|mise\s+à\s+disposition)\E`, 'Quand est-ce que ce sera disponible ?'),
  ],
  about: (word) => (/^[aeiouyhàâéèêîôû]/i.test(word) ? `Qu'en est-il d'${word} ?` : `Qu'en est-il de ${word} ?`),
  ruleWords: words(`
    promettre dire indiquer communiquer partager mentionner confirmer proposer commenter spéculer demander répondre
    recommander conseiller décidé décidée décide décident approuvé approuvée accordé équipe client clients cliente
    assistant assistante agent agents chatbot bot support toujours jamais doit doivent peut peuvent autorisé plutôt
    expliquer donner faire dernier mot discrétion
  `),
};

// ---------------------------------------------------------------------------
// Spanish. A clause that opens with "no" is a prohibition only when an infinitive, a
// subjunctive (the negated imperative) or "debe" follows ("No prometas", "No prometer", "No se
// debe"): "No es posible …", "No se ofrece …", "No se pueden combinar …" are prose.

/** Speech verbs as a negated imperative or an infinitive: what may follow "no" in a prohibition. */
const ES_NEGATED_SPEECH = words(`
  prometer prometas prometa prometan garantizar garantices garantice decir digas diga comunicar comuniques comunique
  revelar reveles revele divulgar divulgues divulgue compartir compartas comparta mencionar menciones mencione citar
  cites cite confirmar confirmes confirme ofrecer ofrezcas ofrezca conceder concedas conceda reembolsar reembolses
  reembolse aprobar apruebes apruebe recomendar recomiendes recomiende aconsejar aconsejes aconseje comentar comentes
  comente especular especules especule pedir pidas pida preguntar preguntes pregunte responder respondas responda
  contestar contestes conteste comparar compares compare aceptar aceptes acepte cambiar cambies cambie modificar
  transferir proporcionar dar des dé hacer hagas haga admitir estimar predecir remitir remitas remita derivar derives
  derive escalar escales escale hablar hables hable discutir indicar indiques indique inventar inventes invente
`);

const ES_SPEECH = new Set([...ES_NEGATED_SPEECH, ...words(`
  promete prometido garantiza garantizado di dice comunica revela comparte menciona cita confirma ofrece concede
  reembolsa aprueba recomienda aconseja comenta pide pregunta responde contesta compara acepta cambia da haz remite
  deriva escala habla indica
  prometemos garantizamos reembolsamos ofrecemos damos hacemos aceptamos compartimos concedemos aprobamos
  devolvemos revelamos confirmamos
`)]);

const ES_IMPERATIVES = words(`
  di diga decir indica indique indicar ofrece ofrezca ofrecer remite remita remitir dirige dirija dirigir redirige
  redirija redirigir responde responda responder contesta conteste contestar explica explique explicar escala escale
  escalar deriva derive derivar confirma confirme confirmar recomienda recomiende recomendar aconseja aconseje
  aconsejar cita cite citar menciona mencione mencionar promete prometa prometer pide pida pedir comunica comunique
  comunicar trata trate tratar discúlpate discúlpese invita invite invitar
`);

const es: RuleLexicon = {
  language: 'es',
  leadConjunction: re(String.raw`^(?:y|pero|o|así que|luego|también|sino|en cambio|de lo contrario)\s+`),
  prohibitionStart: re(String.raw`^(?:por favor,?\s+)?(?:nunca|jamás|en ningún caso|bajo ningún concepto|bajo ninguna circunstancia|(?:está|queda)\s+(?:terminantemente\s+|estrictamente\s+)?prohibido|evita|evite|evitar)\E|^(?:por favor,?\s+)?no\s+(?:se\s+|te\s+|me\s+|nos\s+|le\s+|les\s+|lo\s+|la\s+|los\s+|las\s+){0,2}(?<verb>debe|deben|debes|${[...ES_NEGATED_SPEECH].join('|')})\E`),
  negation: re(String.raw`\B(?:nunca|jamás|no|ningún|ninguna|nada)\E`),
  // Not "Siempre ofrecemos …": what we always do is a statement (as English "We always …").
  alwaysStart: re(String.raw`^(?:por favor,?\s+)?siempre\E(?!\s+(?:se\s|(?:(?:le|les|lo|la|los|las|nos|me|te)\s+)?\p{L}+(?:amos|emos|imos)\E))`),
  alwaysWord: re(String.raw`^siempre$`),
  weCannot: re(String.raw`^(?:nosotros\s+)?(?:no|nunca|jamás)\s+(?:(?:le|les|lo|la|los|las|se)\s+)?(?<verb>\p{L}+(?:amos|emos|imos))\E`),
  obligation: re(String.raw`^(?<subject>(?:[\p{L}'-]+\s+){1,6}?)(?<modal>no\s+debe|no\s+deben|no\s+puede|no\s+pueden|nunca\s+debe|nunca\s+deben|debe|deben|deberá|deberán|tiene que|tienen que|tiene prohibido|tienen prohibido|no está autorizad[oa]|no están autorizad[oa]s|(?:s[oó]lo|solamente|únicamente) pueden?)\E(?<rest>.*)$`),
  ability: re(String.raw`\B(?:puede|pueden)\E`),
  restrictedAbility: re(String.raw`^(?:s[oó]lo|solamente|únicamente)\s`),
  onlyMay: re(String.raw`\B(?:solo|sólo|solamente|únicamente|exclusivamente)\s+(?<subject>(?:[\p{L}'-]+\s+){1,4}?)(?:puede|pueden|decide|deciden|aprueba|aprueban|está autorizad[oa]|están autorizad[oa]s)\E`),
  authority: re(String.raw`\B(?:es|son)\s+(?:únicamente\s+|exclusivamente\s+|solo\s+|sólo\s+)?(?:decidid|aprobad|concedid|determinad|autorizad|confirmad|fijad|emitid)[oa]s?\s+(?:únicamente\s+|solo\s+|sólo\s+)?por\E|\Ba (?:la )?(?:entera |sola |libre )?discreción\E|\Btiene la última palabra\E|\Btoma la decisión final\E`),
  condition: re(String.raw`^(?:si|cuando|antes de|después de|mientras|una vez|aunque|en caso de|incluso si)\E`),
  assistant: re(String.raw`\B(?:asistentes?|chatbot|bot|agentes?\s+de\s+(?:soporte|atención(?:\s+al\s+cliente)?)|agentes|personal\s+de\s+soporte|representantes?)\E`),
  agentSubject: re(String.raw`\B(?:nosotros|asistente\p{L}*|chatbot|bot|agente\p{L}*|soporte|equipo|personal|representante\p{L}*)\E`),
  thirdPerson: re(String.raw`\B(?:(?:el|la|los|las|un|una|al|del|cada|ningún|ninguna|otros?|otras?)\s+(?:cliente|clienta|clientes|clientas)|clientes|clientas)\E`),
  possessiveSecondPerson: re(String.raw`\B(?:tu|tus|tuyo|tuya|tuyos|tuyas|vuestro|vuestra|vuestros|vuestras)\E`),
  // Spanish drops the subject: a clause that opens (after "siempre", "también", "ya") with a
  // second-person verb speaks to the customer ("Siempre puedes pedir …", "Recibirás …").
  secondPersonSubject: re(String.raw`^(?:(?:siempre|también|ya|nunca|no)\s+)?(?:tú|usted|ustedes|vosotros|vosotras|puedes|podrás|debes|deberás|tienes|tendrás|necesitas|recibes|recibirás|verás|encontrarás|quieres|sueles)\E`),
  infinitiveSubject: re(String.raw`^\p{L}+(?:ar|er|ir)\s+(?:(?!(?:que|si|cuando)(?![\p{L}]))[\p{L}'-]+\s+){0,8}(?:es|son|era|será|resulta)\E`),
  clitic: /(?<=\p{L}{2})(?:selo|sela|selos|selas|le|les|lo|la|los|las|me|nos)$/u,
  imperatives: ES_IMPERATIVES,
  instructionVerbs: new Set([...ES_IMPERATIVES, ...words('usa use usar mantén mantenga mantener comprueba compruebe comprobar abre abra abrir sigue siga seguir incluye incluya incluir quédate evita evite evitar enlaza enlace enlazar describe describa describir rechaza rechace rechazar')]),
  speechVerbs: ES_SPEECH,
  policy: [
    policy('reembolso', String.raw`\Breembols\p{L}*|\Bdevol(?:ución|uciones|ver)\s+(?:del?\s+|el\s+|su\s+)?dinero\E`, '¿Puedo obtener un reembolso?'),
    policy('precio', String.raw`\Bprecios?\E|\Btarifas?\E`, '¿Cuál es el precio?'),
    policy('comisión', String.raw`\Bcomisi(?:ón|ones)\E|\Bcargos?\s+adicionales?\E`, '¿Cuáles son las comisiones?'),
    policy('descuento', String.raw`\Bdescuentos?\E|\Brebajas?\E`, '¿Puedo obtener un descuento?'),
    policy('cupón', String.raw`\Bcup(?:ón|ones)\E|\Bcódigos?\s+promocional(?:es)?\E`, '¿Tienen un código promocional?'),
    policy('crédito', String.raw`\Bcréditos?\E|\Bsaldo\s+a\s+favor\E`, '¿Puedo obtener un crédito?'),
    policy('compensación', String.raw`\Bcompensaci(?:ón|ones)\E|\Bindemnizaci(?:ón|ones)\E`, '¿Puedo obtener una compensación?'),
    policy('excepción', String.raw`\Bexcepci(?:ón|ones)\E`, '¿Pueden hacer una excepción?'),
    policy('garantía', String.raw`\Bgarantías?\E`, '¿Hay garantía?'),
    policy('legal', String.raw`\Blegal(?:es)?\E|\Bjurídic\p{L}*|\Babogad\p{L}*|\Bdemandas?\E`, '¿Y los temas legales?'),
    policy('asesoramiento fiscal', String.raw`\Basesor\p{L}*\s+fiscal\p{L}*|\Bfiscal(?:es)?\E`, '¿Y los temas fiscales?'),
    policy('sla', String.raw`\Bsla\E`, '¿Y el SLA?'),
    policy('contracargo', String.raw`\Bcontracargos?\E|\Bchargebacks?\E`, '¿Y un contracargo?'),
    policy('competidor', String.raw`\Bcompetidor\p{L}*|\Bcompetencia\E`, '¿Y la competencia?'),
    policy('otros clientes', String.raw`\Botr[oa]s?\s+client[ea]s?\E|\Bnombres?\s+de\s+(?:otros\s+)?clientes?\E`, '¿Qué otros clientes tienen?'),
    policy('contraseña', String.raw`\Bcontraseñas?\E|\Bcódigos?\s+de\s+(?:doble factor|verificación|2fa)\E`, '¿Y mi contraseña?'),
    policy('número de tarjeta', String.raw`\Bnúmeros?\s+de\s+(?:la\s+)?tarjeta\E`, '¿Y mi número de tarjeta?'),
    policy('datos personales', String.raw`\Bdatos\s+personales\E`, '¿Y los datos personales?'),
    policy('mes gratis', String.raw`\Bmes(?:es)?\s+gratis\E|\Bmes(?:es)?\s+gratuitos?\E`, '¿Puedo tener un mes gratis?'),
    policy('fecha de lanzamiento', String.raw`\Bfechas?\s+de\s+(?:lanzamiento|entrega|salida)\E|\Bhoja\s+de\s+ruta\E|\Bplazos?\s+de\s+(?:entrega|lanzamiento|resolución|corrección|disponibilidad)\E`, '¿Cuándo estará disponible?'),
  ],
  about: (word) => `¿Qué pasa con ${word}?`,
  ruleWords: words(`
    prometer decir indicar comunicar compartir mencionar confirmar ofrecer comentar especular pedir responder
    recomendar aconsejar decidido decidida decide deciden aprobado aprobada concedido equipo cliente clientes clienta
    asistente agente agentes chatbot bot soporte siempre nunca jamás debe deben puede pueden autorizado explicar dar
    hacer última palabra discreción
  `),
};

/** The lexicons of the languages other than English that rules are read in. */
export const RULE_LEXICONS: Readonly<Record<string, RuleLexicon>> = { de, fr, es };
