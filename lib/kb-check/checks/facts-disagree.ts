import type { CheckContext, Unit } from '../context';
import { languageName, type Section } from '../../retrieval/index';
import { FACT_LANGUAGES, factLexicon, type FactLexicon } from '../fact-languages';
import { disagreement, extractQuantities, learnNames, pinnedAboutSameItem, type Quantity } from '../facts';
import type { Finding } from '../types';
import { quote } from './message-text';
import type { Check } from './types';

type PinnedFact = Quantity & { section: Section; unit: Unit };

/** The lexicon a section's numbers are read with (its language's), or undefined for a language the check cannot read. */
const lexiconOf = (section: Section) => factLexicon(section.language ?? 'en');

/**
 * Numbers in scored sections that contradict a pinned number about the same item. Each section is
 * read in its own language (fact-languages.ts); sections in a language without a lexicon are not
 * compared (the summary's `skipped` names them): reading "9,99 €" with English number rules
 * would misread it.
 */
export const factsDisagree: Check = {
  id: 'facts-disagree',
  kinds: ['facts-disagree'],
  run(context) {
    const { names, pinnedFacts } = pinnedFactsOf(context);
    const findings: Finding[] = [];
    let factsCompared = 0;
    const summary = () => ({ factsCompared, skipped: unreadLanguages(context) });
    if (pinnedFacts.length === 0) return { findings, summary: summary() };
    for (const section of context.scoredSections) {
      const lexicon = lexiconOf(section);
      if (!lexicon) continue;
      for (const unit of context.unitsOf(section)) {
        const compared = compareWithPinned(section, unit, names, pinnedFacts, lexicon);
        factsCompared += compared.count;
        findings.push(...compared.findings);
      }
    }
    return { findings, summary: summary() };
  },
};

/** "facts-disagree in it (Italian): 12 sections not read", one per language the check cannot read. */
function unreadLanguages({ pinnedSections, scoredSections }: CheckContext): string[] {
  const counts = new Map<string, number>();
  for (const s of [...pinnedSections, ...scoredSections]) if (!lexiconOf(s)) counts.set(s.language!, (counts.get(s.language!) ?? 0) + 1);
  return [...counts].map(([language, n]) => `facts-disagree in ${languageName(language)} (${language}): ${n} section${n === 1 ? '' : 's'} not read (numbers are read in ${FACT_LANGUAGES.join(', ')})`);
}

/** Each number in the unit that a pinned number is about the same item as; one finding per stated value. */
function compareWithPinned(section: Section, unit: Unit, names: ReadonlySet<string>, pinnedFacts: PinnedFact[], lexicon: FactLexicon) {
  const findings: Finding[] = [];
  const reported = new Set<string>();
  let count = 0;
  for (const q of extractQuantities(unit.text, names, lexicon)) {
    const same = pinnedAboutSameItem(q, pinnedFacts);
    if (same.length === 0) continue;
    count++;
    const stated = disagreement(q, same);
    const key = `${q.raw}|${q.value}`;
    if (!stated || reported.has(key)) continue;
    reported.add(key);
    findings.push(disagreementFinding(section, unit, q, stated));
  }
  return { findings, count };
}

/** The pinned facts, each read in its section's language; the item names learned from all of them (a name is a name in every language). */
function pinnedFactsOf({ pinnedSections, unitsOf }: CheckContext) {
  const pinnedUnits = pinnedSections.flatMap((section) => {
    const lexicon = lexiconOf(section);
    return lexicon ? unitsOf(section).map((unit) => ({ section, unit, lexicon })) : [];
  });
  const lexicons = new Set(pinnedUnits.map(({ lexicon }) => lexicon));
  const names = new Set(
    [...lexicons].flatMap((lexicon) => [...learnNames(pinnedUnits.filter((p) => p.lexicon === lexicon).map(({ unit }) => unit.text), lexicon)]),
  );
  const pinnedFacts: PinnedFact[] = pinnedUnits.flatMap(({ section, unit, lexicon }) =>
    extractQuantities(unit.text, names, lexicon).map((q) => ({ ...q, section, unit })),
  );
  return { names, pinnedFacts };
}

function disagreementFinding(section: Section, unit: Unit, q: Quantity, stated: PinnedFact[]): Finding {
  const values = [...new Set(stated.map((p) => p.raw))].join(', ');
  const where = [...new Set(stated.map((p) => `${p.section.source}:${p.unit.line}`))].join(', ');
  const item = [q.names.join('/'), q.kind].filter(Boolean).join(' ');
  return {
    kind: 'facts-disagree',
    level: 'error',
    file: section.source,
    line: unit.line,
    sectionId: section.id,
    message: `${quote(unit.text)} states ${q.raw} (${item}), but the pinned ${stated.length > 1 ? 'facts say' : 'fact says'} ${values} (${where}): the model may receive both`,
    suggestion: `correct the number here, or the pinned one if this one is right`,
    details: {
      sentence: unit.text,
      value: q.value,
      kind: q.kind,
      names: q.names,
      pinned: stated.map((p) => ({ sectionId: p.section.id, file: p.section.source, line: p.unit.line, raw: p.raw, value: p.value, sentence: p.unit.text })),
    },
  };
}
