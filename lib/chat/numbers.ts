import { LruMemo, ownCopy } from '../retrieval/index';
import type { NumberCheck, NumberKind, NumberMention } from '../store/ports/turns';

/**
 * Unverified numbers in a reply: the prices, percentages, durations and amounts a reply
 * states, checked against the knowledge that was sent with the question (the pinned block —
 * verified prices, rules — and the selected sections). A number the sent text never states,
 * with the same unit, is flagged: the assistant may have made it up. A check, not a guarantee.
 *
 * What counts as a number to check: digits with a unit next to them —
 * - a price: a currency symbol or code before or after (`$79`, `€12,50`, `79 USD`, `$1,299.00/year`);
 * - a percentage: `20%`, `20 percent`;
 * - a duration: `14 days`, `14-day`, `3 business days`, `2 hours`, `12 months`;
 * - an amount: data sizes and rates (`100 GB`, `25 Mbps`) and counts of seats, users, viewers, videos.
 * A range gives both ends the unit it shows once (`$10–20`, `3 to 5 days`). Numbers inside
 * URLs, e-mail addresses and link targets are ignored, and so are bare numbers (step 2,
 * version 3.1, 1080p, H.264): without a unit there is nothing to compare.
 *
 * Units are read in English, German, French and Spanish alike (`30 Tage`, `20 Prozent`,
 * `30 jours`, `5 días hábiles`, `100 Go`), one table for all: a reply and its knowledge are read
 * the same way whatever their languages, so a German reply's "14 Tage" is verified by an English
 * page's "14 days". Words that would misread English are left out: German "Tag" and French "an"
 * (singular), "h" ("H.264"), Spanish "a" as a range word ("In 2023 a 14-day trial …"); French
 * sizes count only as written (`100 Go`, not "From 1 To 5 Seats" or "Step 3 Go Live").
 * A number with one separator and three digits after it is a whole number ("1,000", and "1.000"
 * as German, Spanish and French write a thousand; a percentage's "3.125%" keeps its decimals),
 * so "1.000 Nutzer" and "1,000 users" are the same figure. A number grouped by ordinary spaces
 * ("10 000 utilisateurs") is not read (its groups would join "Step 2 100 GB" into 2,100): write
 * it with a no-break space (U+00A0 or U+202F, as French typography does) to have it checked.
 *
 * Limits: numbers written as words ("fourteen days", "a week") are not read; units are not
 * converted (a reply's "2 weeks" does not match the knowledge's "14 days", "1 TB" does not
 * match "1,000 GB": it is flagged); currencies are compared by symbol (`$` is USD); business
 * days count as days; the number only has to occur somewhere in the sent text with its unit,
 * not in the right sentence ("Pro costs $12" passes if Starter costs $12).
 */

const CURRENCY_SYMBOL: Record<string, string> = { $: 'USD', 'us$': 'USD', '€': 'EUR', '£': 'GBP' };
const CURRENCY_WORD: Record<string, string> = {
  usd: 'USD', dollar: 'USD', dollars: 'USD', dólar: 'USD', dólares: 'USD',
  eur: 'EUR', euro: 'EUR', euros: 'EUR', gbp: 'GBP', pound: 'GBP', pounds: 'GBP',
};
/** `unit` for each written form, keyed lowercase: `unitWords('day', 'day days Tage')`. */
const unitWords = (unit: string, written: string) => Object.fromEntries(written.trim().split(/\s+/).map((w) => [w.toLowerCase(), unit]));
const DURATION: Record<string, string> = {
  ...unitWords('second', 'second seconds sec secs Sekunde Sekunden Sek seconde secondes segundo segundos seg'),
  ...unitWords('minute', 'minute minutes min mins Minuten minuto minutos'),
  ...unitWords('hour', 'hour hours hr hrs Stunde Stunden Std heure heures hora horas'),
  // German "Tag" and French "an" (singular) are left out: "tag" and "an" are English words.
  ...unitWords('day', 'day days Tage Tagen Werktag Werktage Werktagen Arbeitstag Arbeitstage Arbeitstagen jour jours día días'),
  ...unitWords('week', 'week weeks Woche Wochen semaine semaines semana semanas'),
  ...unitWords('month', 'month months Monat Monate Monaten mois mes meses'),
  ...unitWords('year', 'year years Jahr Jahre Jahren ans année années año años'),
};
const AMOUNT: Record<string, string> = {
  kb: 'kb', mb: 'mb', gb: 'gb', tb: 'tb', kib: 'kib', mib: 'mib', gib: 'gib', tib: 'tib', kbps: 'kbps', mbps: 'mbps', gbps: 'gbps',
  ...unitWords('seat', 'seat seats Sitze Plätze Lizenzen siège sièges licence licences asiento asientos licencia licencias'),
  ...unitWords('user', 'user users Nutzer Benutzer Nutzerinnen utilisateur utilisateurs usuario usuarios'),
  ...unitWords('member', 'member members Mitglieder membre membres miembro miembros'),
  ...unitWords('viewer', 'viewer viewers Zuschauer spectateur spectateurs espectador espectadores'),
  ...unitWords('video', 'video videos vidéo vidéos vídeo vídeos'),
};
/** French data sizes, read only as written ("100 Go"), not before a capital, a digit or an English word (English: "From 1 To 5 Seats", "Step 3 Go Live", "Step 2 Go to Settings"). */
const FRENCH_SIZE: Record<string, string> = { Ko: 'kb', Mo: 'mb', Go: 'gb', To: 'tb' };

