import type { RetrievalConfig } from './config';

/** One unit of knowledge: a heading and the body under it, up to the next heading of level 1–3. */
export interface Section {
  /**
   * Stable id, unique in the KB (see ids.ts): `<path relative to the KB root>#<slug of the
   * heading>`, qualified by the parents' slugs (`faq.md#usage/example`) when two headings of
   * one file share a slug; a part of a split section adds `~<part number>`.
   */
  id: string;
  /** The heading text exactly as written. */
  title: string;
  /** Titles of the enclosing headings, outermost first (["Billing FAQ"] for a `###` under `# Billing FAQ`). */
  parents: string[];
  /** Path of the file relative to the KB root, with `/` separators. */
  source: string;
  /** 1-based line of the heading in its file. */
  line: number;
  /** The markdown body under the heading (the pin marker removed), trimmed. */
  text: string;
  /** o200k_base tokens of this section's block in the context text (see `renderSectionBlock`). */
  tokens: number;
  /** Position in file order across the whole KB (front matter `order` first, then by path; then position in file). */
  order: number;
  /** Always sent, never scored (front matter `pinned: true`, or `<!-- pinned -->` under the heading). */
  pinned: boolean;
  /** Set on the parts of a section too long to send whole (split.ts). */
  part?: SectionPart;
  /**
   * The language it is written in (a primary subtag: "de"), which decides its analyzer: front
   * matter `lang:`, else the KB's `language:` (identity file). Absent: English.
   */
  language?: string;
}

/** Where a part sits in the section it was split from. */
export interface SectionPart {
  /** 1-based. */
  index: number;
  count: number;
  /** The id of the whole section (each part's id is `${sectionId}~${index}`). */
  sectionId: string;
}

/** Something the loader read as structure, skipped, or could not use; kb:check and /debug list them. */
export interface LoadNotice {
  kind: 'container' | 'empty-heading' | 'untitled-heading' | 'no-content' | 'duplicate-heading';
  file: string;
  line: number;
  message: string;
}

/** A document file (or a folder, or a link) that could not be used and was left out of the KB (never a pinned one: those refuse the KB). */
export interface SkippedFile {
  file: string;
  line?: number;
  reason: string;
  /** `file:line: reason`, as logged. */
  message: string;
  /** Its content could not be read at all (permissions, a dangling link): it may have held a rule (declared-rules.ts). */
  unread?: true;
}

/** Files below the KB root that are not read, by why. */
export interface IgnoredFiles {
  /** Hidden files and folders (name starting with `.`), counted as entries, not their contents. */
  hidden: number;
  /** `node_modules` folders. */
  nodeModules: number;
  /** Files that are not documents (images, JSON other than synonyms.json, …). */
  other: number;
}

/** A synonym group as written, and the analyzed terms of each entry. */
export interface SynonymGroup {
  /** The entries as written in the synonyms file. */
  words: string[];
  /** The analyzed terms of each entry (a phrase entry has several terms). */
  terms: string[][];
  /** The language of the group (synonyms.json `languages`); absent: the KB's default language. */
  language?: string;
}

export interface KnowledgeBase {
  /** Absolute path of the KB root folder. */
  root: string;
  /** The document files read, relative to the root, in path order (skipped files not included). */
  files: string[];
  /** Front matter `url` of the files that give one (path → URL); see pages.ts. */
  pageUrls: Record<string, string>;
  /** Broken unpinned files left out (the rest of the KB serves). */
  skipped: SkippedFile[];
  ignored: IgnoredFiles;
  /** Containers, empty headings, colliding headings, empty files. */
  notices: LoadNotice[];
  /** Files whose sections came from the parse cache (unchanged since it was filled), not the parser. */
  cachedFiles: number;
  /** How the other files were parsed: how many, on how many workers (kb/load.ts). */
  parsing: ParseReport;
  /** All sections in file order; `sections[i].order === i`. */
  sections: Section[];
  /** The KB's default language (identity file `language:`, default "en"): a section's unless its file says otherwise. */
  language: string;
  synonyms: SynonymGroup[];
  /** The synonyms file relative to the root, when there is one. */
  synonymsFile?: string;
  /** Who the assistant is (the KB's assistant.md, or neutral defaults without one). */
  identity: AssistantIdentity;
  /** Folders not read again because a link led back to one already read (files.ts). */
  repeatedFolders: RepeatedFolder[];
  /**
   * Why the server would refuse this KB (declared rules missing, an unread path that may hold
   * one: declared-rules.ts). Only set by a load with `missingRules: 'report'` (kb:check,
   * kb:impact); any other load throws it as a KnowledgeBaseError instead.
   */
  refusal?: RulesRefusal;
}

