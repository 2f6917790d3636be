/**
 * What `npm run bench` offers on its command line, in a module of its own so that its usage
 * and the check of its flags load no library: the corpora's sizes and the contenders' names
 * (bench/contenders.ts has one contender of each name, in this order, and checks it).
 */
export const CORPUS_SIZES = [136, 1000, 10000, 100000] as const;

export const CONTENDER_NAMES = [
  'ours: scoring',
  'ours: select',
  'ours: full selection',
  'ours: turn',
  'ours: turn via explain',
  'MiniSearch',
  'Orama',
  'wink-bm25',
  'okapibm25',
  'naive loop',
] as const;

export type ContenderName = (typeof CONTENDER_NAMES)[number];
