import { readGolden, runMethod, selectorMethod, plainBm25Method } from './evaluate.ts';
import { debianFaqKb, DEBIAN_GOLDEN, demoKb, DEMO_GOLDEN, docsFolderKb, DOCS_KBS } from './kbs.ts';
import { peerMethods } from './peers.ts';
const settings = JSON.parse(process.env.SET ?? '{}');
const only = process.env.KB ?? '';
const kbs: [any, string][] = [];
if (!only || only==='demo') kbs.push([demoKb(settings), DEMO_GOLDEN]);
if (!only || only==='debian') kbs.push([await debianFaqKb(settings), DEBIAN_GOLDEN]);
for (const d of DOCS_KBS) if (!only || d.name.toLowerCase().startsWith(only)) kbs.push([docsFolderKb(d.name, d.dir, d.rules, settings), d.golden]);
for (const [kb, g] of kbs) {
  const qs = readGolden(g);
  const pinned = kb.index.pinned.map((s: any) => s.id);
  const sel = runMethod(selectorMethod(kb.index), qs, pinned);
  const plain = runMethod(plainBm25Method(kb.index.sections, kb.index.config), qs, pinned);
  const peers = peerMethods(kb.index.sections, kb.index.config).map(m => [m.name, runMethod(m, qs, pinned)] as const);
  console.log(`## ${kb.name}`);
  for (let i = 0; i < qs.length; i++) {
    const q = qs[i]; if (!q.gold.length) continue;
    const o = sel[i];
    const r = (x: any) => x.goldRank ?? '-';
    if (process.env.ALL || (o.goldRank ?? 99) > 1)
    console.log(`${q.id}\t${q.kind ?? ''}\tsel ${r(o)}${o.goldSent?'':'!'}\tplain ${r(plain[i])}\t${peers.map(([n,p]) => n.slice(0,4)+' '+r(p[i])).join(' ')}\t${JSON.stringify(q.messages.at(-1))} → ${q.gold[0]}`);
  }
}
