import { readGolden, runMethod, summarizeByKind } from './evaluate.ts';
import { semanticSelectorMethod } from './semantic.ts';
import { pythonFaqKb, PYTHON_GOLDEN, debianFaqKb, DEBIAN_GOLDEN, demoKb, DEMO_GOLDEN, docsFolderKb, DOCS_KBS } from './kbs.ts';
const kbs: [any, string][] = [[demoKb(), DEMO_GOLDEN], [await debianFaqKb(), DEBIAN_GOLDEN]];
for (const d of DOCS_KBS) kbs.push([docsFolderKb(d.name, d.dir, d.rules), d.golden]);
kbs.push([await pythonFaqKb(), PYTHON_GOLDEN]);
const cells: string[] = [];
for (const [kb, g] of kbs) {
  const qs = readGolden(g);
  const o = runMethod(await semanticSelectorMethod(kb.index, qs), qs, kb.index.pinned.map((s: any) => s.id));
  const rows = summarizeByKind(o, kb.index.config.budget);
  const f = (name: string) => { const r = rows.find((x: any) => x.group === name); return r && r.withGold ? `${Math.round(r.goldSent*100)}/${r.mrr.toFixed(3)}` : '-'; };
  cells.push(`${kb.name.slice(0,6)} all ${f('all')} para ${f('paraphrase')}`);
}
console.log(`sw=${process.env.EXP_SW ?? 1} topk=${process.env.EXP_TOPK ?? 10} min=${process.env.EXP_MINSIM ?? 0.3}`.padEnd(28), cells.join(' | '));
