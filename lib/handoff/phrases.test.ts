import { describe, expect, it } from 'vitest';
import { parseIdentity } from '../retrieval/index';
import { compilePattern, normalizeWords, PERSON_PATTERNS, personLanguages, personMatcher, personMatcherOf } from './phrases';

describe('asking for a person in their own words (English)', () => {
  const english = personMatcher();

  const ASKS = [
    'I want to talk to a person',
    'Can I speak to a human?',
    'let me talk to someone please',
    'Can you connect me with a real person?',
    'transfer me to an agent',
    'I need a real human',
    "I'd like to speak with a representative",
    'i want a human',
    'get me a live agent!!',
    'LIVE AGENT',
    'human please',
    'Agent',
    'Representative, please.',
    'how do I contact customer support?',
    'can I email someone about this?',
    'I would like to contact the support team',
    'is there a customer service representative I can call',
    'are you a bot?',
    'r u a bot',
    'Are you human?',
    'is this a real person?',
    "I don't want a bot",
    'Stop the bot, I want a person',
    'talk to a humán', // accents are dropped
  ];
  const DOES_NOT_ASK = [
    'can I get a refund?',
    'how do I add a person to my team?',
    'what does the agent field mean in the API?',
    'is pricing per person or per seat?',
    'can I talk to my viewers during a live stream?',
    'how many people can watch a live stream?',
    'my agent string is blocked',
    'speak to the API from Python',
    'can real humans see my private videos?',
    'what is a representative sample of my analytics?',
    'hi, can you help me?',
    'I want to export my videos',
  ];

  it.each(ASKS)('"%s" asks for a person', (text) => {
    expect(english.match(text)).toBeDefined();
  });

  it.each(DOES_NOT_ASK)('"%s" does not', (text) => {
    expect(english.match(text)).toBeUndefined();
  });

  it('names the pattern that matched', () => {
    expect(english.match('human please')).toBe(PERSON_PATTERNS.en!.find((p) => p.endsWith(' please')));
  });
});

