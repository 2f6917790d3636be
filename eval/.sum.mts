import { readGolden, runMethod, selectorMethod, summarizeByKind } from './evaluate.ts';
import { pythonFaqKb, PYTHON_GOLDEN, debianFaqKb, DEBIAN_GOLDEN, demoKb, DEMO_GOLDEN, docsFolderKb, DOCS_KBS } from './kbs.ts';
const settings = JSON.parse(process.env.SET ?? '{}');
const kbs: [any, string][] = [[demoKb(settings), DEMO_GOLDEN], [await debianFaqKb(settings), DEBIAN_GOLDEN]];
for (const d of DOCS_KBS) kbs.push([docsFolderKb(d.name, d.dir, d.rules, settings), d.golden]);
kbs.push([await pythonFaqKb(settings), PYTHON_GOLDEN]);
const cells: string[] = [];
for (const [kb, g] of kbs) {
  const qs = readGolden(g);
  const o = runMethod(selectorMethod(kb.index), qs, kb.index.pinned.map((s: any) => s.id));
  const rows = summarizeByKind(o, kb.index.config.budget);
  const f = (name: string) => { const r = rows.find((x: any) => x.group === name); return r && r.withGold ? `${Math.round(r.goldSent*100)}/${r.mrr.toFixed(3)}` : '-'; };
  cells.push(`${kb.name.slice(0,6)} all ${f('all')} para ${f('paraphrase')}`);
}
console.log((process.env.SET ?? '{}').padEnd(40), cells.join(' | '));
