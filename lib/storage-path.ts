import { accessSync, constants, realpathSync, statfsSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

/**
 * Whether a path can hold what the app stores on disk (the trace database, the KB cache),
 * checked before anything is created there. A folder under /proc makes Node's recursive
 * mkdir spin for ever (synchronously: the process no longer hears SIGTERM), SQLite on a
 * character device fails with "disk I/O error" at the first write, and a read-only folder
 * only fails at the first turn: each is refused at start instead, by name (startup.ts).
 *
 * The answer is the rule broken, to follow the setting's name ("TRACE_DB_PATH must …"); it
 * never quotes the path (the operator knows it, and the rule for start-up errors is: the
 * setting and the rule, never the value).
 */

/** Folders of the kernel's virtual file systems; /dev/shm is a real tmpfs. */
const VIRTUAL_ROOTS = ['/proc', '/sys', '/dev'];
const REAL_UNDER_VIRTUAL = ['/dev/shm'];

/** statfs f_type of virtual file systems (linux/magic.h), for one mounted elsewhere. */
const VIRTUAL_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x1cd1, 'devpts'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0xcafe4a11, 'bpf'],
  [0x6165676c, 'pstore'],
  [0x62656570, 'configfs'],
  [0xde5e81e4, 'efivarfs'],
  [0x42494e4d, 'binfmt_misc'],
  [0x19800202, 'mqueue'],
]);

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** stat, or undefined when nothing is there; other errors (EACCES, ELOOP, ENOTDIR) throw. */
function statIfThere(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const under = (dir: string, roots: readonly string[]) => roots.some((root) => dir === root || dir.startsWith(`${root}/`));

/** Why `dir` (an existing folder, symlinks resolved) is not a real, writable folder; undefined when it is. */
function folderProblem(dir: string): string | undefined {
  if (under(dir, VIRTUAL_ROOTS) && !under(dir, REAL_UNDER_VIRTUAL)) {
    return `be on a real file system, not under ${VIRTUAL_ROOTS.find((root) => under(dir, [root]))}`;
  }
  const type = VIRTUAL_FILE_SYSTEMS.get(Number(statfsSync(dir).type));
  if (type) return `be on a real file system, not on ${type}`;
  try {
    accessSync(dir, constants.W_OK);
  } catch (error) {
    return `be in a folder the server can write to (${(error as NodeJS.ErrnoException).code})`;
  }
  return undefined;
}

/**
 * The rule `target` breaks as a place for the app's data, or undefined when it is fine:
 * `file` — a regular file (or nothing yet) the server can read and write, in a folder it can
 * write to (SQLite keeps its -wal and -shm files beside it); `folder` — a folder (or nothing
 * yet) it can write to. Missing folders are fine when the nearest existing one passes (they
 * are created on first use). Relative paths are taken from `cwd`.
 */
export function storagePathProblem(target: string, kind: 'file' | 'folder', cwd = process.cwd()): string | undefined {
  const resolved = path.resolve(cwd, target);
  try {
    const existing = statIfThere(resolved);
    if (existing && kind === 'file' && !existing.isFile()) return `be a regular file (it is ${kindOf(existing)})`;
    if (existing && kind === 'folder' && !existing.isDirectory()) return 'be a folder (it is a file)';
    if (existing && kind === 'file') {
      try {
        accessSync(resolved, constants.R_OK | constants.W_OK);
      } catch (error) {
        return `be a file the server can read and write (${(error as NodeJS.ErrnoException).code})`;
      }
    }
    let dir = kind === 'file' ? path.dirname(resolved) : resolved;
    let found = statIfThere(dir);
    while (!found) {
      dir = path.dirname(dir);
      found = statIfThere(dir);
    }
    if (!found.isDirectory()) return 'be in a folder (a part of its path is a file)';
    return folderProblem(realpathSync(dir));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOTDIR' ? 'be in a folder (a part of its path is a file)' : `be a path the server can look up (${code ?? String(error)})`;
  }
}
