import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { SYNONYMS_FILE } from '../retrieval/index';
import { loadKnowledge, type Knowledge, type KnowledgeSettings } from './load';

/**
 * The knowledge base in service, and its reloading while the app runs.
 *
 * How edits are noticed: by polling, not fs.watch. Every `intervalMs` the holder takes a
 * signature of the KB's files (path, size and mtime of every markdown file the loader
 * would read, and of synonyms.json): a few `stat` calls, about a millisecond for the demo
 * KB. Polling works the same on every file system (fs.watch misses events on network
 * and container mounts, and editors that save by renaming) and costs nothing per request.
 *
 * When a reload happens: once a changed signature has stayed the same for one interval,
 * so an editor saving several files, or a `git pull`, is loaded once, complete.
 *
 * What a broken edit does: nothing to the service. The last good KB stays in use, and one
 * log line says why the edit was refused (`file:line: reason`) and which version is still
 * served. A KB that was broken at start-up is never served in part: the chat answers 503
 * with the error until the files are fixed, and the fix is picked up by the same polling.
 */

export interface KnowledgeLog {
  info(message: string): void;
  error(message: string): void;
}

export interface KnowledgeHolderOptions {
  settings: KnowledgeSettings;
  cwd?: string;
  log?: KnowledgeLog;
}

/** What one check found. */
export type CheckResult = 'unchanged' | 'changing' | 'reloaded' | 'refused';

/** The chat cannot use the KB: it has never loaded. `cause` is the loader's error. */
export class KnowledgeUnavailableError extends Error {
  override readonly name = 'KnowledgeUnavailableError';
}

const MARKDOWN = /\.(md|markdown)$/i;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A fingerprint of the files the loader reads: the same folder walk (hidden entries and
 * node_modules skipped), each file's size and mtime. Unreadable paths become part of the
 * signature too, so fixing them counts as a change.
 */
export function kbSignature(kbPath: string): string {
  const parts: string[] = [];
  const stamp = (file: string, label: string) => {
    try {
      const s = statSync(file);
      parts.push(`${label}\t${s.size}\t${s.mtimeMs}\t${s.ino}`);
    } catch (error) {
      parts.push(`${label}\t${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  };
  const walk = (dir: string, rel: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      parts.push(`${rel}/\t${(error as NodeJS.ErrnoException).code ?? 'error'}`);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      const label = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(full, label);
      else if (MARKDOWN.test(entry.name) || (!rel && entry.name === SYNONYMS_FILE)) stamp(full, label);
    }
  };
  let stats;
  try {
    stats = statSync(kbPath);
  } catch (error) {
    return `missing\t${(error as NodeJS.ErrnoException).code ?? 'error'}`;
  }
  if (stats.isDirectory()) walk(kbPath, '');
  else {
    stamp(kbPath, path.basename(kbPath));
    stamp(path.join(path.dirname(kbPath), SYNONYMS_FILE), SYNONYMS_FILE);
  }
  return parts.join('\n');
}

export class KnowledgeHolder {
  private current: Knowledge | undefined;
  private lastError: unknown;
  /** Signature of the files behind `current` (or behind the refused attempt). */
  private settled: string;
  /** A changed signature seen at the last check, not yet stable. */
  private changing: string | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly kbPath: string;
  private readonly log: KnowledgeLog;

  constructor(private readonly options: KnowledgeHolderOptions) {
    this.kbPath = path.resolve(options.cwd ?? process.cwd(), options.settings.KB_PATH);
    this.log = options.log ?? { info: (m) => console.info(m), error: (m) => console.error(m) };
    this.settled = kbSignature(this.kbPath);
    try {
      this.current = this.load();
      this.log.info(
        `[knowledge] loaded ${this.current.index.sections.length} sections from ${this.current.files.length} files ` +
          `(${this.current.path}) in ${Math.round(this.current.loadMs)} ms`,
      );
    } catch (error) {
      this.lastError = error;
      this.log.error(`[knowledge] THE KNOWLEDGE BASE COULD NOT BE LOADED: ${message(error)}`);
      this.log.error('[knowledge] the chat answers 503 until this is fixed; the files are checked again when they change');
    }
  }

  private load(): Knowledge {
    return loadKnowledge(this.options.settings, this.options.cwd);
  }

  /** True when a KB is in service. */
  get ready(): boolean {
    return this.current !== undefined;
  }

  /** The KB in service; throws KnowledgeUnavailableError (with the loader's message) if none ever loaded. */
  get(): Knowledge {
    if (this.current) return this.current;
    throw new KnowledgeUnavailableError(message(this.lastError), { cause: this.lastError });
  }

  /** One polling step: compares the files with the KB in service and reloads when they settled. */
  check(): CheckResult {
    const signature = kbSignature(this.kbPath);
    if (signature === this.settled) {
      this.changing = undefined;
      return 'unchanged';
    }
    if (signature !== this.changing) {
      this.changing = signature;
      return 'changing';
    }
    this.changing = undefined;
    this.settled = signature;
    try {
      const next = this.load();
      const first = !this.current;
      this.current = next;
      this.lastError = undefined;
      this.log.info(
        `[knowledge] ${first ? 'loaded the fixed knowledge base' : 'reloaded after an edit'}: ${next.index.sections.length} sections ` +
          `from ${next.files.length} files in ${Math.round(next.loadMs)} ms`,
      );
      return 'reloaded';
    } catch (error) {
      if (this.current) {
        this.log.error(
          `[knowledge] the edited knowledge base was NOT loaded: ${message(error)}. Still serving the version loaded at ` +
            `${this.current.loadedAt.toISOString()} (${this.current.index.sections.length} sections).`,
        );
      } else {
        this.lastError = error;
        this.log.error(`[knowledge] THE KNOWLEDGE BASE STILL COULD NOT BE LOADED: ${message(error)}`);
      }
      return 'refused';
    }
  }

  /** Checks every `intervalMs` (0: never). The timer does not keep the process alive. */
  watch(intervalMs: number): void {
    if (this.timer || intervalMs <= 0) return;
    this.timer = setInterval(() => {
      try {
        this.check();
      } catch (error) {
        this.log.error(`[knowledge] checking the knowledge base for changes failed: ${message(error)}`);
      }
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