/** What must and must not match in each built-in language other than English: the matcher of that language alone. */
const LANGUAGES: Record<string, { asks: string[]; doesNotAsk: string[] }> = {
  de: {
    asks: [
      'Kann ich mit einem Menschen sprechen?',
      'Ich möchte mit einem Mitarbeiter sprechen',
      'Ich will mit einer echten Person reden!',
      'Kann ich mit jemandem sprechen?',
      'Bitte mit dem Kundenservice verbinden',
      'Verbinden Sie mich mit einem Mitarbeiter',
      'Können Sie mich an einen Berater weiterleiten?',
      'Ich möchte einen Mitarbeiter sprechen',
      'Ich brauche einen Menschen',
      'Wie kann ich den Support kontaktieren?',
      'Wie erreiche ich den Kundendienst?',
      'Bist du ein Bot?',
      'Sind Sie ein Mensch?',
      'Ist das ein Roboter?',
      'Bot oder Mensch?',
      'Ich will keinen Bot',
      'Ich möchte nicht mit einem Bot chatten',
      'Mitarbeiter bitte',
      'Mensch!',
      'MITARBEITER',
      'echter Mensch bitte',
    ],
    doesNotAsk: [
      'Wie füge ich eine Person zu meinem Team hinzu?',
      'Ich möchte eine Person zu meinem Team hinzufügen',
      'Kostet das Abo pro Person?',
      'Wie viele Mitarbeiter können das Konto nutzen?',
      'Wie gebe ich einem Mitarbeiter Zugriff auf die Videos?',
      'Ich möchte einen Mitarbeiter hinzufügen',
      'Kann ich im Livestream mit meinen Zuschauern sprechen?',
      'Was bedeutet der User-Agent im Protokoll?',
      'Wie spreche ich mit der API aus Python?',
      'Ist das eine KI-Funktion?',
      'Kann ich eine Rückerstattung bekommen?',
      'Wie lösche ich mein Konto?',
    ],
  },
  fr: {
    asks: [
      'Je voudrais parler à un conseiller',
      'Puis-je parler à une personne ?',
      "Je veux parler à quelqu'un",
      'parler avec un être humain',
      "Je voudrais parler à l'agent",
      'Je veux un humain',
      "J'aimerais un conseiller, s'il vous plaît",
      "J'ai besoin d'un conseiller",
      'Une vraie personne svp',
      'Mettez-moi en relation avec un conseiller',
      'Passez-moi un conseiller',
      'Comment contacter le service client ?',
      'Comment joindre le support ?',
      'Êtes-vous un robot ?',
      'es-tu humain ?',
      "Vous êtes une IA ?",
      "C'est un robot ?",
      'Je ne veux pas parler à un robot',
      'pas de bot',
      'Conseiller !',
      'un humain svp',
    ],
    doesNotAsk: [
      'Comment ajouter une personne à mon équipe ?',
      "Le prix est-il par personne ?",
      'Personne ne répond à mes e-mails',
      "Je voudrais ajouter une personne de plus à l'abonnement",
      'Puis-je parler à mes spectateurs pendant un direct ?',
      "Comment parler à l'API depuis Python ?",
      "Que signifie l'agent utilisateur dans les journaux ?",
      'Combien de personnes peuvent regarder un direct ?',
      'Puis-je obtenir un remboursement ?',
      'Comment supprimer un paquet avec apt ?',
    ],
  },
  es: {
    asks: [
      'Quiero hablar con una persona',
      '¿Puedo hablar con un agente?',
      'quiero hablar con alguien',
      'Necesito hablar con un ser humano',
      '¿Me pasas con un asesor?',
      'Pásame con un agente, por favor',
      'Quiero un humano',
      'Necesito un agente',
      'una persona real, por favor',
      'agente humano',
      '¿Cómo contacto con soporte?',
      'atención al cliente',
      '¿Eres un bot?',
      '¿Eres humano?',
      '¿Esto es un robot?',
      '¿Hablo con una máquina?',
      'No quiero hablar con un bot',
      'Operador por favor',
      '¡Agente!',
    ],
    doesNotAsk: [
      '¿Cómo agrego una persona a mi equipo?',
      '¿El precio es por persona?',
      'Quiero una persona más en mi cuenta',
      '¿Puedo hablar con mis espectadores en un directo?',
      '¿Cómo hablo con la API desde Python?',
      '¿Qué es el agente de usuario en los registros?',
      '¿Cuántas personas pueden ver un directo?',
      '¿Puedo obtener un reembolso?',
      '¿Cómo exporto mis vídeos?',
    ],
  },
};

for (const [language, { asks, doesNotAsk }] of Object.entries(LANGUAGES)) {
  describe(`asking for a person in their own words (${language})`, () => {
    const matcher = personMatcher({}, language);

    it.each(asks)('"%s" asks for a person', (text) => {
      expect(matcher.match(text)).toBeDefined();
    });

    it.each(doesNotAsk)('"%s" does not', (text) => {
      expect(matcher.match(text)).toBeUndefined();
    });

    it('its pages\' questions are not asking in English either', () => {
      expect(doesNotAsk.filter((text) => personMatcher().match(text))).toEqual([]);
    });
  });
}

