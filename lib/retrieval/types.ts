/** One unit of knowledge: a heading and the body under it, up to the next heading of level 1–3. */
export interface Section {
  /** Stable id: `<path relative to the KB root>#<slug of the heading>`, unique in the KB. */
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
  /** The markdown files read, relative to the root, in path order. */
  files: string[];
  /** All sections in file order; `sections[i].order === i`. */
  sections: Section[];
  synonyms: SynonymGroup[];
  /** The synonyms file relative to the root, when there is one. */
  synonymsFile?: string;
}
