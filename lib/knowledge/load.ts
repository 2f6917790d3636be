import path from 'node:path';
import { createRetrievalIndex, loadKnowledgeBase, type RetrievalIndex } from '../retrieval/index';

/** The knowledge base as the chat uses it: the selector's index and where it came from. */
export interface Knowledge {
  /** Absolute path of the KB folder or file. */
  path: string;
  index: RetrievalIndex;
  /** Files read, relative to the KB root. */
  files: readonly string[];
  loadedAt: Date;
  /** How long loading, tokenizing and indexing took. */
  loadMs: number;
}

export interface KnowledgeSettings {
  KB_PATH: string;
  KB_BUDGET?: number;
  KB_FLOOR?: number;
}

/**
 * Loads and indexes the knowledge base. All or nothing: a file that cannot be used
 * throws the selector's KnowledgeBaseError (message `file:line: reason`), a budget the
 * pinned block does not fit in throws RetrievalConfigError. Nothing is ever half-loaded.
 */
export function loadKnowledge(settings: KnowledgeSettings, cwd = process.cwd()): Knowledge {
  const started = performance.now();
  const kbPath = path.resolve(cwd, settings.KB_PATH);
  const kb = loadKnowledgeBase(kbPath);
  const index = createRetrievalIndex(kb, { budget: settings.KB_BUDGET, floor: settings.KB_FLOOR });
  return { path: kbPath, index, files: kb.files, loadedAt: new Date(), loadMs: performance.now() - started };
}