/** A path below the root that could not be listed (a folder) or followed (a link). */
export interface UnreadablePath {
  /** Relative to the root, `/`-separated; a folder ends with `/`. */
  path: string;
  /** The error code: EACCES, ENOENT (a dangling link), ELOOP, … */
  code: string;
}

/** A folder reached again through a link, and where it was read. */
export interface RepeatedFolder {
  path: string;
  /** The path it was read at. */
  readAt: string;
}

/** The rules a KB declares in its identity file (front matter `rules:`), and the line they are declared at. */
export interface DeclaredRules {
  count?: number;
  required: string[];
  /** The identity file and the line of its `rules:` field. */
  file: string;
  line: number;
}

export interface AssistantIdentity {
  company?: string;
  assistant: string;
  about?: string;
  website?: string;
  handoff?: string;
  /** When a person answers a hand-off from the chat's form ("within one business day"). */
  handoffReplyTime?: string;
  /** The KB's own ways of asking for a person, by language code (lib/handoff/phrases.ts). */
  handoffPhrases: Record<string, string[]>;
  /** Front matter `docs_url`: the base URL of the KB's pages. */
  docsUrl?: string;
  /** The KB's default language (front matter `language:`, default "en"). */
  language: string;
  /** The widget's text in the default language. */
  widget: WidgetText;
  /** The offline model's phrases in the default language. */
  offline: OfflineText;
  /** The widget's and the offline model's text in other languages (front matter `translations:`), each string falling back to the default language's, then English. */
  translations: Record<string, IdentityTexts>;
  /** How the chat looks and where it sits (front matter `widget.color`, `position`, `theme`): the same in every language. */
  look: WidgetLook;
  /** The file's markdown body: appended to the assistant's instructions. */
  instructions?: string;
  /** The pinned sections the KB declares it must have; undefined when it declares none. */
  rules?: DeclaredRules;
  /** The file it came from (relative to the KB root), or undefined for the defaults. */
  file?: string;
}

/** What the chat widget shows: its title, its greeting, the suggested questions, and its fixed strings (identity.ts WIDGET_LABELS). */
export interface WidgetText {
  title: string;
  greeting: string;
  suggestions: string[];
  labels: Record<
    | 'placeholder' | 'send' | 'input_label' | 'hint' | 'subtitle' | 'subtitle_offline' | 'offline_note' | 'new_chat' | 'new_chat_title' | 'close'
    | 'label' | 'launcher_close' | 'loading' | 'writing' | 'suggestions_label' | 'retry' | 'start_over' | 'error' | 'network_error'
    | 'handoff_open' | 'handoff_offer_asked' | 'handoff_offer_thin' | 'handoff_offer_down_vote' | 'handoff_statement' | 'handoff_statement_note'
    | 'handoff_soon' | 'handoff_email_label' | 'handoff_note_label' | 'handoff_note_required_label' | 'handoff_email_error' | 'handoff_note_error'
    | 'handoff_send' | 'handoff_sending' | 'handoff_cancel' | 'handoff_error' | 'handoff_sent_title' | 'handoff_sent' | 'handoff_contact'
    | 'handoff_contact_none' | 'handoff_close',
    string
  >;
}

