import { ENGLISH_FACTS, type FactLexicon } from './fact-languages';

/**
 * Facts that disagree: a number stated in a pinned section and the same item stated with a
 * different number in an unpinned section (the model may receive both). How quantities, names
 * and items are matched: docs/facts-check.md. Numbers, units and the words around them are read
 * with the sentence's language's lexicon (fact-languages.ts), English by default.
 */

export interface Quantity {
  /** Unit kind: `$/month`, `$/GB/month`, `$`, `GB`, `day`, `business-day`, `%`, `count`, … */
  kind: string;
  value: number;
  /** The quantity as written ("$79/month", "14-day", "2 TB"). */
  raw: string;
  names: string[];
  /** What it measures, as the pinned side: analyzed label + segment (or clause when there is no label). */
  measure: string[];
  /** Its context, as the unpinned side: analyzed label + its clause up to the end of its segment. */
  context: string[];
  /** For a count: the analyzed noun right after the number ("5 seats" → "seat"). */
  noun?: string;
  /** Offset of the quantity in the sentence text. */
  index: number;
  relative: boolean;
}

/** Capitalised words directly before a number ("Pro: $79", "Pro plan: $49"): the KB's item names. */
export function learnNames(sentences: readonly string[], lexicon: FactLexicon = ENGLISH_FACTS): Set<string> {
  const seen = new Map<string, number>();
  for (const s of sentences) {
    for (const m of s.matchAll(lexicon.names)) seen.set(m[1]!, (seen.get(m[1]!) ?? 0) + (m.groups?.label ? lexicon.nameOccurrences : 1));
  }
  return new Set([...seen].filter(([, n]) => n >= lexicon.nameOccurrences).map(([name]) => name));
}

interface Segment {
  text: string;
  /** Offset of the segment in the sentence. */
  start: number;
  /** The clause (split at `;` and `:`) the segment belongs to, and the segment's offset in it. */
  clause: string;
  inClause: number;
}

function segmentsOf(body: string, bodyStart: number): Segment[] {
  const out: Segment[] = [];
  let clauseStart = 0;
  for (const clause of body.split(/(?<=;|:)\s/)) {
    let segStart = 0;
    for (const seg of clause.split(', ')) {
      out.push({ text: seg, start: bodyStart + clauseStart + segStart, clause, inClause: segStart });
      segStart += seg.length + 2;
    }
    clauseStart += clause.length + 1;
  }
  return out;
}

function namesIn(text: string, names: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\p{Lu}[\p{L}]+/gu)) {
    if (names.has(m[0]) && !found.includes(m[0])) found.push(m[0]);
  }
  return found;
}

function termsWithout(text: string, nameTerms: ReadonlySet<string>, lexicon: FactLexicon): string[] {
  return [...new Set(lexicon.analyze(text.replace(lexicon.numbers, ' ')))].filter(
    (t) => !lexicon.unitTerms.has(t) && !nameTerms.has(t),
  );
}

function moneyKind(currency: string, per: string, lexicon: FactLexicon): string {
  const units = [...per.toLowerCase().matchAll(lexicon.perUnits)].map((m) => lexicon.perUnit(m[1]!));
  return [lexicon.currency(currency), ...units].join('/');
}

const isMoney = (kind: string) => /^(\$|EUR|GBP)/.test(kind);

