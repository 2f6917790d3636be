import { describe, expect, it } from 'vitest';
import { writeFolder } from '../../testing/folders';
import { createRetrievalIndex, loadKnowledgeBase, selectContext } from '../index';
import { GERMAN_THESAURUS } from './thesaurus/de';
import { THESAURUS_MAX_GROUP, thesaurusGroups, thesaurusWords } from './thesaurus';

/** The built-in thesaurus (thesaurus.ts): German KBs find the KB's word for the customer's. */

const PAGES = {
  'bildschirm.md': '# Bildschirm\n\n## Bildschirmschoner deaktivieren\n\nDen Bildschirmschoner deaktivieren Sie in den Einstellungen unter Energie.\n\n## Auflösung ändern\n\nDie Auflösung stellen Sie unter Anzeige ein.\n',
  'netz.md': '# Netzwerk\n\n## WLAN einrichten\n\nEin WLAN richten Sie mit dem Netzwerkmanager ein.\n',
};

function indexOf(language: string, config: { thesaurus?: boolean } = {}) {
  const folder = writeFolder({ ...PAGES, 'assistant.md': `---\ncompany: Beispiel\nlanguage: ${language}\n---\n` });
  return createRetrievalIndex(loadKnowledgeBase(folder), { budget: 400, floor: 0, ...config });
}

describe('built-in thesaurus', () => {
  it('adds the German synonyms of a customer word the KB does not use, at the synonym weight', () => {
    // Only "deaktivieren" in the KB says what the customer's "abschalten" means.
    const explanation = selectContext(indexOf('de'), ['Wie kann ich das abschalten?']);
    const added = explanation.query.terms.filter((t) => t.source === 'synonym');
    expect(added).toContainEqual(expect.objectContaining({ term: 'deaktivi', weight: 0.5, from: 'abschalten' }));
    expect(explanation.sentIds[0]).toBe('bildschirm.md#bildschirmschoner-deaktivieren');
  });

  it('is off with `thesaurus: false`, and English KBs have none', () => {
    const off = selectContext(indexOf('de', { thesaurus: false }), ['Wie kann ich das abschalten?']);
    expect(off.query.terms.filter((t) => t.source === 'synonym')).toEqual([]);
    expect(off.counts.matched).toBe(0);
    expect(thesaurusGroups('en')).toEqual([]);
    expect(thesaurusWords('en')).toBeUndefined();
    expect(thesaurusGroups('fr')).toEqual([]);
  });

  it('keeps sets of 2 to 6 single lowercase words, each set once, and says where they come from', () => {
    expect(GERMAN_THESAURUS.source).toMatch(/OpenThesaurus.*mythes-de/);
    const groups = thesaurusWords('de')!;
    expect(groups.length).toBeGreaterThan(10_000);
    const keys = new Set<string>();
    for (const group of groups) {
      expect(group.length).toBeGreaterThanOrEqual(2);
      expect(group.length).toBeLessThanOrEqual(THESAURUS_MAX_GROUP);
      for (const word of group) expect(word).toMatch(/^[\p{Ll}ß][\p{Ll}ß-]*$/u);
      keys.add(group.join('|'));
    }
    expect(keys.size).toBe(groups.length);
    // every word analyses to at least one term: no group can hold a word that never matches
    expect(thesaurusGroups('de').every((g) => g.terms.every((t) => t.length > 0))).toBe(true);
  });
});
