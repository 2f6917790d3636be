import { createHash } from 'node:crypto';
import { titlePath } from '../../context-text';
import type { RetrievalIndex } from '../../select/build-index';
import type { KbSection, KbVersion } from './record';

/**
 * KB versions: everything of a KB in service a turn's explanation and prompt draw on, made once
 * per loaded index and instructions and stored once (the store's kb_versions, by content hash).
 */

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The hash of a KB version's content (sections with their texts' hashes, instructions, pinned block, config). */
function kbVersionHash(kb: Omit<KbVersion, 'hash'>): string {
  return sha256(
    JSON.stringify({
      config: kb.config,
      instructions: kb.instructions,
      pinnedContext: kb.pinnedContext,
      avgDocLength: kb.avgDocLength,
      sections: kb.sections.map(({ text, ...s }) => ({ ...s, text: textHash(text) })),
    }),
  );
}

/** Content address of a text (texts table). */
export function textHash(text: string): string {
  return sha256(text);
}

const versionsByIndex = new WeakMap<RetrievalIndex, Map<string, KbVersion>>();

/** A KB version made by kbVersionOf: the index it was made from, and the KB position of each pool document. */
export interface KbVersionOrigin {
  index: RetrievalIndex;
  /** `positions[doc]`: where pool document `doc` sits in `KbVersion.sections`. */
  positions: Int32Array;
}
const origins = new WeakMap<KbVersion, KbVersionOrigin>();

/** The index a KB version was made from by kbVersionOf in this process (undefined for one read from a store). */
export function originOf(kb: KbVersion): KbVersionOrigin | undefined {
  return origins.get(kb);
}

/** The KB version of an index and instructions, built (and hashed) once per loaded index. */
export function kbVersionOf(index: RetrievalIndex, instructions: string): KbVersion {
  let byInstructions = versionsByIndex.get(index);
  if (!byInstructions) versionsByIndex.set(index, (byInstructions = new Map()));
  let version = byInstructions.get(instructions);
  if (!version) {
    const doc = new Map(index.pool.map((s, i) => [s, i]));
    const sections: KbSection[] = index.sections.map((s) => {
      const d = doc.get(s);
      return {
        id: s.id,
        title: s.title,
        parents: s.parents,
        source: s.source,
        line: s.line,
        tokens: s.tokens,
        pinned: s.pinned,
        ...(s.part ? { part: s.part } : {}),
        text: s.text,
        ...(d === undefined ? {} : { bm25Length: index.bm25.fieldLengths.reduce((n, lengths) => n + lengths[d]!, 0) }),
      };
    });
    const content = { sections, instructions, pinnedContext: index.pinnedContext, config: index.config, avgDocLength: index.bm25.avgFieldLengths.reduce((n, a) => n + a, 0) };
    version = { hash: kbVersionHash(content), ...content };
    byInstructions.set(instructions, version);
    const positions = new Int32Array(index.pool.length);
    index.sections.forEach((s, at) => {
      const d = doc.get(s);
      if (d !== undefined) positions[d] = at;
    });
    origins.set(version, { index, positions });
  }
  return version;
}

/** Lookups derived from a KB version, computed once per version object. */
export interface KbLookups {
  byId: Map<string, number>;
  /** Unpinned sections: the BM25 document count N. */
  docCount: number;
  paths: string[];
  configJson: string;
  /** KB positions of the pinned sections. */
  pinned: number[];
}
const lookups = new WeakMap<KbVersion, KbLookups>();

export function lookupsOf(kb: KbVersion): KbLookups {
  let l = lookups.get(kb);
  if (!l) {
    l = {
      byId: new Map(kb.sections.map((s, i) => [s.id, i])),
      docCount: kb.sections.filter((s) => !s.pinned).length,
      paths: kb.sections.map((s) => titlePath(s)),
      configJson: JSON.stringify(kb.config),
      pinned: kb.sections.flatMap((s, at) => (s.pinned ? [at] : [])),
    };
    lookups.set(kb, l);
  }
  return l;
}

/** KB positions of the pinned sections, in file order (the order they are sent and listed). */
export function pinnedPositions(kb: KbVersion): readonly number[] {
  return lookupsOf(kb).pinned;
}

/**
 * The KB version of a turn recorded before KB versions were (its row has none): no sections and
 * no texts, so its record holds its whole explanation and prompt (to-record.ts, exceptions).
 */
export const NO_KB_VERSION: KbVersion = Object.freeze({
  hash: '',
  sections: [],
  instructions: '',
  pinnedContext: '',
  config: {} as KbVersion['config'],
  avgDocLength: 0,
});
