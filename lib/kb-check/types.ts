/** What `checkKnowledgeBase` reports. */

export type FindingLevel = 'error' | 'warning' | 'info';

/**
 * - `unpinned-rule` — a sentence in an unpinned section reads as a rule for the assistant
 *   and is sent for every question built for it (warning), or repeats a pinned section
 *   that is always sent (info).
 * - `rule-not-sent` — such a sentence is *not* sent for a question it applies to (error).
 * - `section-too-large` — bigger than the budget left after the pinned block (error).
 * - `section-no-words` — nothing the analyzer can index: only the floor can send it (error).
 * - `section-not-sent-for-title` — not sent even when the question is its own title (error;
 *   info when only its own sub-sections, which carry its title, outrank it).
 * - `pinned-budget` — pinned share over one third (warning), over one half or over the
 *   whole budget (error).
 * - `unpin-candidate` — a pinned section that reads as reference material (info; warning
 *   when the pinned share is over one third).
 * - `facts-disagree` — an unpinned number contradicts a pinned one about the same item (error).
 * - `synonyms-unused` — a synonym group none of whose words occur in the scored sections (warning).
 * - `rules-not-served` — the server refuses the KB: declared rules (`rules:` in assistant.md)
 *   are missing, or a path that may hold one cannot be read (error).
 * - `folder-repeated` — a link leads to a folder already read: read once (warning).
 * - `file-skipped` — a broken unpinned file left out of the KB (error: its content is not served).
 * - `heading-collision` — two sections of one file with the very same heading path: the
 *   second got an ordinal id (warning).
 * - `identity-missing` — no assistant.md: neutral defaults, no company name (warning).
 * - `heading-skipped` — a heading with no body and nothing under it, a heading with no text,
 *   or a file with no content (info).
 * - `containers` — headings with no text of their own, which live on in their children's
 *   heading paths (one info for the KB, with examples).
 * - `section-split` — a section longer than `maxSectionShare` of the room left after the
 *   pinned block, sent as parts (info).
 * - `synonyms-duplicate` — the same term in two groups (warning), the same word twice in a
 *   group (warning), or two spellings of one term in a group (info).
 * - `language-mismatch` — a file whose text reads as another language than the one it is
 *   declared in (front matter `lang:`, `<html lang>`, else the identity file's `language:`) (warning).
 * - `section-language-mismatch` — sections of at least 300 letters of prose that read as
 *   another language than their file's, one finding per file (warning): parts a translation
 *   left in the original.
 * - `language-unsupported` — sections in a language with no analyzer of its own (warning).
 */
export type FindingKind =
  | 'rules-not-served'
  | 'folder-repeated'
  | 'file-skipped'
  | 'heading-collision'
  | 'identity-missing'
  | 'heading-skipped'
  | 'containers'
  | 'section-split'
  | 'section-repeated'
  | 'unpinned-rule'
  | 'rule-not-sent'
  | 'section-too-large'
  | 'section-no-words'
  | 'section-not-sent-for-title'
  | 'pinned-budget'
  | 'unpin-candidate'
  | 'facts-disagree'
  | 'synonyms-unused'
  | 'synonyms-duplicate'
  | 'language-mismatch'
  | 'section-language-mismatch'
  | 'language-unsupported';

export interface Finding {
  kind: FindingKind;
  level: FindingLevel;
  /** Path relative to the KB root (a markdown file, or the synonyms file). */
  file: string;
  /** 1-based line in `file`, where there is one. */
  line?: number;
  sectionId?: string;
  message: string;
  suggestion?: string;
  /** Kind-specific data for renderers (the /debug panel, --json). */
  details?: Record<string, unknown>;
}

/** One question asked of the selector on behalf of a rule or a section. */
export interface QuestionResult {
  question: string;
  sent: boolean;
  /** The section's verdict: pinned | scored | floor | no-match | over-budget. */
  reason: string;
  /** 1-based rank among matched sections, when it matched. */
  rank?: number;
  score: number;
  tokens: number;
  /** Tokens left after the pinned block (the room scored sections compete for). */
  available: number;
  /** The scored sections that were sent instead (first few). */
  sentInstead: string[];
  /** Every sent section that ranked above it (when it matched). */
  outrankedBy: string[];
}

export interface CheckSummary {
  ok: boolean;
  errors: number;
  warnings: number;
  infos: number;
  sections: number;
  pinnedSections: number;
  kbTokens: number;
  budget: number;
  pinnedTokens: number;
  pinnedShare: number;
  /** Unpinned sentences that read as rules, and how many of them are not always sent. */
  rules: { found: number; notSent: number; coveredByPinned: number };
  /** Unpinned numbers compared with a pinned number about the same item. */
  factsCompared: number;
  /** Checks that could not run (e.g. the pinned block is larger than the budget). */
  skipped: string[];
}

export interface CheckReport {
  /** The KB root (absolute) or a label for in-memory KBs. */
  kb: string;
  findings: Finding[];
  summary: CheckSummary;
}