/** The offline model's fixed phrases (identity.ts OFFLINE_PHRASES). */
export type OfflineText = Record<'notice' | 'from' | 'related' | 'no_match' | 'topics' | 'ask_topic' | 'rephrase' | 'person', string>;

/** The text of one language: the widget's and the offline model's. */
export interface IdentityTexts {
  widget: WidgetText;
  offline: OfflineText;
}

/** The widget's look and placement, on this app's pages and in the embed. */
export interface WidgetLook {
  /** The primary colour (`#rrggbb`), white text on it at WCAG AA; undefined: the app's own blue. */
  color?: string;
  /** Where the launcher sits. */
  position: 'bottom-right' | 'bottom-left';
  /** Light, dark, or following the customer's system setting (prefers-color-scheme). */
  theme: 'light' | 'dark' | 'auto';
}

/** Why a load must not be served without its rules, or undefined when it may be served. */
export interface RulesRefusal {
  file: string;
  line?: number;
  reason: string;
}

export interface WeightedTerm {
  term: string;
  weight: number;
  /**
   * Terms with the same clause number are scored as one pseudo-term (a synonym group; see
   * the module comment): the clause's weight is its members' largest, each member's tf̃
   * counts weight ÷ that. Absent: the term is a clause of its own.
   */
  clause?: number;
}

/** One clause's part in a document's score, with the numbers that produced it. */
export interface TermExplanation {
  /** The clause's first term (for a synonym group: the word that triggered it, or its first synonym). */
  term: string;
  /** The clause's weight. */
  weight: number;
  /** Occurrences in the document, summed over the clause's terms and the fields (each counting its entry weight). */
  tf: number;
  /** tf̃: the normalised, field-weighted frequency the score saturates (see the module comment). */
  normalisedTf: number;
  idf: number;
  /** weight · bm25Saturation(idf, tf̃, k1): this clause's share of the section's score. */
  score: number;
  /** For a synonym group: each of its terms found in the document, with its occurrences and share. */
  group?: { term: string; tf: number; share: number }[];
}

/** Where a query term came from (build-query.ts). */
export type QueryTermSource = 'question' | 'previous' | 'synonym' | 'typo' | 'variant';

export interface QueryTerm extends WeightedTerm {
  source: QueryTermSource;
  /** For a synonym: the synonyms-file entry that added it; for a typo correction or a variant: the word the customer typed. */
  from?: string;
}

/** How a turn's language was found (detect-language.ts). */
export type LanguageSource = 'single' | 'detected' | 'conversation' | 'widget' | 'accept-language' | 'kb-default';

/** The languages of one query: the customer's, the one it was analysed in, and which sections were scored. */
export interface QueryLanguage {
  /** The customer's language as this turn took it: the reply is asked to be in it. */
  customer: string;
  source: LanguageSource;
  /** The language the query was analysed in: the customer's when the KB has sections in it, else the KB's default. */
  analysed: string;
  /**
   * `language`: only the sections in `analysed` were ranked (some of them matched); `kb`: the
   * whole KB (the KB has one language, or none of that language's sections matched).
   */
  scope: 'language' | 'kb';
  /** Matched sections in other languages left out of the ranking by the `language` scope. */
  setAside: number;
}

export interface Query {
  /** The languages of this query (absent in traces written before languages). */
  language?: QueryLanguage;
  /** The latest customer message. */
  question: string;
  /** The customer message before it, if any. */
  previous?: string;
  /** Analyzed terms of the latest message, in order, with repeats. */
  questionTerms: string[];
  /** Analyzed terms of the previous message. */
  previousTerms: string[];
  /** Distinct terms to score with, typed words first, then synonyms. */
  terms: QueryTerm[];
}

/** The stage as the explanation reports it. */
export type SemanticStage =
  | {
      status: 'fused';
      model: string;
      rrfK: number;
      topK: number;
      minSimilarity: number;
      /** Sections in the semantic list. */
      listed: number;
      /** Pool sections without an embedding: ranked by BM25 alone. */
      unembedded: number;
      /** Time to embed the query, ms. */
      ms: number;
    }
  | { status: 'fallback'; model: string; reason: string; ms?: number }
  /** BM25 was confident enough (`confidence` ≥ `fuseBelow`): its ranking alone, no query embedding. */
  | { status: 'skipped'; model: string; confidence: number; fuseBelow: number };

