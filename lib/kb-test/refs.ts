import { documentFormat, headingPath, titlePath, type RetrievalIndex, type Section } from '../retrieval/index';

/**
 * How a test names sections: one string, read as
 * - a **section id** when it has a `#`: `billing/refund-policy.md#refund-timelines` (a split
 *   section's id names all its parts; a part's own id, `…~2`, names that part);
 * - a **page** when it is a document path: `billing/refund-policy.md` — any section of it;
 * - else a **heading path**: `Refund policy › Refund timelines` (`>` works as the separator
 *   too; case and spacing do not matter).
 * A reference resolves to the units the selector scores and sends (index.sections: a split
 * section is its parts). One that resolves to nothing fails its case with "did you mean …":
 * ids change when headings are renamed, pages when files move.
 */

export type RefKind = 'id' | 'page' | 'heading';

export interface ResolvedRef {
  ref: string;
  kind: RefKind;
  units: readonly Section[];
  /** How the report names it: the heading path and the id, or the page. */
  label: string;
}

export interface UnknownRef {
  ref: string;
  kind: RefKind;
  /** Why it names nothing ("no section has the id …"). */
  problem: string;
  /** The nearest references that do name something (ids, pages or heading paths, as the reference was written). */
  suggestions: string[];
}

export type RefResolution = ResolvedRef | UnknownRef;

export const isUnknown = (r: RefResolution): r is UnknownRef => 'problem' in r;

export function refKind(ref: string): RefKind {
  if (ref.includes('#')) return 'id';
  return documentFormat(ref) ? 'page' : 'heading';
}

const normalizeHeading = (path: string) =>
  path
    .split(/\s*[›>]\s*/)
    .map((part) => part.trim().replace(/\s+/g, ' ').toLowerCase())
    .join(' › ');

/** The whole section a unit belongs to (its own id, or the id of the section it is a part of). */
const wholeId = (unit: Section) => unit.part?.sectionId ?? unit.id;

/** A unit as reports name it: `Refund policy › Refund timelines [billing/refund-policy.md#refund-timelines]` (a part: `… (part 2 of 3) [id~2]`). */
export function sectionLabel(unit: Pick<Section, 'title' | 'parents' | 'id' | 'part'>): string {
  return `${titlePath(unit)} [${unit.id}]`;
}

interface RefIndex {
  byId: Map<string, Section[]>;
  byHeading: Map<string, Section[]>;
  byPage: Map<string, Section[]>;
  ids: string[];
  /** Heading paths as written, and normalized (same order): what suggestions are looked for in. */
  headings: string[];
  normalizedHeadings: string[];
  pages: string[];
  /** A pool unit's position in `index.pool` (BM25's document number), by id. */
  docs: Map<string, number>;
}

function push<K>(map: Map<K, Section[]>, key: K, unit: Section): void {
  const list = map.get(key);
  if (list) list.push(unit);
  else map.set(key, [unit]);
}

const refIndexes = new WeakMap<RetrievalIndex, RefIndex>();

function refIndex(index: RetrievalIndex): RefIndex {
  let built = refIndexes.get(index);
  if (built) return built;
  const byId = new Map<string, Section[]>();
  const byHeading = new Map<string, Section[]>();
  const byPage = new Map<string, Section[]>();
  const headings = new Map<string, string>();
  for (const unit of index.sections) {
    push(byId, wholeId(unit), unit);
    if (unit.part) push(byId, unit.id, unit);
    const heading = headingPath(unit);
    push(byHeading, normalizeHeading(heading), unit);
    headings.set(normalizeHeading(heading), heading);
    push(byPage, unit.source, unit);
  }
  built = {
    byId,
    byHeading,
    byPage,
    ids: [...byId.keys()].filter((id) => !id.includes('~')),
    headings: [...headings.values()],
    normalizedHeadings: [...headings.keys()],
    pages: [...byPage.keys()],
    docs: new Map(index.pool.map((unit, doc) => [unit.id, doc])),
  };
  refIndexes.set(index, built);
  return built;
}

/**
 * Resolves test references against one KB's index (indexed once per index). A lookup; but the
 * nearest names of a reference that names nothing are searched for among all of the KB's, so
 * `suggest: false` leaves them out (run.ts suggests for a bounded number of references a run).
 */
