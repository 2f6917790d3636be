// The stub's embedding model (POST /v1/embeddings), shared by the stub server and the unit
// tests: deterministic, no model weights. Not a real model: its similarities say nothing
// about retrieval quality, only that the semantic stage is wired right.
//
// A text's vector is a hashed bag of words: lowercase words, a few English stop words out,
// each word mapped to its CONCEPT (below) or itself, FNV-1a hashed into one of DIMENSIONS
// slots, counted. Words of one concept land in the same slot, so a paraphrase that shares no
// word with a section (hand-made pairs: "how heavy can my stuff be?" and "Upload size and
// duration limits … the largest single file") still comes out similar.

export const DIMENSIONS = 4096;

/** Hand-made paraphrase groups: every word of a group is the same concept. */
const CONCEPTS = [
  ['size', 'big', 'bigger', 'biggest', 'large', 'larger', 'largest', 'heavy', 'heavier', 'heaviest', 'huge', 'max', 'maximum'],
  ['file', 'files', 'stuff'],
  ['lock', 'locks', 'locked', 'shut', 'blocked'],
  ['attempts', 'tries', 'tried', 'failed'],
  ['refund', 'refunds', 'money', 'reimburse'],
];

const STOP_WORDS = new Set(
  'a an and are as at be by can do does for from how i if in is it its me my of on or our so that the their this to up was we what when where which who why will with you your'.split(' '),
);

const conceptOf = new Map(CONCEPTS.flatMap((group) => group.map((word) => [word, group[0]])));

function slot(word) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % DIMENSIONS;
}

/** The stub's embedding of `text`: DIMENSIONS numbers, unit length (all zeros for a text with no words). */
export function stubEmbedding(text) {
  const vector = new Array(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    vector[slot(conceptOf.get(word) ?? word)] += 1;
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((x) => x / norm);
}
