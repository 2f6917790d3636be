/**
 * Word-form variants for a word the knowledge base does not contain: British and American
 * spellings ("optimise" / "optimize", "colour" / "color", "licence" / "license", "centre" /
 * "center", "catalogue" / "catalog", "cancelled" / "canceled") and place adjectives ("europe" /
 * "european", "canada" / "canadian"), which Porter stemming does not join.
 *
 * Spellings are rules; place adjectives are a short list (a rule such as "-a → -an" would turn
 * "media" into "median"). `buildQuery` tries them only on a word whose terms the KB lacks, and
 * keeps a variant only when the KB has all of its terms, so a word the KB uses is never changed
 * ("hour" stays "hour").
 */

/** [pattern, replacement] pairs, tried in order. */
const SPELLING_RULES: readonly (readonly [RegExp, string])[] = [
  // British -ise/-yse ↔ American -ize/-yze, with their inflections and -isation
  [/is(e|es|ed|ing|er|ers|ation|ations)$/, 'iz$1'],
  [/iz(e|es|ed|ing|er|ers|ation|ations)$/, 'is$1'],
  [/ys(e|es|ed|ing)$/, 'yz$1'],
  [/yz(e|es|ed|ing)$/, 'ys$1'],
  // colour ↔ color, behaviour ↔ behavior, favourite ↔ favorite
  [/our(s|ed|ing|ite|ites|able)?$/, 'or$1'],
  [/([^o])or(s|ed|ing|ite|ites|able)?$/, '$1our$2'],
  // centre ↔ center, metres ↔ meters
  [/([^aeiou])re(s)?$/, '$1er$2'],
  [/([^aeiou])er(s)?$/, '$1re$2'],
  // catalogue ↔ catalog
  [/ogue(s)?$/, 'og$1'],
  [/og(s)?$/, 'ogue$1'],
  // licence ↔ license, defence ↔ defense
  [/ence(s)?$/, 'ense$1'],
  [/ense(s)?$/, 'ence$1'],
  // cancelled ↔ canceled, travelling ↔ traveling, labelled ↔ labeled (only -el-: "filing" is not "filling")
  [/ell(ed|ing|er|ers)$/, 'el$1'],
  [/el(ed|ing|er|ers)$/, 'ell$1'],
];

/** Place and its adjective, as customers type them (lowercase). */
const PLACES: readonly (readonly [place: string, adjective: string])[] = [
  ['europe', 'european'],
  ['america', 'american'],
  ['canada', 'canadian'],
  ['africa', 'african'],
  ['asia', 'asian'],
  ['australia', 'australian'],
  ['india', 'indian'],
  ['brazil', 'brazilian'],
  ['mexico', 'mexican'],
  ['germany', 'german'],
  ['france', 'french'],
  ['italy', 'italian'],
  ['spain', 'spanish'],
  ['britain', 'british'],
  ['england', 'english'],
  ['ireland', 'irish'],
  ['japan', 'japanese'],
  ['china', 'chinese'],
  ['korea', 'korean'],
  ['switzerland', 'swiss'],
];
const OTHER_PLACE_FORM = new Map(PLACES.flatMap(([place, adjective]) => [[place, adjective], [adjective, place]] as const));

/** Shortest variant tried: shorter ones ("tor" from "tour") are mostly other words. */
const MIN_VARIANT_LENGTH = 4;

/** Variants of a normalised word, place form first, then spelling rules in order; never the word itself or a repeat. */
export function wordVariants(word: string): string[] {
  const out: string[] = [];
  const place = OTHER_PLACE_FORM.get(word);
  if (place) out.push(place);
  for (const [pattern, replacement] of SPELLING_RULES) {
    if (!pattern.test(word)) continue;
    const variant = word.replace(pattern, replacement);
    if (variant !== word && variant.length >= MIN_VARIANT_LENGTH && !out.includes(variant)) out.push(variant);
  }
  return out;
}