export function resolveRef(index: RetrievalIndex, ref: string, suggest = true): RefResolution {
  const refs = refIndex(index);
  const kind = refKind(ref);
  if (kind === 'id') {
    const units = refs.byId.get(ref);
    if (units) return { ref, kind, units, label: wholeLabel(units) };
    return { ref, kind, problem: `no section has the id ${ref}`, suggestions: suggest ? idSuggestions(refs, ref) : [] };
  }
  if (kind === 'page') {
    const units = refs.byPage.get(ref);
    if (units) return { ref, kind, units, label: `the page ${ref}` };
    const file = ref.split('/').pop();
    return { ref, kind, problem: `the knowledge base has no page ${ref}`, suggestions: suggest ? nearest(ref, refs.pages, (p) => p.toLowerCase(), (p) => p.split('/').pop() === file) : [] };
  }
  const units = refs.byHeading.get(normalizeHeading(ref));
  if (!units) return { ref, kind, problem: `no section has the heading path "${ref}"`, suggestions: suggest ? headingSuggestions(refs, ref) : [] };
  const sections = [...new Set(units.map(wholeId))];
  if (sections.length > 1) {
    return { ref, kind, problem: `${sections.length} sections have the heading path "${ref}": name one by its id`, suggestions: sections };
  }
  return { ref, kind, units, label: wholeLabel(units) };
}

/** A whole section (all its parts), or the one part a reference names. */
function wholeLabel(units: readonly Section[]): string {
  return units.length === 1 ? sectionLabel(units[0]!) : `${headingPath(units[0]!)} [${wholeId(units[0]!)}]`;
}

/** Ids of the same file first (a renamed heading), then the same slug in another file (a moved page), then the nearest overall. */
function idSuggestions(refs: RefIndex, ref: string): string[] {
  const [file, slug] = [ref.slice(0, ref.indexOf('#')), ref.slice(ref.indexOf('#') + 1)];
  const sameFile = refs.ids.filter((id) => id.startsWith(`${file}#`));
  if (!sameFile.length) return nearest(ref, refs.ids, (id) => id.toLowerCase(), (id) => id.endsWith(`#${slug}`));
  const close = nearest(slug, sameFile.map((id) => id.slice(file.length + 1)), (s) => s.toLowerCase(), () => false).map((s) => `${file}#${s}`);
  if (close.length) return close;
  // Renamed beyond recognition: the file's ids, nearest first, as a hint.
  return sameFile
    .map((id) => ({ id, d: editDistance(slug, id.slice(file.length + 1)) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((s) => s.id);
}

/** The same title under a renamed parent first, then the nearest paths; else the headings beside it (a renamed heading). */
function headingSuggestions(refs: RefIndex, ref: string): string[] {
  const normalized = normalizeHeading(ref);
  const parts = normalized.split(' › ');
  const title = parts.at(-1)!;
  const at = (i: number) => refs.normalizedHeadings[i]!;
  const positions = refs.headings.map((_, i) => i);
  const close = nearest(normalized, positions, at, (i) => at(i) === title || at(i).endsWith(` › ${title}`)).map((i) => refs.headings[i]!);
  if (close.length || parts.length < 2) return close;
  const parent = `${parts.slice(0, -1).join(' › ')} › `;
  return positions
    .filter((i) => at(i).startsWith(parent))
    .map((i) => ({ i, d: editDistance(title, at(i).slice(parent.length)) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((s) => refs.headings[s.i]!);
}

/**
 * Up to three candidates: the `preferred` ones first, then those within an edit distance of 40%
 * of the name's length and within 2 of the nearest, nearest first. `text` gives a candidate's
 * text to compare (lower case).
 */
function nearest<T>(name: string, candidates: readonly T[], text: (candidate: T) => string, preferred: (candidate: T) => boolean): T[] {
  const limit = Math.max(2, Math.floor(name.length * 0.4));
  const lower = name.toLowerCase();
  const scored = candidates.map((c) => ({ c, d: preferred(c) ? -1 : editDistance(lower, text(c), limit) })).filter((s) => s.d <= limit);
  const best = Math.min(...scored.map((s) => Math.max(0, s.d)));
  return scored
    .filter((s) => s.d <= best + 2)
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((s) => s.c);
}

/** Edit distance (insertions, deletions, substitutions and swaps of two neighbours: "frist" is one from "first"); stops early (returns limit + 1) once it must exceed `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** "no section has the id x; did you mean y or z?" */
export function unknownRefMessage(unknown: UnknownRef): string {
  const suggestions = unknown.suggestions.map((s) => (refKind(s) === 'heading' ? `"${s}"` : s));
  if (!suggestions.length) return unknown.problem;
  const listed = suggestions.length === 1 ? suggestions[0] : `${suggestions.slice(0, -1).join(', ')} or ${suggestions.at(-1)}`;
  return `${unknown.problem}; did you mean ${listed}?`;
}

/** BM25's document number of a pool unit (undefined for a pinned one). */
export function poolDoc(index: RetrievalIndex, unit: Section): number | undefined {
  return refIndex(index).docs.get(unit.id);
}
