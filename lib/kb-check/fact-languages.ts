import { analyze, createAnalyzer } from '../retrieval/index';

/**
 * How the facts check (facts.ts) reads numbers, units and the words around them in one language:
 * English as it always did, and German, French and Spanish (docs/facts-check.md, "Other
 * languages"). A lexicon is built once per language.
 *
 * - **numbers**: English "1,000.50"; German and Spanish "1.000,50" (decimal comma, a dot between
 *   thousands: the Duden's and the RAE's practice in Germany and Spain); French "1 000,50" (a
 *   space, a no-break space or a narrow no-break space between thousands).
 * - **money**: English puts the currency first ("$79"); German, French and Spanish write it after
 *   the amount ("79 €", "9,99 €", "79 EUR", "79 Euro") and sometimes first ("€79").
 * - **units**: each language's words for durations (German "14 Tage", "5 Werktage"; French "30
 *   jours", "5 jours ouvrés"; Spanish "30 días", "5 días hábiles"), sizes (French "Go", "To") and
 *   percentages ("Prozent", "pour cent", "por ciento"), mapped to the same kinds as English.
 * - **the words around them**: "per" (pro, je, im / par / por, al), relative amounts (zusätzlich,
 *   Rabatt / supplémentaire, remise / adicional, descuento), worked examples (Beispiel / exemple
 *   / ejemplo), list connectors, and the plan words after or before a name (Tarif / forfait / plan).
 * - **terms**: what a quantity measures is compared as the language's analyzed terms (retrieval's
 *   analyzer for that language, without the KB's vocabulary), so "Speicher" meets "Speichers".
 */

export interface FactLexicon {
  language: string;
  /** A number as the language writes it (regex source). */
  number: string;
  parseNumber(text: string): number;
  /** Money: groups cur, num, num2, per — or, with the currency after the amount, numAfter, num2After, curAfter. */
  money: RegExp;
  /** A currency symbol or word → `$`, `EUR`, `GBP`. */
  currency(symbol: string): string;
  /** The per-unit words of a money amount's `per` group (global) → group 1, canonicalised by perUnit. */
  perUnits: RegExp;
  perUnit(word: string): string;
  /** A number with a unit: groups num, num2, unit. */
  measured: RegExp;
  /** A number standing alone: group num. */
  bare: RegExp;
  /** Lowercase unit (as matched) → unit kind; sizes map to `GB`. */
  unitKind(unit: string): string | undefined;
  /** Lowercase size unit → factor to GB (mb 0.001, tb 1000). */
  sizeFactor(unit: string): number;
  /** A unit named within three words after a bare number: group 1. */
  unitAhead: RegExp;
  /** Unit words anywhere in a text (global): group 1. */
  unitWords: RegExp;
  /** The word right after a bare number: group 1 (a count's noun, unless a connector). */
  wordAfter: RegExp;
  connector: RegExp;
  relative: RegExp;
  calculation: RegExp;
  /** Size units in a quantity's raw text (a borrowed kind's factor). */
  terabytes: RegExp;
  megabytes: RegExp;
  /** Numbers (and a currency before them) to take out of a text before its terms are read. */
  numbers: RegExp;
  /** Capitalised words directly before a number: group 1, the KB's item names. */
  names: RegExp;
  /** How often a word must stand there to count as a name, unless a colon follows it (group `label`: "Pro: 79 €"); German: 2, see FactWords.nameAfter. */
  nameOccurrences: number;
  analyze(text: string): string[];
  /** Terms of unit and quantity words, never part of what a quantity measures. */
  unitTerms: ReadonlySet<string>;
}

// ---------------------------------------------------------------------------
// English: the patterns the facts check always had, unchanged.