/** A number as written: thousands grouped by `,` `.` or a no-break space, an optional decimal part. */
const NUMBER = /(?<![\p{L}\p{N}_.,\u00a0\u202f])(\d{1,3}(?:[,.\u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)(?![\p{L}\p{N}_]|[.,]\d)/gu;
/** The second group of a number grouped by an ordinary space ("10 000"): not a number of its own. */
const SPACE_GROUP = /\d $/;
const PREFIX = /(us\$|[$€£]|\b(?:usd|eur|gbp))\s?$/i;
const SUFFIX = /^(?:\s?(%)|\s?-?\s?(percent|per cent|prozent|pour\s?cent|por ciento)(?!\p{L})|\s?([$€£])|[\s-]?(business|working)?[\s-]?(\p{L}+)(?![\p{L}\p{N}]))/iu;
const FRENCH_SIZE_SUFFIX = /^\s?([KMGT]o)(?![\p{L}\p{N}])(?!\s+(?:[\p{Lu}\p{N}]|(?:to|the|a|an|and|or|for|with|back|ahead|live|do|this|that|it|in|on|at|of|here|there|now|you|your|we)(?![\p{L}\p{N}])))/u;
/** Between the two ends of a range: a dash, "to", "bis", "à" (not Spanish "a": English "2023 a 14-day"). */
const RANGE_BETWEEN = /^\s*(?:-|–|—|to|bis|à)\s*(?:us\$|[$€£])?\s*$/i;

/** URLs, e-mail addresses and markdown link targets, blanked so their digits are not read. */
function withoutLinks(text: string): string {
  return text
    .replace(/\]\([^)\s]*\)/g, (m) => ' '.repeat(m.length))
    .replace(/\b(?:https?:\/\/|www\.)[^\s<>)]+/gi, (m) => ' '.repeat(m.length))
    .replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, (m) => ' '.repeat(m.length));
}

/**
 * "1,299.00" → 1299, "12,50" → 12.5, "1.000.000" → 1000000, "1 299" (no-break space) → 1299,
 * "1.000" → 1000 (`wholeThousands`: a dot and three digits group thousands; false: "3.125" → 3.125).
 */
export function numberValue(written: string, wholeThousands = true): number {
  const s = written.replace(/[\u00a0\u202f]/g, '');
  const lastComma = s.lastIndexOf(',');
  const lastDot = s.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = lastComma > lastDot ? ',' : '.';
    const thousands = decimal === ',' ? '.' : ',';
    return Number(s.split(thousands).join('').replace(decimal, '.'));
  }
  if (lastComma >= 0) return /^\d{1,3}(,\d{3})+$/.test(s) ? Number(s.replace(/,/g, '')) : Number(s.replace(',', '.'));
  if (/^\d{1,3}(\.\d{3}){2,}$/.test(s) || (wholeThousands && /^[1-9]\d{0,2}\.\d{3}$/.test(s))) return Number(s.replace(/\./g, ''));
  return Number(s);
}

interface Found {
  start: number;
  end: number;
  /** Where the digits end (a range's separator starts here when the number has no suffix). */
  digitsEnd: number;
  /** The digits as written. */
  written: string;
  kind?: NumberKind;
  unit?: string;
  hasSuffix: boolean;
}

function unitAfter(after: string): { kind: NumberKind; unit: string; length: number } | undefined {
  const size = FRENCH_SIZE_SUFFIX.exec(after);
  if (size) return { kind: 'amount', unit: FRENCH_SIZE[size[1]!]!, length: size[0].length };
  const m = SUFFIX.exec(after);
  if (!m) return undefined;
  if (m[1] || m[2]) return { kind: 'percent', unit: '%', length: m[0].length };
  if (m[3]) return { kind: 'price', unit: CURRENCY_SYMBOL[m[3].toLowerCase()]!, length: m[0].length };
  const word = m[5]!.toLowerCase();
  if (DURATION[word]) return { kind: 'duration', unit: DURATION[word], length: m[0].length };
  if (m[4]) return undefined; // "3 business reasons": business/working only before a duration
  if (CURRENCY_WORD[word]) return { kind: 'price', unit: CURRENCY_WORD[word], length: m[0].length };
  if (AMOUNT[word]) return { kind: 'amount', unit: AMOUNT[word], length: m[0].length };
  return undefined;
}

