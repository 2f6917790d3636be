import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { KnowledgeBaseError } from '../errors';
import { documentFormat } from './formats';
import { IDENTITY_FILE } from './identity';
import type { IgnoredFiles, RepeatedFolder, UnreadablePath } from '../types';

/**
 * Which files below a KB root are read. One walk, used by the loader and by the reload
 * poller's signature (lib/knowledge/holder.ts), so both always agree.
 *
 * - Documents: `.md`, `.markdown`, `.mdx`, `.html`, `.htm` anywhere below the root.
 * - Configuration at the root: `synonyms.json` and `assistant.md` (the identity file),
 *   never read as content; and the folder `tests/`, the KB's tests (lib/kb-test): its
 *   `.yaml` / `.yml` files are listed in `tests`, and nothing in it is ever content.
 * - Ignored, and counted: hidden files and folders (`.git`, `.vitepress`, …),
 *   `node_modules`, and every other file (images, JSON, …).
 * - Symbolic links are followed, to files and to folders, wherever they point. A folder
 *   reached a second time (a link back up the tree, or two links to one folder) is read once,
 *   at its first path in name order, and listed in `repeatedFolders`.
 * - What cannot be listed or followed (a folder without permission, a dangling link, a
 *   link loop) is listed in `unreadable`: nobody can tell whether it holds a rule, so the
 *   loader refuses the KB unless its declared rules are all found (knowledge-base.ts).
 * A KB may also be one document file; its configuration files are then beside it.
 */

export const SYNONYMS_FILE = 'synonyms.json';
const CONFIG_FILES = new Set([SYNONYMS_FILE, IDENTITY_FILE]);
/** The folder of the KB's tests, at the root (beside the document, for a one-file KB). */
export const TESTS_FOLDER = 'tests';
const TEST_FILE = /\.ya?ml$/i;

export interface KnowledgeFiles {
  /** Absolute path of the folder the KB's paths are relative to. */
  root: string;
  /** Document files relative to the root, `/`-separated, in path order. */
  documents: string[];
  /** Configuration files present at the root (relative names). */
  config: string[];
  /** The KB's test files (`.yaml`, `.yml` anywhere below `tests/`), relative to the root, in path order. */
  tests: string[];
  /** Paths below `tests/` that could not be listed or followed (they are not content: they never refuse the KB). */
  testsUnreadable: UnreadablePath[];
  ignored: IgnoredFiles;
  /** Folders that could not be listed and links that could not be followed. */
  unreadable: UnreadablePath[];
  /** Folders not read again because a link led back to one already read. */
  repeatedFolders: RepeatedFolder[];
}

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'error';

interface Walk {
  out: KnowledgeFiles;
  /** Real path of every folder read → the relative path it was read at. */
  folders: Map<string, string>;
}

/** What an entry is, links followed: a folder, a file, or why it cannot be told. */
function kindOf(dir: string, entry: Dirent): 'folder' | 'file' | 'other' | { code: string } {
  if (entry.isDirectory()) return 'folder';
  if (entry.isFile()) return 'file';
  if (!entry.isSymbolicLink()) return 'other';
  let target: Stats;
  try {
    target = statSync(path.join(dir, entry.name));
  } catch (error) {
    return { code: codeOf(error) };
  }
  return target.isDirectory() ? 'folder' : target.isFile() ? 'file' : 'other';
}

function walkFolder(dir: string, rel: string, walk: Walk): void {
  let real: string;
  let entries: Dirent[];
  try {
    real = realpathSync(dir);
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    walk.out.unreadable.push({ path: `${rel || '.'}/`, code: codeOf(error) });
    return;
  }
  const readAt = walk.folders.get(real);
  if (readAt !== undefined) {
    walk.out.repeatedFolders.push({ path: `${rel}/`, readAt: `${readAt || '.'}/` });
    return;
  }
  walk.folders.set(real, rel);
  entries.sort((a, b) => byPath(a.name, b.name));
  for (const entry of entries) walkEntry(dir, rel, entry, walk);
}

function walkEntry(dir: string, rel: string, entry: Dirent, walk: Walk): void {
  const { out } = walk;
  const name = rel ? `${rel}/${entry.name}` : entry.name;
  if (entry.name.startsWith('.')) return void out.ignored.hidden++;
  if (entry.name === 'node_modules') return void out.ignored.nodeModules++;
  const kind = kindOf(dir, entry);
  if (typeof kind === 'object') return void out.unreadable.push({ path: name, code: kind.code });
  if (kind === 'folder' && !rel && entry.name === TESTS_FOLDER) return walkTests(path.join(dir, entry.name), name, out);
  if (kind === 'folder') return walkFolder(path.join(dir, entry.name), name, walk);
  if (kind === 'file' && !rel && CONFIG_FILES.has(entry.name)) return void out.config.push(entry.name);
  if (kind === 'file' && documentFormat(entry.name)) return void out.documents.push(name);
  out.ignored.other++;
}

/** The test files below `tests/` (links followed, hidden entries skipped); everything else in it is ignored. */
function walkTests(dir: string, rel: string, out: KnowledgeFiles, seen = new Set<string>()): void {
  let entries: Dirent[];
  try {
    const real = realpathSync(dir);
    if (seen.has(real)) return;
    seen.add(real);
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    return void out.testsUnreadable.push({ path: `${rel}/`, code: codeOf(error) });
  }
  entries.sort((a, b) => byPath(a.name, b.name));
  for (const entry of entries) {
    const name = `${rel}/${entry.name}`;
    if (entry.name.startsWith('.')) {
      out.ignored.hidden++;
      continue;
    }
    const kind = kindOf(dir, entry);
    if (typeof kind === 'object') out.testsUnreadable.push({ path: name, code: kind.code });
    else if (kind === 'folder') walkTests(path.join(dir, entry.name), name, out, seen);
    else if (kind === 'file' && TEST_FILE.test(entry.name)) out.tests.push(name);
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
    const out: KnowledgeFiles = { root, documents: [path.basename(absolute)], config, tests: [], testsUnreadable: [], ignored: empty, unreadable: [], repeatedFolders: [] };
    if (statSync(path.join(root, TESTS_FOLDER), { throwIfNoEntry: false })?.isDirectory()) walkTests(path.join(root, TESTS_FOLDER), TESTS_FOLDER, out);
    out.tests.sort(byPath);
    return out;
  }
  const out: KnowledgeFiles = { root: absolute, documents: [], config: [], tests: [], testsUnreadable: [], ignored: empty, unreadable: [], repeatedFolders: [] };
  walkFolder(absolute, '', { out, folders: new Map() });
  out.documents.sort(byPath);
  out.tests.sort(byPath);
  return out;
}