const EN_NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const EN_PER_UNIT = String.raw`(?:\s*(?:\/|\bper\b|\ba\b|\ban\b|\beach\b)\s*(?:extra\s+)?(month|mo|year|yr|gb|tb|seat|user|hour|minute|day|week|viewer|video)s?\b)`;
const EN_UNIT_WORDS: Record<string, string> = {
  '%': '%', percent: '%',
  mb: 'GB', gb: 'GB', tb: 'GB',
  minute: 'minute', minutes: 'minute', min: 'minute', mins: 'minute',
  hour: 'hour', hours: 'hour', hr: 'hour', hrs: 'hour',
  day: 'day', days: 'day',
  'business day': 'business-day', 'business days': 'business-day',
  'working day': 'business-day', 'working days': 'business-day',
  week: 'week', weeks: 'week',
  month: 'month', months: 'month',
  year: 'year', years: 'year',
  second: 'second', seconds: 'second',
};
const GB_FACTOR: Record<string, number> = { mb: 0.001, gb: 1, tb: 1000 };

export const ENGLISH_FACTS: FactLexicon = {
  language: 'en',
  number: EN_NUMBER,
  parseNumber: (s) => Number(s.replace(/,/g, '')),
  money: new RegExp(String.raw`(?<cur>[$€£])\s?(?<num>${EN_NUMBER})(?:\s*(?:[-–]|to)\s*[$€£]?(?<num2>${EN_NUMBER}))?(?<per>${EN_PER_UNIT}*)`, 'gi'),
  currency: (c) => (c === '€' ? 'EUR' : c === '£' ? 'GBP' : '$'),
  perUnits: /(month|mo|year|yr|gb|tb|seat|user|hour|minute|day|week|viewer|video)s?\b/g,
  perUnit: (u) => (u === 'mo' ? 'month' : u === 'yr' ? 'year' : u === 'gb' || u === 'tb' ? 'GB' : u),
  measured: new RegExp(
    String.raw`(?<![\w.$€£/])(?<num>${EN_NUMBER})(?:\s*(?:[-–]|to)\s*(?<num2>${EN_NUMBER}))?(?:\s*|-)(?<unit>%|percent\b|business days?\b|working days?\b|[mgt]b\b|minutes?\b|mins?\b|hours?\b|hrs?\b|days?\b|weeks?\b|months?\b|years?\b|seconds?\b)`,
    'gi',
  ),
  bare: new RegExp(String.raw`(?<![\w.$€£/:-])(?<num>${EN_NUMBER})(?![\w%]|[.,:/]\d|-\w)`, 'g'),
  unitKind: (u) => EN_UNIT_WORDS[u] ?? (u in GB_FACTOR ? 'GB' : undefined),
  sizeFactor: (u) => GB_FACTOR[u] ?? 1,
  unitAhead: /^\s+(?:[\p{L}-]+\s+){0,3}?(business days?|working days?|minutes?|hours?|days?|weeks?|months?|years?|percent)\b/iu,
  unitWords: /\b(business days?|working days?|minutes?|hours?|days?|weeks?|months?|years?|percent)\b/gi,
  wordAfter: /^\s+([a-z][a-z-]+)/i,
  connector: /^(and|or|on|for|in|per|to|with|at|of|from|is|are|was|were|a|an|the|by|each|if|when|then|than|up|while|plus|minus|times|x)$/i,
  relative: /\b(difference|extra|additional|more|less|save|saves|saving|savings|off|discount|credit|refund|refunded|refunds|half|cheaper|back)\b/i,
  calculation: /\bexample\b|[×=]/i,
  terabytes: /\btb\b/i,
  megabytes: /\bmb\b/i,
  numbers: /[$€£]?\d[\d,.]*/g,
  names: /\b(\p{Lu}[\p{L}]+)(?:\s+(?:plan|tier|package|edition))?:?\s+(?:[$€£]\s?)?\d/gu,
  nameOccurrences: 1,
  analyze,
  unitTerms: new Set(
    analyze(
      'per a an each month monthly months year yearly annually years mo yr gb tb mb minute minutes hour hours day days week weeks business working percent second seconds up to maximum max minimum min least most only custom billed bill included includes include plan plans',
    ),
  ),
};

