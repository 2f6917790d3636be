import { describe, expect, it } from 'vitest';
import { selectContext } from '../explain/explain';
import { sectionsFromSources } from '../kb/load';
import { parseSynonyms } from '../query/synonyms';
import { bm25Idf } from '../rank/bm25';
import { createRetrievalIndex } from './build-index';

/** A KB with the same help page in English and German (issue 26), and one page only in English. */
const SOURCES = [
  { file: 'en/network.md', text: '# Network\n\nSet up a wireless (WLAN) network connection in the network manager.\n' },
  { file: 'en/billing.md', text: '# Invoices\n\nYour invoices are under Billing. Download an invoice as a PDF.\n' },
  { file: 'de/netzwerk.md', text: '---\nlang: de\n---\n# Netzwerk\n\nEine Netzwerkverbindung mit WLAN richten Sie im Netzwerkmanager ein.\n' },
];

function mixedIndex(config = {}, synonyms = '{ "groups": [] }', sources = SOURCES) {
  const sections = sectionsFromSources(sources);
  return createRetrievalIndex({ sections, synonyms: parseSynonyms('synonyms.json', synonyms), language: 'en' }, config);
}

describe('a KB in two languages', () => {
  it('ranks the matches in the question\'s language, the others set aside', () => {
    const e = selectContext(mixedIndex({ floor: 0 }), ['Wie richte ich eine Netzwerkverbindung mit WLAN ein?']);
    expect(e.query.language).toEqual({ customer: 'de', source: 'detected', analysed: 'de', scope: 'language', setAside: 1 });
    expect(e.sections.filter((s) => s.rank).map((s) => s.id)).toEqual(['de/netzwerk.md#netzwerk']);
  });

  it('falls back to the whole KB when no section in that language matches', () => {
    const e = selectContext(mixedIndex({ floor: 0 }), ['Wo finde ich meine Rechnung als PDF?']);
    expect(e.query.language).toMatchObject({ customer: 'de', analysed: 'de', scope: 'kb', setAside: 0 });
    expect(e.sentIds).toEqual(['en/billing.md#invoices']);
  });

  it('fills the floor with sections in the question\'s language first', () => {
    const e = selectContext(mixedIndex({ floor: 2000 }), ['Hallo, ich habe eine Frage']);
    expect(e.sections.filter((s) => s.reason === 'floor').map((s) => s.id)).toEqual(['de/netzwerk.md#netzwerk', 'en/network.md#network', 'en/billing.md#invoices']);
  });

  it('uses the synonym groups of the query\'s language only', () => {
    // "Account" is a German word too: the German group must not fire on an English question.
    const synonyms = '{ "groups": [["invoice", "bill"]], "languages": { "de": [["Rechnung", "Beleg"], ["Konto", "Account"]] } }';
    const index = mixedIndex({ thesaurus: false }, synonyms); // the KB's own groups only (the built-in one: query/thesaurus.test.ts)
    const german = selectContext(index, ['Wo ist mein Beleg?']).query.terms;
    expect(german.filter((t) => t.source === 'synonym').map((t) => [t.term, t.from])).toEqual([['rechnung', 'Beleg']]);
    const english = selectContext(index, ['where is the bill for my account?']).query.terms;
    expect(english.filter((t) => t.source === 'synonym').map((t) => [t.term, t.from])).toEqual([['invoic', 'bill']]);
  });

  it('corrects typos against the vocabulary of the query\'s language', () => {
    const e = selectContext(mixedIndex(), ['Wie richte ich die Netzwerkverbindnug ein?']);
    expect(e.query.terms.filter((t) => t.source === 'typo').map((t) => [t.term, t.from])).toEqual([['netzwerkverbind', 'netzwerkverbindnug']]);
  });

  it('ranks each language with its own BM25 statistics: a German page changes no English score', () => {
    const english = SOURCES.filter((f) => f.file.startsWith('en/'));
    const germanPages = [
      ...SOURCES.filter((f) => f.file.startsWith('de/')),
      { file: 'de/rechnung.md', text: '---\nlang: de\n---\n# Rechnungen\n\nIhre Rechnungen finden Sie unter Abrechnung. Laden Sie eine Rechnung als PDF herunter, ein PDF je Monat.\n' },
    ];
    const scores = (sources: typeof SOURCES, question: string) =>
      selectContext(mixedIndex({ floor: 0 }, undefined, sources), [question]).sections.filter((s) => s.rank).map((s) => [s.id, s.score, s.matches?.map((m) => [m.term, m.idf])]);
    for (const question of ['How do I download an invoice as a PDF?', 'set up a wireless network connection']) {
      const alone = scores(english, question);
      expect(alone.length).toBeGreaterThan(0);
      expect(scores([...english, ...germanPages], question)).toEqual(alone);
    }
    // and the other way round: the English pages change no German score
    const german = 'Wo lade ich meine Rechnung als PDF herunter?';
    expect(scores([...english, ...germanPages], german)).toEqual(scores(germanPages, german));
  });

  it('ranks the whole KB with the pool\'s statistics when nothing in the question\'s language matched', () => {
    const index = mixedIndex({ floor: 0 });
    const e = selectContext(index, ['Wo finde ich meine Rechnung als PDF?']);
    expect(e.query.language?.scope).toBe('kb');
    const pdf = e.sections.find((s) => s.id === 'en/billing.md#invoices')!.matches!.find((m) => m.term === 'pdf')!;
    expect(pdf.idf).toBe(bm25Idf(index.pool.length, 1));
  });
});
