import { readGolden } from './evaluate.ts';
import { analyze } from '../lib/retrieval/analyzer.ts';
import { debianFaqKb, DEBIAN_GOLDEN, demoKb, DEMO_GOLDEN, docsFolderKb, DOCS_KBS } from './kbs.ts';
const kbs: [any, string][] = [[demoKb(), DEMO_GOLDEN], [await debianFaqKb(), DEBIAN_GOLDEN]];
for (const d of DOCS_KBS) kbs.push([docsFolderKb(d.name, d.dir, d.rules), d.golden]);
for (const [kb, g] of kbs) {
  const qs = readGolden(g).filter((q) => q.gold.length && (q.kind ?? 'paraphrase') === 'paraphrase');
  let zero = 0; const list: string[] = [];
  for (const q of qs) {
    const qt = new Set(q.messages.flatMap((m) => analyze(m)));
    const gold = kb.index.sections.filter((s: any) => q.gold.includes(s.part?.sectionId ?? s.id));
    const overlap = gold.some((s: any) => analyze([...s.parents, s.title, s.text].join('\n')).some((t) => qt.has(t)));
    if (!overlap) { zero++; list.push(q.id); }
  }
  console.log(kb.name, 'paraphrase', qs.length, 'no shared term with any gold section:', zero, `ceiling MRR ${(1 - zero / qs.length).toFixed(2)}`, list.join(' '));
}