// ---------------------------------------------------------------------------
// German, French, Spanish: built from their words.

interface FactWords {
  language: string;
  /** How the language groups thousands: a dot (de, es) or a space (fr); the decimal mark is a comma. */
  thousands: '.' | ' ';
  /** Unit words, lowercase (several words allowed) → kind. */
  units: Record<string, string>;
  /** Size units, lowercase → factor to GB. */
  sizes: Record<string, number>;
  /** Words between two numbers of a range ("5 bis 10 Tage"). */
  rangeWords: string[];
  /** "per": words before a per-unit ("pro Monat", "par mois", "al mes"). */
  per: string[];
  /** Per-units, lowercase → canonical (month, year, GB, seat, user, hour, minute, day, week, viewer, video). */
  perUnits: Record<string, string>;
  /** Currency words after an amount, lowercase → `$`, `EUR`, `GBP`. */
  currencyWords: Record<string, string>;
  connectors: string[];
  relative: string[];
  calculation: string[];
  /** Plan words that may stand right after a name ("Pro Tarif") — the name is still the word before the number. */
  itemWords: string[];
  /**
   * German capitalises every noun, so a capitalised word before a number is as often a noun
   * ("werden Videos 30 Tage aufbewahrt", "Speicher: 50 GB") as a name: it counts as a name only
   * where a name list or a label puts it — first in the sentence, or after `,` `;` `:` `(` or
   * one of these words — and, unless it is a label of its own ("Pro: 79 €", read as in English),
   * only when it stands so before a number at least twice (plan names recur across a fact sheet:
   * "Starter 50 GB, Pro 250 GB" and "Starter 500 GB, Pro 2 TB"; "Mehrverbrauch: Bandbreite 0,06 €"
   * names no plan). A noun taken for a name would leave the measure words, and its facts would no
   * longer be compared.
   */
  nameAfter?: string[];
  /** Words of quantities and units, never part of what is measured. */
  unitTermText: string;
}

const L = String.raw`\p{L}\p{N}_`;
const byLength = (words: Iterable<string>) => [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
/** Alternatives of lowercase words, longest first, spaces as any whitespace, regex characters escaped. */
const alternatives = (words: Iterable<string>) => byLength(words).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, String.raw`\s+`)).join('|');
/** A whole word (Unicode letters): no letter, digit or underscore on either side. */
const word = (source: string) => String.raw`(?<![${L}])(?:${source})(?![${L}])`;

