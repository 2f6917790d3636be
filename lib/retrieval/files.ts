import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { KnowledgeBaseError } from './errors';
import { documentFormat } from './formats';
import { IDENTITY_FILE } from './identity';
import type { IgnoredFiles } from './types';

/**
 * Which files below a KB root are read. One walk, used by the loader and by the reload
 * poller's signature (lib/knowledge/holder.ts), so both always agree.
 *
 * - Documents: `.md`, `.markdown`, `.mdx`, `.html`, `.htm` anywhere below the root.
 * - Configuration at the root: `synonyms.json` and `assistant.md` (the identity file),
 *   never read as content.
 * - Ignored, and counted: hidden files and folders (`.git`, `.vitepress`, …),
 *   `node_modules`, and every other file (images, JSON, …).
 * A KB may also be one document file; its configuration files are then beside it.
 */

export const SYNONYMS_FILE = 'synonyms.json';
const CONFIG_FILES = new Set([SYNONYMS_FILE, IDENTITY_FILE]);

export interface KnowledgeFiles {
  /** Absolute path of the folder the KB's paths are relative to. */
  root: string;
  /** Document files relative to the root, `/`-separated, in path order. */
  documents: string[];
  /** Configuration files present at the root (relative names). */
  config: string[];
  ignored: IgnoredFiles;
  /** Folders that could not be listed, relative to the root, with the error code. */
  unreadable: { folder: string; code: string }[];
}

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function walk(dir: string, rel: string, out: KnowledgeFiles): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    out.unreadable.push({ folder: rel || '.', code: (error as NodeJS.ErrnoException).code ?? 'error' });
    return;
  }
  for (const entry of entries) {
    const name = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.name.startsWith('.')) out.ignored.hidden++;
    else if (entry.name === 'node_modules') out.ignored.nodeModules++;
    else if (entry.isDirectory()) walk(path.join(dir, entry.name), name, out);
    else if (!rel && CONFIG_FILES.has(entry.name)) out.config.push(entry.name);
    else if (entry.isFile() && documentFormat(entry.name)) out.documents.push(name);
    else out.ignored.other++;
  }
}

/** Lists the KB's files; throws KnowledgeBaseError when the path is missing or is a file that is not a document. */
export function listKnowledgeFiles(kbPath: string): KnowledgeFiles {
  const absolute = path.resolve(kbPath);
  let stats;
  try {
    stats = statSync(absolute);
  } catch {
    throw new KnowledgeBaseError('no such file or folder', kbPath);
  }
  const empty = { hidden: 0, nodeModules: 0, other: 0 };
  if (!stats.isDirectory()) {
    if (!documentFormat(absolute)) throw new KnowledgeBaseError('not a document (.md, .markdown, .mdx, .html, .htm)', kbPath);
    const root = path.dirname(absolute);
    const config = [...CONFIG_FILES].filter((f) => statSync(path.join(root, f), { throwIfNoEntry: false })?.isFile());
    return { root, documents: [path.basename(absolute)], config, ignored: empty, unreadable: [] };
  }
  const out: KnowledgeFiles = { root: absolute, documents: [], config: [], ignored: empty, unreadable: [] };
  walk(absolute, '', out);
  out.documents.sort(byPath);
  return out;
}
