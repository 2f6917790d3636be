import { describe, expect, it } from 'vitest';
import { analyze, createAnalyzer } from './analyzer';
import { createDecompounder, knownWordTest } from './decompound';
import { customerLanguage, detectLanguage } from './detect-language';
import { acceptedLanguages, languageOf, textDirection } from './language-tags';

/** The analyzers of other languages (analyzer.ts createAnalyzer), on the forms each language makes. */
describe('German analyzer', () => {
  const vocabulary = new Set(['paket', 'pakete', 'verwaltung', 'verwalten', 'netzwerk', 'verbindung', 'aufbau', 'programm']);
  const de = createAnalyzer('de', { vocabulary });

  it('stems inflected forms together (Snowball German)', () => {
    expect(new Set(de.analyze('Paket Pakete Paketen Paketes'))).toEqual(new Set(['paket']));
    expect(de.analyze('Verbindung Verbindungen entfernen entferne')).toEqual(['verbind', 'verbind', 'entfern', 'entfern']);
    expect(de.analyze('Häuser')).toEqual(de.analyze('Haus'));
  });

  it('drops German stop words and chat fillers', () => {
    expect(de.analyze('Hallo, kannst du mir bitte helfen?')).toEqual([]);
    expect(de.analyze('Wie kann ich die Pakete entfernen?')).toEqual(['paket', 'entfern']);
  });

  it('splits compounds into the KB words they are made of, and keeps the whole word', () => {
    expect(de.analyze('Paketverwaltung')).toEqual(['paket', 'verwalt', 'paketverwalt']);
    // "Pakete verwalten" now meets "Paketverwaltung" on both of its parts
    expect(de.analyze('Pakete verwalten').every((t) => de.analyze('Paketverwaltung').includes(t))).toBe(true);
    // a linking "s" between the parts, and a compound of three
    expect(de.analyze('Verbindungsaufbau')).toEqual(['verbind', 'aufbau', 'verbindungsaufbau']);
    expect(de.analyze('Paketverwaltungsprogramm')).toEqual(['paket', 'verwalt', 'programm', 'paketverwaltungsprogramm']);
  });

  it('drops function words only: the content words of stopwords-iso\'s German list stay terms', () => {
    // stopwords-iso lists "neue" and "richtig"; the Snowball list, question words and modals drop the rest
    expect(de.analyze('Wann ist die neue Version richtig?')).toEqual(['neu', 'version', 'richtig']);
    expect(de.analyze('Warum muss ich das dass daß tun?')).toEqual(['tun']);
    // quantifiers and adverbs the English list drops (many, more, both, never)
    expect(de.analyze('Viele Pakete, mehr als beide, nie')).toEqual(['paket']);
    // pronominal adverbs: "darauf" is "on it"
    expect(de.analyze('Wie hebe ich das System darauf an, und was folgt daraus?')).toEqual(['heb', 'syst', 'folgt']);
  });

  it('reads a stop word with its umlauts as written: "ändern" is not "andern", but "fur" is "für"', () => {
    expect(de.analyze('Dateien ändern')).toEqual(['datei', 'and']);
    expect(de.analyze('für fur andern anderen')).toEqual([]);
  });

  it('splits a compound into parts the KB has only inflected ("Karte" when the KB says "Karten")', () => {
    const inflected = createAnalyzer('de', { vocabulary: new Set(['grafik', 'karten']) });
    expect(inflected.analyze('Grafikkarte')).toEqual(['grafik', 'kart', 'grafikkart']);
    expect(createDecompounder(knownWordTest(new Set(['grafik', 'karten'])), ['s']).split('grafikkarte')).toBeUndefined();
  });

  it('leaves a word alone that is not made of the vocabulary\'s words', () => {
    expect(de.analyze('Benutzerkonto')).toEqual(['benutzerkonto']);
    expect(createAnalyzer('de').analyze('Paketverwaltung')).toEqual(['paketverwalt']);
  });
});

