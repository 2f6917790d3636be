import type { RetrievalConfig } from '../../config';
import type { Explanation, Query, Reason, SectionPart, SemanticStage, TokenSplit } from '../../types';

/**
 * A turn's record: what the store keeps of a turn's explanation and system prompt, in one form
 * (the packed record: packed.ts) next to the KB version it was selected on, which is stored once.
 * to-record.ts makes it, from the selection (a chat turn) or from an explanation; from-record.ts
 * turns it back into the explanation and the exact prompt. What is kept and why:
 * docs/trace-storage.md.
 */

/** One section of a KB version, as sent: `KbVersion.sections` is the index's sections (parts of split ones included). */
export interface KbSection {
  id: string;
  title: string;
  parents: readonly string[];
  source: string;
  line: number;
  tokens: number;
  pinned: boolean;
  part?: SectionPart;
  text: string;
  /** BM25 document length (weighted terms of heading path and body); absent for pinned sections, which are not scored. */
  bm25Length?: number;
}

/** Everything of a KB in service that a turn's explanation and prompt draw on, keyed by a content hash. */
export interface KbVersion {
  /** SHA-256 (hex) over the config, instructions, pinned block, average document length and every section with its text's hash. */
  hash: string;
  sections: readonly KbSection[];
  instructions: string;
  /** The pinned sections' blocks, as the context text starts. */
  pinnedContext: string;
  config: RetrievalConfig;
  avgDocLength: number;
}

/** Literal text, or a slot: 0 the KB's instructions, 1 its pinned block (end trimmed), 2 the turn's reference text (end trimmed). */
export type PromptFrame = (string | 0 | 1 | 2)[];

export interface TurnSummary {
  budget: number;
  tokens: TokenSplit;
  floorUsed: boolean;
  counts: Explanation['counts'];
  topScore: number;
  omitted: number;
}

/** Sections and their reasons in one turn, as the inspector's index (`turn_sections`) keeps them: `codes[i]` is `keys[i]`'s. */
export interface SectionReasons<Key> {
  keys: Key[];
  codes: number[];
}

/** A turn's selection in its stored form: the `selection` column's text (packed.ts), and the rows of the inspector's index. */
export interface PackedSelection {
  text: string;
  /**
   * Every section listed as pinned, matched or floor: KB positions, and their reason codes
   * (REASON_CODES); a section id where the section is not in the KB version.
   */
  reasons: SectionReasons<number | string>;
}

/** What the store keeps of one turn's explanation and prompt. */
export interface TurnRecord {
  query: Query;
  summary: TurnSummary;
  selection: PackedSelection;
  /** The prompt as a frame around the KB version's texts, kept once per distinct frame; absent when no frame gives it back (the record then holds its text). */
  frame?: PromptFrame;
}

/** A record as read back from the store: the stored text with the query and summary beside it. */
export interface StoredRecord {
  query: Query;
  summary: TurnSummary;
  /** The `selection` column: packed.ts's text. */
  text: string;
  frame?: PromptFrame;
}

/** Verdict reasons by code, as stored (the store's `verdict_reasons` table holds the same list). Append only. */
export const REASON_CODES: readonly Reason[] = ['over-budget', 'scored', 'floor', 'pinned', 'no-match'];

/** A reason code this version has no name for (stored by a newer one); such a verdict's `sent` comes from the send order. */
export const UNKNOWN_REASON = 'unknown' as Reason;

/**
 * One clause's part of a section's score, as a record decodes to: [query term index, tf, tf̃,
 * weight, group, score], trailing nulls left out. tf̃ (tf over the section's length norm,
 * bm25.ts) and the score (weight · saturation(idf, tf̃)) are recomputed from the KB version where
 * not given; the weight is given only when it is not the query term's (a synonym group's clause);
 * a group lists [term index, tf, share] per term.
 */
export type DecodedMatch = [term: number, tf: number, ...rest: (number | null | DecodedGroupTerm[])[]];
/** [query term index, tf] — the share recomputed as the term's weight over the clause's — or [index, tf, share]. */
export type DecodedGroupTerm = [term: number, tf: number] | [term: number, tf: number, share: number];

/** One listed verdict; everything else about the section comes from the KB version. */
export interface DecodedVerdict {
  /** Position of the section in `KbVersion.sections`. */
  at: number;
  reason: Reason;
  /** Absent when it is the sum of the terms' scores (0 without matches), as the selector adds them up. */
  score?: number;
  rank?: number;
  matches?: DecodedMatch[];
}

/** A record's selection decoded, before it is expanded into the explanation's verdicts (from-record.ts). */
export interface DecodedSelection {
  /**
   * Per query term (index as in `query.terms`): its document frequency, from which the idf
   * follows with the selector's formula and the KB version's section count; [idf] where that
   * does not give it back; null for a term no listed section has.
   */
  idfs: (number | [number] | null)[];
  /** The explanation's verdicts in list order, up to the unmatched tail. */
  verdicts: DecodedVerdict[];
  /** How many unmatched, unsent sections end the list. */
  noMatchListed: number;
  /** True when the KB's pinned sections lead both lists and are left out of `verdicts` and `sent`. */
  pinnedLead?: boolean;
  /** KB positions of the sections sent, in send order (`sentIds`). */
  sent: number[];
  /** The semantic stage, when it was on for the turn. */
  semantic?: DecodedSemantic;
}

/**
 * The semantic stage of one turn. "Fused verdicts" are the listed verdicts with a rank (the
 * matched ones), in list order: when the stage fused, each has its `fusion` ranks.
 */
export interface DecodedSemantic {
  stage: SemanticStage;
  /** Per fused verdict: its cosine similarity, null where the section has no embedding. */
  similarity?: (number | null)[];
  /** [fused verdict index, semantic rank] for each listed member of the semantic list. */
  semanticRanks?: [number, number][];
  /**
   * Per fused verdict: its BM25 rank (null: no lexical match) — given only when it does not
   * follow from the listed scores (score desc, then file order), e.g. when explainLimit cut the list.
   */
  lexicalRanks?: (number | null)[];
}