/** The quantities of one sentence, with their names, measure and context. */
export function extractQuantities(sentence: string, names: ReadonlySet<string>, lexicon: FactLexicon = ENGLISH_FACTS): Quantity[] {
  const { parseNumber } = lexicon;
  const labelMatch = /^([^:]{1,80}?):\s+/.exec(sentence);
  const label = labelMatch && labelMatch[1]!.split(/\s+/).length <= 8 && !/\d/.test(labelMatch[1]!) ? labelMatch[1]! : '';
  const bodyStart = label ? labelMatch![0].length : 0;
  const labelNames = namesIn(label, names);
  const nameTerms = new Set([...names].flatMap((n) => lexicon.analyze(n)));
  const segments = segmentsOf(sentence.slice(bodyStart), bodyStart);

  interface Raw { kind?: string; value: number; raw: string; index: number; end: number; noun?: string }
  const found: Raw[] = [];
  const taken: [number, number][] = [];
  const overlaps = (a: number, b: number) => taken.some(([s, e]) => a < e && b > s);
  for (const m of sentence.matchAll(lexicon.money)) {
    if (m.index! < bodyStart) continue;
    const g = m.groups!;
    const kind = moneyKind((g.cur ?? g.curAfter)!, g.per ?? '', lexicon);
    const end = m.index! + m[0].length;
    const num2 = g.num2 ?? g.num2After;
    found.push({ kind, value: parseNumber((g.num ?? g.numAfter)!), raw: m[0].trim(), index: m.index!, end });
    if (num2) found.push({ kind, value: parseNumber(num2), raw: m[0].trim(), index: m.index!, end });
    taken.push([m.index!, end]);
  }
  for (const m of sentence.matchAll(lexicon.measured)) {
    const end = m.index! + m[0].length;
    if (m.index! < bodyStart || overlaps(m.index!, end)) continue;
    const unit = m.groups!.unit!.toLowerCase();
    const kind = lexicon.unitKind(unit) ?? 'GB';
    const factor = lexicon.sizeFactor(unit);
    found.push({ kind, value: parseNumber(m.groups!.num!) * factor, raw: m[0].trim(), index: m.index!, end });
    if (m.groups!.num2) found.push({ kind, value: parseNumber(m.groups!.num2) * factor, raw: m[0].trim(), index: m.index!, end });
    taken.push([m.index!, end]);
  }
  for (const m of sentence.matchAll(lexicon.bare)) {
    const end = m.index! + m[0].length;
    if (m.index! < bodyStart || overlaps(m.index!, end)) continue;
    found.push({ value: parseNumber(m.groups!.num!), raw: m[0], index: m.index!, end });
  }
  found.sort((a, b) => a.index - b.index);

  // A bare number: "20 live streaming hours" → hours (a unit within three words after
  // it); "5 seats" → a count of seats (a noun right after it); a number in a list —
  // followed by punctuation or a connector — takes the kind of the nearest resolved
  // number, the following one first ("3, 7 and 10 days", "Starter 60, Pro 120, Business
  // 600 requests"); else a unit word in the label; else the nearest unit word before it
  // in its clause ("live streaming hours, which are 20 on Pro"); else a count.
  const unitWord = (text: string): string | undefined => {
    const words = [...text.matchAll(lexicon.unitWords)];
    const last = words.at(-1)?.[1]?.toLowerCase();
    return last ? lexicon.unitKind(last) : undefined;
  };
  const labelUnit = unitWord(label);
  for (const q of found) {
    if (q.kind) continue;
    const after = sentence.slice(q.end);
    const ahead = lexicon.unitAhead.exec(after)?.[1];
    const word = lexicon.wordAfter.exec(after)?.[1];
    if (ahead) {
      q.kind = lexicon.unitKind(ahead.toLowerCase());
    } else if (word && !lexicon.connector.test(word)) {
      q.kind = 'count';
      q.noun = lexicon.analyze(word)[0];
    }
  }
  for (let i = 0; i < found.length; i++) {
    const q = found[i]!;
    if (q.kind) continue;
    const resolved = (x: Raw) => x.kind !== undefined && !isMoney(x.kind) && (x.kind !== 'count' || x.noun !== undefined);
    const borrowed = found.slice(i + 1).find(resolved) ?? found.slice(0, i).reverse().find(resolved);
    const segment = segments.find((seg) => q.index >= seg.start && q.index < seg.start + seg.text.length);
    const before = segment ? segment.clause.slice(0, q.index - segment.start + segment.inClause) : '';
    if (borrowed) {
      q.kind = borrowed.kind;
      q.noun = borrowed.noun;
      q.value *= lexicon.terabytes.test(borrowed.raw) ? 1000 : lexicon.megabytes.test(borrowed.raw) ? 0.001 : 1;
    } else {
      q.kind = labelUnit ?? unitWord(before) ?? 'count';
    }
  }

  const out: Quantity[] = [];
  let previousNames: string[] = labelNames;
  for (const seg of segments) {
    const segEnd = seg.start + seg.text.length;
    const inSeg = found.filter((q) => q.index >= seg.start && q.index < segEnd);
    let segNames = namesIn(seg.text, names);
    if (!segNames.length) segNames = labelNames.length ? labelNames : previousNames;
    previousNames = segNames;
    const segMeasure = termsWithout(label ? `${label} ${seg.text}` : seg.clause, nameTerms, lexicon);
    const context = termsWithout(`${label} ${seg.clause.slice(0, seg.inClause + seg.text.length)}`, nameTerms, lexicon);
    const relative = lexicon.relative.test(seg.text) || lexicon.calculation.test(seg.clause);
    for (const q of inSeg) {
      if (q.kind === 'count' && !segNames.length) continue; // counts need a name
      const measure = q.noun && !segMeasure.includes(q.noun) ? [...segMeasure, q.noun] : segMeasure;
      out.push({ kind: q.kind!, value: q.value, raw: q.raw, names: segNames, measure, context, noun: q.noun, index: q.index, relative });
    }
  }
  return out;
}