describe('separable verbs (German, Dutch)', () => {
  const vocabulary = new Set(['einrichten', 'einrichtung', 'netzwerk', 'verbindung', 'rechner', 'herunterfahren', 'ausschalten']);
  const de = createAnalyzer('de', { vocabulary });

  it('joins a particle that ends the clause to its verb, so "richte … ein" meets "einrichten" and "Einrichtung"', () => {
    const question = de.analyze('Wie richte ich eine Netzwerkverbindung ein?');
    expect(question).toContain(de.analyze('Einrichtung')[0]);
    expect(de.analyze('einrichten')).toEqual(de.analyze('Einrichtung'));
    // the verb keeps its own term: "richte" still meets "richten"
    expect(question).toContain(de.analyze('richten')[0]);
    expect(de.analyze('Wie fahre ich den Rechner herunter')).toContain(de.analyze('herunterfahren')[0]);
  });

  it('reads the clause the particle ends: a comma, a full stop or a line break closes it', () => {
    expect(de.analyze('Wie schalte ich den Rechner aus, ohne Daten zu verlieren?')).toContain(de.analyze('ausschalten')[0]);
    expect(de.analyze('Richten Sie das Netzwerk ein.\nDann starten Sie neu.')).toContain(de.analyze('einrichten')[0]);
  });

  it('joins nothing when the particle does not end its clause, or the KB lacks the joined verb', () => {
    expect(de.analyze('Ein Netzwerk einrichten')).toEqual(['netzwerk', 'einricht']);
    expect(de.analyze('Wie schalte ich den Rechner aus und das Netzwerk?')).not.toContain(de.analyze('ausschalten')[0]);
    expect(de.analyze('Wie schalte ich das Netzwerk ab?')).toEqual(['schalt', 'netzwerk', 'ab']);
    expect(createAnalyzer('de').analyze('Wie richte ich das Netzwerk ein?')).toEqual(['richt', 'netzwerk']);
  });

  it('takes the infinitive\'s "zu" out of a separable verb: "einzurichten" is einrichten, "hinzuzufügen" hinzufügen', () => {
    const kb = createAnalyzer('de', { vocabulary: new Set([...vocabulary, 'hinzufügen', 'zufügen']) });
    expect(kb.analyze('um das Netzwerk einzurichten')).toContain(kb.analyze('einrichten')[0]);
    expect(kb.analyze('hinzuzufügen')).toContain(kb.analyze('hinzufügen')[0]);
    // "hinzufügen" is hinzu + fügen, not hin + zu + fügen: nothing is added
    expect(kb.analyze('hinzufügen')).toEqual(['hinzufug']);
    // the KB lacks "anrichten": "anzurichten" stays one word
    expect(kb.analyze('anzurichten')).toEqual(['anzuricht']);
  });

  it('joins Dutch particles the same way ("zet … uit" → uitzetten)', () => {
    const nl = createAnalyzer('nl', { vocabulary: new Set(['uitzetten', 'computer']) });
    expect(nl.analyze('Hoe zet ik de computer uit?')).toContain(nl.analyze('uitzetten')[0]);
  });
});

describe('decompounder', () => {
  const split = createDecompounder(knownWordTest(new Set(['daten', 'bank', 'datenbank', 'sicherung'])), ['s']);
  it('takes the longest head first and never splits into parts shorter than 4 letters', () => {
    expect(split.split('datenbanksicherung')).toEqual(['daten', 'bank', 'sicherung']);
    expect(split.split('bankdaten')).toEqual(['bank', 'daten']);
    expect(split.split('datenbankx')).toBeUndefined();
  });
});

describe('French analyzer', () => {
  const fr = createAnalyzer('fr');
  it('drops elisions: l\'abonnement is abonnement', () => {
    expect(fr.analyze("l'abonnement")).toEqual(fr.analyze('abonnement'));
    expect(fr.analyze("Comment résilier l’abonnement d’un utilisateur qu’il a créé ?")).toEqual(['resili', 'abon', 'utilis', 'cre']);
    expect(fr.analyze('abonnements')).toEqual(fr.analyze('abonnement'));
  });

  it('meets a word typed with or without its accents', () => {
    expect(fr.analyze('réseau')).toEqual(fr.analyze('reseau'));
    expect(fr.analyze('Supprimé')).toEqual(fr.analyze('supprimer'));
  });

  it('drops function words only: the content words of stopwords-iso\'s French list stay terms', () => {
    // stopwords-iso lists "état" and "ouvert"; "pourquoi", "ça", "peux" are function words
    expect(fr.analyze("Pourquoi l'état du paquet est-il ouvert ?")).toEqual(['etat', 'paquet', 'ouvert']);
    expect(fr.analyze('Et comment ça ? Je peux ?')).toEqual([]);
  });

  it('drops the quantifiers and adverbs the English list drops: tout, chaque, très, encore, plus', () => {
    expect(fr.analyze('Tous les dossiers prennent toute la place, chaque fois encore plus')).toEqual(fr.analyze('dossiers prennent place fois'));
  });

  it('reads a stop word with its accents as written: "sûr" is not "sur"', () => {
    expect(fr.analyze('sûr')).toEqual(['sur']);
    expect(fr.analyze('sur')).toEqual([]);
  });

  it('drops the elided "quelqu\'" as it drops "jusqu\'": quelqu\'un is a pronoun', () => {
    expect(fr.analyze("quelqu'un quelqu’une")).toEqual([]);
  });

  it('gives no term to a compound of stop words only ("est-ce")', () => {
    expect(fr.analyze("Où est-ce que je peux voir l'historique ?")).toEqual(['voir', 'histor']);
  });
});

