/**
 * Word-form variants for a word the knowledge base does not contain: British and American
 * spellings ("optimise" / "optimize", "colour" / "color", "licence" / "license", "centre" /
 * "center", "catalogue" / "catalog", "cancelled" / "canceled") and place adjectives ("europe" /
 * "european", "canada" / "canadian", "italy" / "italian"), which Porter stemming does not join.
 *
 * Pure rules, no word list: `buildQuery` tries them only on a word whose terms the KB lacks,
 * and keeps a variant only when the KB has all of its terms, so a rule can never turn a word
 * the KB uses into another one ("hour" stays "hour"; "four" never becomes "for").
 */

/** [pattern, replacement] pairs, tried in order, each in both directions where it makes sense. */
const RULES: readonly (readonly [RegExp, string])[] = [
  // British -ise/-yse ↔ American -ize/-yze, with their inflections and -isation
  [/is(e|es|ed|ing|er|ers|ation|ations)$/, 'iz$1'],
  [/iz(e|es|ed|ing|er|ers|ation|ations)$/, 'is$1'],
  [/ys(e|es|ed|ing)$/, 'yz$1'],
  [/yz(e|es|ed|ing)$/, 'ys$1'],
  // colour ↔ color, behaviour ↔ behavior, favourite ↔ favorite
  [/our(s|ed|ing|ite|ites|able|er|ers)?$/, 'or$1'],
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
  // cancelled ↔ canceled, travelling ↔ traveling, modeller ↔ modeler
  [/([aeiou])ll(ed|ing|er|ers)$/, '$1l$2'],
  [/([aeiou])l(ed|ing|er|ers)$/, '$1ll$2'],
  // place adjectives: europe → european, america → american, canada → canadian, italy → italian, and back
  [/e$/, 'ean'],
  [/ean$/, 'e'],
  [/a$/, 'an'],
  [/a$/, 'ian'],
  [/([^aeiou])y$/, '$1ian'],
  [/ian$/, 'a'],
  [/ian$/, 'y'],
  [/an$/, 'a'],
];

/** Variants of a normalised word, in rule order, without the word itself or repeats. */
export function wordVariants(word: string): string[] {
  const out: string[] = [];
  for (const [pattern, replacement] of RULES) {
    if (!pattern.test(word)) continue;
    const variant = word.replace(pattern, replacement);
    if (variant !== word && variant.length >= 3 && !out.includes(variant)) out.push(variant);
  }
  return out;
}