/** A section's place in each ranking, on its verdict when the stage fused them (`rank` is then the fused rank). */
export interface FusionRanks {
  /** 1-based rank in BM25's list; absent: no lexical match. */
  lexicalRank?: number;
  /** 1-based rank in the semantic list; absent: not among the top K at or above the minimum similarity. */
  semanticRank?: number;
  /** Cosine similarity to the query; absent: the section has no embedding. */
  similarity?: number;
}

/** Why a section was sent or not, in one selection. */
export type Reason = 'pinned' | 'scored' | 'floor' | 'no-match' | 'over-budget';

/** One section's verdict for one question. */
export interface SectionVerdict {
  id: string;
  title: string;
  /** "Parent › Title" as in the context text. */
  path: string;
  source: string;
  pinned: boolean;
  /** BM25 score (0 for pinned and unmatched sections). */
  score: number;
  /** 1-based rank among matched sections (the fused rank when the semantic stage fused); absent for pinned and unmatched ones. */
  rank?: number;
  tokens: number;
  sent: boolean;
  reason: Reason;
  /** For matched sections: each query term's share of the score (they sum to `score`). */
  matches?: TermExplanation[];
  /** For a part of a split section: which part, of how many, of which section. */
  part?: SectionPart;
  /** When the semantic stage fused the rankings (matched sections only): BM25 rank, semantic rank and similarity. */
  fusion?: FusionRanks;
}

export interface TokenSplit {
  pinned: number;
  scored: number;
  floor: number;
  total: number;
}

export interface Explanation {
  query: Query;
  /** Knowledge budget in tokens (o200k_base). */
  budget: number;
  /** The settings this selection ran with. */
  config: RetrievalConfig;
  tokens: TokenSplit;
  /** True when the floor added sections. */
  floorUsed: boolean;
  /** Counts over the whole KB (the `sections` list may be cut at `explainLimit`). */
  counts: {
    sections: number;
    pinned: number;
    matched: number;
    scored: number;
    floor: number;
    overBudget: number;
    noMatch: number;
  };
  /** Highest score of any section (0 when nothing matched). */
  topScore: number;
  /**
   * Sections in rank order: pinned (file order), matched by score (sent or over budget),
   * then unmatched (floor first, then no-match, in file order).
   */
  sections: SectionVerdict[];
  /** How many unsent sections were left out of `sections` by `explainLimit`. */
  omitted: number;
  /** Ids in the order their blocks appear in `context`. */
  sentIds: string[];
  /** The exact knowledge text sent to the model (see context.ts for the format). */
  context: string;
  /** Length of the pinned block at the start of `context` (`context.slice(0, pinnedChars)`). */
  pinnedChars: number;
  /** The semantic stage, when it was on for this turn: fused (with its settings), or why the turn ran on BM25 alone. */
  semantic?: SemanticStage;
}

/** What one parse worker did in a load (kb/parse-pool.ts): for the benchmark's per-worker figures. */
export interface WorkerFigures {
  files: number;
  bytes: number;
  /** Time spent parsing, as the worker measured it. */
  busyMs: number;
  /** The longest single file (no number of workers makes the parse shorter than that). */
  longestMs: number;
  /** From spawning the worker to its parsers loaded (its start-up). */
  startMs: number | undefined;
}

/** How the files of one load were parsed (kb/load.ts). */
export interface ParseReport {
  /** Files parsed by this load (the others came from the parse cache or were skipped unread). */
  parsedFiles: number;
  /** Parse workers used; 0: the loading thread parsed. */
  workers: number;
  figures: WorkerFigures[];
  /** Why some files were parsed on the loading thread after all (a worker could not start or died). */
  fallback?: string;
}