describe("a KB's matcher", () => {
  const identity = (frontMatter: string) => parseIdentity('assistant.md', `---\ncompany: Acme\n${frontMatter}\n---\n`);

  it("uses the KB's language, its translations' languages and English", () => {
    const german = identity('language: de\ntranslations:\n  fr: { widget: { title: Aide } }');
    expect(personLanguages(german)).toEqual(['de', 'fr', 'en']);
    const matcher = personMatcherOf(german);
    expect(matcher.match('Kann ich mit einem Menschen sprechen?')).toBeDefined();
    expect(matcher.match('Je voudrais parler à un conseiller')).toBeDefined();
    expect(matcher.match('I want to talk to a person')).toBeDefined(); // English always
    expect(matcher.match('Quiero hablar con una persona')).toBeUndefined(); // Spanish is not the KB's
    expect(matcher.match('Wie füge ich eine Person zu meinem Team hinzu?')).toBeUndefined();
  });

  it('an English KB: English only, plus the languages its own patterns name', () => {
    expect(personMatcherOf(identity('')).match('Kann ich mit einem Menschen sprechen?')).toBeUndefined();
    const own = identity('handoff_phrases: { es: [hablar con ventas] }');
    expect(personLanguages(own)).toEqual(['en', 'es']);
    expect(personMatcherOf(own).match('¿Puedo hablar con ventas?')).toBe('hablar con ventas');
    expect(personMatcherOf(own).match('¿Eres un bot?')).toBeDefined();
  });
});

describe('patterns', () => {
  it('normalises text and patterns alike: case, accents, apostrophes, punctuation', () => {
    expect(normalizeWords("  Can't I TALK—to  Zoë?! ")).toBe('cant i talk to zoe');
  });

  it('optional words, alternatives and anchors', () => {
    const re = compilePattern('talk|speak to a|the? person');
    expect(re.test('i want to talk to a person ')).toBe(true);
    expect(re.test('speak to person ')).toBe(true);
    expect(re.test('talk to my person ')).toBe(false);
    expect(re.test('stalk to a person ')).toBe(false); // whole words only
    const whole = compilePattern('^ agent please? $');
    expect(whole.test('agent ')).toBe(true);
    expect(whole.test('agent please ')).toBe(true);
    expect(whole.test('my agent ')).toBe(false);
    expect(whole.test('agent string ')).toBe(false);
  });

  it("takes time linear in the message whatever the KB's pattern: 22 optional words and one more against repeated words", () => {
    const pattern = `${Array(22).fill('a?').join(' ')} b`;
    const kb = personMatcher({ en: [pattern] });
    const repeated = Array(30).fill('a').join(' ');
    const started = performance.now();
    expect(kb.match(repeated)).toBeUndefined();
    expect(kb.match(`${repeated} b`)).toBe(pattern);
    expect(kb.match('b')).toBe(pattern);
    // A wide bound: matched word by word, this takes about a millisecond; as a backtracking regular expression, seconds.
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('a word that normalises to several (e-mail) is matched as those words in a row', () => {
    const email = compilePattern('send an? e-mail|email');
    expect(email.test('can I send an e-mail?')).toBe(true);
    expect(email.test('send e mail')).toBe(true);
    expect(email.test('send email')).toBe(true);
    expect(email.test('send e')).toBe(false);
  });

  it('refuses a pattern or a word slot that has no word', () => {
    expect(() => compilePattern('   ')).toThrow(/has no word/);
    expect(() => compilePattern('talk ?! person')).toThrow(/the slot "\?!" has no word/);
  });

  it("adds the KB's own patterns to its language's, and other languages only through the KB", () => {
    const kb = personMatcher({ en: ['talk to sales'], de: ['mit einem|einer? mensch|menschen|mitarbeiter|mitarbeiterin sprechen'] });
    expect(kb.match('Could I talk to sales?')).toBe('talk to sales');
    expect(kb.match('talk to a person')).toBeDefined(); // the built-in list still applies
    const german = personMatcher({ de: ['mit einem|einer? mensch|menschen|mitarbeiter|mitarbeiterin sprechen'] }, 'de');
    expect(german.match('Kann ich mit einem Menschen sprechen?')).toBeDefined();
    expect(german.match('talk to a person')).toBeUndefined(); // English patterns only where English is asked for
    expect(personMatcher({}, 'ja').match('talk to a person')).toBeUndefined(); // no built-in patterns: the KB's only
    expect(personMatcher({ ja: ['担当者'] }, ['ja', 'en']).match('talk to a person')).toBeDefined();
  });
});
