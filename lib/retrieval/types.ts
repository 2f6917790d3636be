import type { RulesRefusal } from './declared-rules';
import type { RepeatedFolder } from './files';
import type { AssistantIdentity } from './identity';

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
  /** All sections in file order; `sections[i].order === i`. */
  sections: Section[];
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