const MEASURE_OVERLAP = 0.5;

/** At least one, and at least half, of the pinned measure terms occur in the unpinned context. */
function measureMatches(pinned: Quantity, unpinned: Quantity): boolean {
  if (pinned.measure.length === 0) return false;
  const terms = new Set(unpinned.context);
  const shared = pinned.measure.filter((t) => terms.has(t)).length;
  return shared >= 1 && shared / pinned.measure.length >= MEASURE_OVERLAP;
}

const PERIODS = new Set(['month', 'year', 'week', 'day']);

/**
 * Same unit kind. Money: same currency; the same billing period when both state one;
 * and a per-unit qualifier (per GB, per seat, per hour) on the unpinned side only when the
 * pinned side has the same one — "$12 per month" may be a seat price with "per seat" left
 * out, but "$3 per hour" is never a plan's monthly price.
 */
function kindsComparable(pinned: Quantity, unpinned: Quantity): boolean {
  if (isMoney(pinned.kind) && isMoney(unpinned.kind)) {
    const [pc, ...pu] = pinned.kind.split('/');
    const [uc, ...uu] = unpinned.kind.split('/');
    if (pc !== uc) return false;
    const pPeriod = pu.filter((u) => PERIODS.has(u));
    const uPeriod = uu.filter((u) => PERIODS.has(u));
    if (pPeriod.length && uPeriod.length && pPeriod.join('/') !== uPeriod.join('/')) return false;
    const pQual = pu.filter((u) => !PERIODS.has(u));
    const uQual = uu.filter((u) => !PERIODS.has(u));
    return uQual.every((u) => pQual.includes(u));
  }
  return pinned.kind === unpinned.kind;
}

/** True when an unpinned quantity and a pinned one are about the same item (see the module comment). */
export function sameItem(pinned: Quantity, unpinned: Quantity): boolean {
  if (!kindsComparable(pinned, unpinned)) return false;
  if (unpinned.relative || pinned.relative) {
    // "extra seats cost $15 per seat per month" is still the seat price: a relative
    // amount counts only with the same per-unit qualifier as the pinned one.
    const qualified = unpinned.kind.split('/').slice(1).some((u) => !PERIODS.has(u));
    if (!qualified || pinned.kind !== unpinned.kind) return false;
  }
  if (unpinned.kind === 'count' && unpinned.noun && !pinned.measure.includes(unpinned.noun)) return false;
  if (pinned.names.length) {
    if (!pinned.names.some((n) => unpinned.names.includes(n))) return false;
    // A plan's own price has no measure words ("Pro: $79/month"): the name is the item.
    if (isMoney(pinned.kind) && pinned.measure.length === 0) return true;
    return measureMatches(pinned, unpinned);
  }
  if (pinned.kind === 'count' || unpinned.names.length) return false;
  return measureMatches(pinned, unpinned);
}

/**
 * The pinned quantities about the same item as `unpinned` (empty when nothing pinned is
 * about it). When some of them are about it by their measure words ("extra seats … $12
 * per month"), only those count, so a seat price is not compared with the plan's price.
 */
export function pinnedAboutSameItem<Q extends Quantity>(unpinned: Quantity, pinned: readonly Q[]): Q[] {
  const same = pinned.filter((p) => sameItem(p, unpinned));
  const specific = same.filter((p) => p.measure.length > 0);
  return specific.length ? specific : same;
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));

/** The pinned quantities it contradicts: about the same item, none with its value; undefined otherwise. */
export function disagreement<Q extends Quantity>(unpinned: Quantity, pinned: readonly Q[]): Q[] | undefined {
  const same = pinnedAboutSameItem(unpinned, pinned);
  if (same.length === 0 || same.some((p) => close(p.value, unpinned.value))) return undefined;
  return same;
}
