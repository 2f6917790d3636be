import type { Section } from '../../retrieval/index';
import type { CheckContext, Unit } from '../context';
import { disagreement, extractQuantities, learnNames, pinnedAboutSameItem, type Quantity } from '../facts';
import type { Finding } from '../types';
import { quote } from './message-text';
import type { Check } from './types';

type PinnedFact = Quantity & { section: Section; unit: Unit };

/** Numbers in scored sections that contradict a pinned number about the same item. */
export const factsDisagree: Check = {
  id: 'facts-disagree',
  kinds: ['facts-disagree'],
  run(context) {
    const { names, pinnedFacts } = pinnedFactsOf(context);
    const findings: Finding[] = [];
    let factsCompared = 0;
    if (pinnedFacts.length === 0) return { findings, summary: { factsCompared } };
    for (const section of context.scoredSections) {
      for (const unit of context.unitsOf(section)) {
        const compared = compareWithPinned(section, unit, names, pinnedFacts);
        factsCompared += compared.count;
        findings.push(...compared.findings);
      }
    }
    return { findings, summary: { factsCompared } };
  },
};

/** Each number in the unit that a pinned number is about the same item as; one finding per stated value. */
function compareWithPinned(section: Section, unit: Unit, names: ReadonlySet<string>, pinnedFacts: PinnedFact[]) {
  const findings: Finding[] = [];
  const reported = new Set<string>();
  let count = 0;
  for (const q of extractQuantities(unit.text, names)) {
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

function pinnedFactsOf({ pinnedSections, unitsOf }: CheckContext) {
  const pinnedUnits = pinnedSections.flatMap((section) => unitsOf(section).map((unit) => ({ section, unit })));
  const names = learnNames(pinnedUnits.map(({ unit }) => unit.text));
  const pinnedFacts: PinnedFact[] = pinnedUnits.flatMap(({ section, unit }) =>
    extractQuantities(unit.text, names).map((q) => ({ ...q, section, unit })),
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