function buildLexicon(w: FactWords): FactLexicon {
  const sep = w.thousands === '.' ? String.raw`\.` : String.raw`[ \u00a0\u202f]`;
  const number = String.raw`\d{1,3}(?:${sep}\d{3})+(?:,\d+)?(?!\d)|\d+(?:,\d+)?`;
  const units = { ...w.units, ...Object.fromEntries(Object.keys(w.sizes).map((s) => [s, 'GB'])) };
  const currencies = alternatives(Object.keys(w.currencyWords));
  const range = String.raw`\s*(?:[-–]|${word(alternatives(w.rangeWords))})\s*`;
  const perUnit = String.raw`(?:\s*(?:\/|${word(alternatives(w.per))})\s*(?:${word(alternatives(Object.keys(w.perUnits)))}))`;
  const { analyze: analyzeIn } = createAnalyzer(w.language);
  const canonical = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');
  return {
    language: w.language,
    number,
    parseNumber: (s) => Number(s.replace(/[. \u00a0\u202f]/g, '').replace(',', '.')),
    money: new RegExp(
      String.raw`(?:(?<cur>[$€£])\s?(?<num>${number})(?:${range}[$€£]?(?<num2>${number}))?|(?<![${L},.])(?<numAfter>${number})(?:${range}(?<num2After>${number}))?\s?(?<curAfter>[$€£]|${word(currencies)}))(?<per>${perUnit}*)`,
      'giu',
    ),
    currency: (c) => (c === '€' ? 'EUR' : c === '£' ? 'GBP' : c === '$' ? '$' : (w.currencyWords[canonical(c)] ?? '$')),
    perUnits: new RegExp(word(`(${alternatives(Object.keys(w.perUnits))})`), 'giu'),
    perUnit: (u) => w.perUnits[canonical(u)] ?? u,
    measured: new RegExp(
      String.raw`(?<![${L}.,$€£/])(?<num>${number})(?:${range}(?<num2>${number}))?(?:\s*|-)(?<unit>%|${word(alternatives(Object.keys(units).filter((u) => u !== '%')))})`,
      'giu',
    ),
    bare: new RegExp(String.raw`(?<![${L}.,$€£/:-])(?<num>${number})(?![${L}%]|[.,:/]\d|-[${L}])`, 'gu'),
    unitKind: (u) => units[canonical(u)],
    sizeFactor: (u) => w.sizes[canonical(u)] ?? 1,
    unitAhead: new RegExp(String.raw`^\s+(?:[\p{L}-]+\s+){0,3}?(${alternatives(Object.keys(w.units).filter((u) => u !== '%'))})(?![${L}])`, 'iu'),
    unitWords: new RegExp(word(`(${alternatives(Object.keys(w.units).filter((u) => u !== '%'))})`), 'giu'),
    wordAfter: /^\s+(\p{L}[\p{L}-]+)/u,
    connector: new RegExp(`^(?:${alternatives(w.connectors)})$`, 'iu'),
    relative: new RegExp(word(alternatives(w.relative)), 'iu'),
    calculation: new RegExp(`${word(alternatives(w.calculation))}|[×=]`, 'iu'),
    terabytes: new RegExp(word(alternatives(Object.keys(w.sizes).filter((s) => w.sizes[s] === 1000))), 'iu'),
    megabytes: new RegExp(word(alternatives(Object.keys(w.sizes).filter((s) => w.sizes[s] === 0.001))), 'iu'),
    numbers: /[$€£]?\d[\d,. \u00a0\u202f]*/g,
    names: new RegExp(String.raw`${w.nameAfter ? String.raw`(?<=^|[,;:(]\s*|(?:^|\s)(?:${alternatives(w.nameAfter)})\s+)` : ''}(?<![${L}])(\p{Lu}\p{L}+)(?:\s+(?:${alternatives(w.itemWords.flatMap((i) => [i, i[0]!.toUpperCase() + i.slice(1)]))}))?\s?(?<label>:)?\s+(?:[$€£]\s?)?\d`, 'gu'),
    nameOccurrences: w.nameAfter ? 2 : 1,
    analyze: analyzeIn,
    unitTerms: new Set(analyzeIn(w.unitTermText)),
  };
}

const GERMAN: FactWords = {
  language: 'de',
  thousands: '.',
  units: {
    prozent: '%',
    minute: 'minute', minuten: 'minute', min: 'minute',
    stunde: 'hour', stunden: 'hour', std: 'hour',
    tag: 'day', tage: 'day', tagen: 'day', tages: 'day',
    werktag: 'business-day', werktage: 'business-day', werktagen: 'business-day',
    arbeitstag: 'business-day', arbeitstage: 'business-day', arbeitstagen: 'business-day',
    woche: 'week', wochen: 'week',
    monat: 'month', monate: 'month', monaten: 'month', monats: 'month',
    jahr: 'year', jahre: 'year', jahren: 'year', jahres: 'year',
    sekunde: 'second', sekunden: 'second', sek: 'second',
  },
  sizes: { mb: 0.001, gb: 1, tb: 1000 },
  rangeWords: ['bis'],
  // "12 € pro Platz und Monat"
  per: ['pro', 'je', 'im', 'in der', 'für jede', 'für jeden', 'und'],
  perUnits: {
    monat: 'month', monate: 'month', jahr: 'year', gb: 'GB', tb: 'GB', platz: 'seat', sitz: 'seat', arbeitsplatz: 'seat',
    nutzer: 'user', benutzer: 'user', stunde: 'hour', minute: 'minute', tag: 'day', woche: 'week', zuschauer: 'viewer', video: 'video',
  },
  currencyWords: { eur: 'EUR', euro: 'EUR', usd: '$', dollar: '$', gbp: 'GBP', pfund: 'GBP' },
  connectors: ['und', 'oder', 'auf', 'für', 'in', 'im', 'pro', 'bis', 'mit', 'bei', 'von', 'vom', 'aus', 'ist', 'sind', 'war', 'waren', 'ein', 'eine', 'der', 'die', 'das', 'den', 'dem', 'je', 'wenn', 'dann', 'als', 'plus', 'minus', 'mal', 'x', 'zu', 'zum', 'zur'],
  relative: [
    'differenz', 'unterschied', 'zusätzlich', 'zusätzliche', 'zusätzlichen', 'zusätzlicher', 'extra', 'mehr', 'weniger',
    'sparen', 'sparst', 'spart', 'ersparnis', 'rabatt', 'nachlass', 'gutschrift', 'erstattung', 'rückerstattung', 'erstattet',
    'zurückerstattet', 'hälfte', 'günstiger', 'billiger', 'zurück',
  ],
  calculation: ['beispiel', 'beispielsweise', 'z. b.', 'z.b.'],
  itemWords: ['tarif', 'paket', 'plan', 'edition'],
  nameAfter: ['und', 'oder', 'sowie', 'bei', 'für', 'im', 'in'],
  unitTermText:
    'pro je im monat monatlich monate jahr jährlich jahre gb tb mb minute minuten stunde stunden tag tage woche wochen werktag werktage arbeitstag arbeitstage prozent sekunde sekunden bis zu maximal höchstens mindestens nur individuell abgerechnet abrechnung inklusive enthalten tarif tarife plan',
};

const FRENCH: FactWords = {
  language: 'fr',
  thousands: ' ',
  units: {
    'pour cent': '%', pourcent: '%',
    minute: 'minute', minutes: 'minute', min: 'minute',
    heure: 'hour', heures: 'hour',
    jour: 'day', jours: 'day',
    'jour ouvré': 'business-day', 'jours ouvrés': 'business-day', 'jour ouvrable': 'business-day', 'jours ouvrables': 'business-day',
    semaine: 'week', semaines: 'week',
    mois: 'month',
    an: 'year', ans: 'year', année: 'year', années: 'year',
    seconde: 'second', secondes: 'second',
  },
  sizes: { mo: 0.001, mb: 0.001, go: 1, gb: 1, to: 1000, tb: 1000 },
  rangeWords: ['à'],
  per: ['par', 'chaque', 'le'],
  perUnits: {
    mois: 'month', an: 'year', année: 'year', go: 'GB', to: 'GB', gb: 'GB', tb: 'GB', siège: 'seat', poste: 'seat',
    utilisateur: 'user', heure: 'hour', minute: 'minute', jour: 'day', semaine: 'week', spectateur: 'viewer', vidéo: 'video',
  },
  currencyWords: { eur: 'EUR', euro: 'EUR', euros: 'EUR', usd: '$', dollar: '$', dollars: '$', gbp: 'GBP', livre: 'GBP', livres: 'GBP' },
  connectors: ['et', 'ou', 'sur', 'pour', 'en', 'par', 'à', 'au', 'aux', 'avec', 'de', 'du', 'des', 'est', 'sont', 'était', 'un', 'une', 'le', 'la', 'les', 'si', 'quand', 'puis', 'que', 'plus', 'moins', 'fois', 'x', 'chaque'],
  relative: [
    'différence', 'supplémentaire', 'supplémentaires', 'en plus', 'plus', 'moins', 'économisez', 'économiser', 'économie',
    'remise', 'réduction', 'rabais', 'avoir', 'crédit', 'remboursement', 'remboursé', 'remboursée', 'rembourse', 'moitié',
    'moins cher', 'moins chère',
  ],
  calculation: ['exemple', 'par exemple'],
  itemWords: ['forfait', 'offre', 'formule', 'plan', 'édition'],
  unitTermText:
    'par chaque le mois mensuel mensuelle an ans année annuel annuelle années go to mo gb tb minute minutes heure heures jour jours semaine semaines ouvré ouvrés ouvrable ouvrables pour cent seconde secondes jusqu maximum minimum au moins seulement sur mesure facturé facturée facture inclus incluse compris forfait forfaits offre plan',
};

const SPANISH: FactWords = {
  language: 'es',
  thousands: '.',
  units: {
    'por ciento': '%',
    minuto: 'minute', minutos: 'minute', min: 'minute',
    hora: 'hour', horas: 'hour',
    día: 'day', días: 'day', dia: 'day', dias: 'day',
    'día hábil': 'business-day', 'días hábiles': 'business-day', 'dia habil': 'business-day', 'dias habiles': 'business-day',
    'día laborable': 'business-day', 'días laborables': 'business-day',
    semana: 'week', semanas: 'week',
    mes: 'month', meses: 'month',
    año: 'year', años: 'year',
    segundo: 'second', segundos: 'second',
  },
  sizes: { mb: 0.001, gb: 1, tb: 1000 },
  rangeWords: ['a'],
  per: ['por', 'al', 'cada', 'a la'],
  perUnits: {
    mes: 'month', año: 'year', gb: 'GB', tb: 'GB', puesto: 'seat', asiento: 'seat', usuario: 'user', hora: 'hour',
    minuto: 'minute', día: 'day', semana: 'week', espectador: 'viewer', vídeo: 'video', video: 'video',
  },
  currencyWords: { eur: 'EUR', euro: 'EUR', euros: 'EUR', usd: '$', dólar: '$', dólares: '$', gbp: 'GBP', libra: 'GBP', libras: 'GBP' },
  connectors: ['y', 'e', 'o', 'u', 'en', 'para', 'por', 'a', 'al', 'con', 'de', 'del', 'es', 'son', 'era', 'un', 'una', 'el', 'la', 'los', 'las', 'si', 'cuando', 'luego', 'que', 'más', 'menos', 'veces', 'x', 'cada'],
  relative: [
    'diferencia', 'adicional', 'adicionales', 'extra', 'más', 'menos', 'ahorra', 'ahorrar', 'ahorro', 'descuento',
    'rebaja', 'crédito', 'reembolso', 'reembolsado', 'reembolsa', 'mitad', 'más barato', 'más barata',
  ],
  calculation: ['ejemplo', 'por ejemplo'],
  itemWords: ['plan', 'tarifa', 'paquete', 'edición'],
  unitTermText:
    'por al cada mes mensual meses año anual años gb tb mb minuto minutos hora horas día días semana semanas hábil hábiles laborable laborables por ciento segundo segundos hasta máximo mínimo al menos solo personalizado facturado factura incluido incluida incluye plan planes',
};

const LEXICONS: Readonly<Record<string, FactLexicon>> = { en: ENGLISH_FACTS, de: buildLexicon(GERMAN), fr: buildLexicon(FRENCH), es: buildLexicon(SPANISH) };

/** The languages whose numbers and units the facts check reads. */
export const FACT_LANGUAGES: readonly string[] = Object.keys(LEXICONS);

/** The lexicon of a language, or undefined when the facts check cannot read it (then its sections are not compared). */
export function factLexicon(language: string): FactLexicon | undefined {
  return Object.hasOwn(LEXICONS, language) ? LEXICONS[language] : undefined;
}
