import { describe, expect, it } from 'vitest';
import { compilePattern, normalizeWords, PERSON_PATTERNS, personMatcher } from './phrases';

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
    expect(german.match('talk to a person')).toBeUndefined(); // English patterns are for English
    expect(personMatcher({}, 'fr').match('talk to a person')).toBeUndefined();
  });
});