describe('Spanish analyzer', () => {
  it('stems with the accents the stemmer reads, then strips them', () => {
    const es = createAnalyzer('es');
    expect(es.analyze('configuración configurar configuraciones')).toEqual(['configur', 'configur', 'configur']);
    expect(es.analyze('¿Cómo instalo los paquetes?')).toEqual(['instal', 'paquet']);
  });

  it('drops function words only: the content words of stopwords-iso\'s Spanish list stay terms', () => {
    const es = createAnalyzer('es');
    // stopwords-iso lists "uso", "nueva", "tiempo", "valor"; question words, modals and "todas" are function words
    expect(es.analyze('¿Cuándo puedo ver el uso de la nueva versión, el tiempo y el valor de todas?')).toEqual(['ver', 'uso', 'nuev', 'version', 'tiemp', 'valor']);
  });
});

describe('Chinese and Japanese analyzers', () => {
  it('segment a sentence into words (Intl.Segmenter), without stemming', () => {
    // 如何 ("how") is a Chinese stop word
    expect(createAnalyzer('zh').analyze('如何更改我的密码')).toEqual(['更改', '我的', '密码']);
    expect(createAnalyzer('ja').analyze('パスワードを変更するにはどうすればいいですか')).toEqual(['パスワード', '変更', 'どう', 'いい']);
  });
});

describe('English', () => {
  it('is the analyzer it always was', () => {
    expect(createAnalyzer('en').analyze).toBe(analyze);
  });
});

describe('the customer\'s language', () => {
  it('tells languages apart by script and by function words, where trigrams fail on short questions', () => {
    expect(detectLanguage('Can I get a refund?', ['en', 'de'])).toBe('en');
    expect(detectLanguage('Wie entferne ich ein Paket?', ['en', 'de'])).toBe('de');
    expect(detectLanguage('Comment supprimer un paquet avec apt ?', ['en', 'de', 'fr', 'es'])).toBe('fr');
    expect(detectLanguage('שלום, איך אני משנה סיסמה?', ['en', 'he'])).toBe('he');
    expect(detectLanguage('パスワードを変更するには', ['en', 'ja'])).toBe('ja');
    // Kanji count as Japanese beside kana: English UI labels in a Japanese sentence do not make it English.
    expect(detectLanguage('「Settings」→「Account」→「Security」を開き、「Enable two-factor authentication」をクリックします。設定画面を開いてください。', ['en', 'ja'])).toBe('ja');
  });

  it('does not let trigrams decide between a language they know and one they do not (they can only name the one)', () => {
    // Norwegian has no trigram model here: a Norwegian text the function words cannot place is not English.
    const norwegian = 'Passordet ditt endres under innstillinger.';
    expect(detectLanguage(norwegian, ['no', 'en'])).toBeUndefined();
    expect(detectLanguage('Your password is changed under settings.', ['no', 'en'])).toBe('en');
  });

  it('falls back on short texts: the conversation, the widget\'s lang, Accept-Language, the KB default', () => {
    const kb = ['en', 'de'];
    expect(customerLanguage({ question: 'WLAN?' }, kb)).toEqual({ language: 'en', source: 'kb-default' });
    expect(customerLanguage({ question: 'WLAN?', previous: 'Wie richte ich eine Netzwerkverbindung ein?' }, kb)).toEqual({ language: 'de', source: 'conversation' });
    expect(customerLanguage({ question: 'WLAN?' }, kb, { widget: 'de' })).toEqual({ language: 'de', source: 'widget' });
    expect(customerLanguage({ question: 'WLAN?' }, kb, { accepted: ['fr', 'de'] })).toEqual({ language: 'fr', source: 'accept-language' });
    expect(customerLanguage({ question: 'Wie kann ich das Paket entfernen?' }, kb, { widget: 'en' })).toEqual({ language: 'de', source: 'detected' });
    expect(customerLanguage({ question: 'anything' }, ['en'])).toEqual({ language: 'en', source: 'single' });
  });

  it('reads language tags and Accept-Language', () => {
    expect(languageOf('de-AT')).toBe('de');
    expect(languageOf('nb-NO')).toBe('no');
    expect(languageOf('*')).toBeUndefined();
    expect(acceptedLanguages('fr-CH, fr;q=0.9, en;q=0.8, de;q=0, *;q=0.5')).toEqual(['fr', 'en']);
    expect(textDirection('he')).toBe('rtl');
    expect(textDirection('ar-EG')).toBe('rtl');
    expect(textDirection('de')).toBe('ltr');
  });
});