function scan(text: string): Found[] {
  const found: Found[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const digitsStart = m.index;
    if (m[0].startsWith('0') && m[0].length >= 3 && SPACE_GROUP.test(text.slice(Math.max(0, digitsStart - 2), digitsStart))) continue; // "10 000": not 0
    const digitsEnd = digitsStart + m[0].length;
    const prefix = PREFIX.exec(text.slice(Math.max(0, digitsStart - 5), digitsStart));
    const suffix = unitAfter(text.slice(digitsEnd, digitsEnd + 24));
    const item: Found = {
      start: prefix ? digitsStart - prefix[0].length : digitsStart,
      end: suffix ? digitsEnd + suffix.length : digitsEnd,
      digitsEnd,
      written: m[0],
      hasSuffix: suffix !== undefined,
    };
    const currency = prefix ? (CURRENCY_SYMBOL[prefix[1]!.toLowerCase()] ?? CURRENCY_WORD[prefix[1]!.toLowerCase()]) : undefined;
    if (currency) Object.assign(item, { kind: 'price', unit: currency });
    else if (suffix) Object.assign(item, { kind: suffix.kind, unit: suffix.unit });
    found.push(item);
  }
  // Ranges: "$10–20" gives 20 the currency, "3 to 5 days" gives 3 the unit.
  for (let i = 0; i + 1 < found.length; i++) {
    const a = found[i]!;
    const b = found[i + 1]!;
    if (a.hasSuffix || !RANGE_BETWEEN.test(text.slice(a.digitsEnd, b.start))) continue;
    if (!a.kind && b.kind) Object.assign(a, { kind: b.kind, unit: b.unit });
    else if (a.kind && !b.kind) Object.assign(b, { kind: a.kind, unit: a.unit });
  }
  return found;
}

/** The numbers with a unit that `text` states, in order (links ignored). */
export function numberMentions(text: string): NumberMention[] {
  return scan(withoutLinks(text))
    .filter((f) => f.kind)
    .map((f) => ({ text: text.slice(f.start, f.end).trim(), kind: f.kind!, value: numberValue(f.written, f.kind !== 'percent'), unit: f.unit! }))
    .filter((m) => Number.isFinite(m.value));
}

const keyOf = (m: NumberMention) => `${m.kind}:${m.unit}:${m.value}`;

/** The keys (`kind:unit:value`) of the numbers with a unit that `text` states. */
export function statedKeys(text: string): string[] {
  return numberMentions(text).map(keyOf);
}

/**
 * Checks a reply's numbers against the knowledge sent with its question: `knowledge` is the
 * sent text, pinned block first (selection.context). A number is verified when the same
 * value with the same unit occurs anywhere in it.
 */
export function checkNumbers(reply: string, knowledge: string): NumberCheck {
  const known = numbersStated(knowledge);
  const seen = new Set<string>();
  const unverified: NumberMention[] = [];
  for (const mention of numberMentions(reply)) {
    const key = keyOf(mention);
    if (seen.has(key)) continue;
    seen.add(key);
    if (!known.has(key)) unverified.push(mention);
  }
  return { checked: seen.size, unverified };
}

/**
 * Blocks of sent text whose numbers are remembered, the least recently sent dropped first: ~0.3 MB
 * for the demo KB's 235 sections, at most 1,024 × the longest block (a part of a long section is
 * at most maxSectionShare of the budget, ~1,850 tokens, ~8 KB).
 */
export const STATED_BLOCKS_LIMIT = 1024;
const statedByBlock = new LruMemo<string, readonly string[]>(STATED_BLOCKS_LIMIT);

/**
 * The numbers a sent text states (`kind:unit:value`), read block by block: the sent text is
 * blocks that each start with "## " after a blank line (context-text.ts), and the same sections
 * are sent turn after turn, so each block's numbers are read once and remembered (reading the
 * demo KB's whole sent text took ~0.4 ms a turn, this ~0.03 ms). Cutting before any "## " that
 * follows a blank line gives the same numbers as the whole text: a unit, a currency, a range, a
 * link, a URL or an e-mail address never spans a blank line followed by "#" (numbers.test.ts
 * compares the two).
 */
export function numbersStated(knowledge: string): Set<string> {
  const known = new Set<string>();
  for (let at = 0; at < knowledge.length; ) {
    const next = knowledge.indexOf('\n\n## ', at);
    const end = next < 0 ? knowledge.length : next + 2;
    const block = knowledge.slice(at, end);
    let keys = statedByBlock.get(block);
    if (keys === undefined) {
      keys = statedKeys(block);
      statedByBlock.set(ownCopy(block), keys); // a slice as the key would keep the whole sent text alive
    }
    for (const key of keys) known.add(key);
    at = end;
  }
  return known;
}
