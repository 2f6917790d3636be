import { statSync } from 'node:fs';
import path from 'node:path';
import { errorText } from '../errors';
import { consoleLog, type Log } from '../log';
import { listKnowledgeFiles, missingRules, PartsCache, TokenCounter, type BuiltDocument, type LoadProgress } from '../retrieval/index';
import { readKbCache, writeKbCache } from './disk-cache';
import type { SectionEmbedder } from './embeddings';
import { loadKnowledge, loadKnowledgeAsync, type Knowledge, type KnowledgeConfig } from './load';

/**
 * The knowledge base in service, and its reloading while the app runs.
 *
 * How edits are noticed: by polling, not fs.watch. Every `intervalMs` the holder takes a
 * signature of the KB's files (path, size and mtime of every document the loader would
 * read, and of synonyms.json, assistant.md and the KB's tests in tests/): a few `stat` calls, about a millisecond
 * for the demo KB. Polling works the same on every file system (fs.watch misses events on network
 * and container mounts, and editors that save by renaming) and costs nothing per request.
 *
 * When a reload happens: once a changed signature has stayed the same for one interval,
 * so an editor saving several files, or a `git pull`, is loaded once, complete.
 *
 * What a broken file does: a broken unpinned file is skipped and logged (`file:line:
 * reason`), and the rest is served. An edit that would serve the KB without its rules (a
 * broken pinned file, a pinned block over the budget, a missing folder) changes nothing:
 * the last good KB stays in use, and one log line says why the edit was refused and which
 * version is still served. A KB like that at start-up is not served at all: the chat
 * answers 503 with the error until the files are fixed, picked up by the same polling.
 */

export interface KnowledgeHolderOptions {
  /** The KB folder or file, absolute (lib/server/paths.ts). */
  kbPath: string;
  /** The selector settings it is indexed with (KB_BUDGET, KB_FLOOR). */
  config?: KnowledgeConfig;
  log?: Log;
  /** The parsed KB kept between processes (disk-cache.ts), absolute; none when absent. */
  cacheFile?: string;
  /** The semantic stage's section embeddings (embeddings.ts), attached to every load before it is served; none when the stage is off. */
  embedder?: SectionEmbedder;
  /**
   * The first load runs after the constructor returns, on the parse workers, with the event
   * loop free (the server: /api/health says `loading` with its progress meanwhile, and a chat
   * waits for it: `whenReady`). Default: the constructor loads on this thread (tools, tests).
   */
  loadInBackground?: boolean;
}

/** Told after an edited KB replaced the one in service (what changed: lib/kb-impact/reload-impact.ts). */
export type ReloadListener = (previous: Knowledge, next: Knowledge) => void;

/** What one check found. */
export type CheckResult = 'unchanged' | 'changing' | 'reloaded' | 'refused';

/**
 * Whether the KB in service is the whole KB on disk (/api/health): `loading` while the first
 * load runs in the background (files done of all); `ready`; `degraded` when it serves but
 * something on disk is not served (an edit refused, files skipped, declared rules missing),
 * each with its reason; `unavailable` when no KB is in service.
 */
export type KnowledgeHealth =
  | { status: 'loading'; progress: LoadProgress }
  | { status: 'ready' }
  | { status: 'degraded'; reasons: string[] }
  | { status: 'unavailable'; reason: string };

/**
 * How long a chat that arrives while the first load runs waits for it before it is answered
 * 503: longer than the largest KB measured takes to load (bench:load), shorter than a
 * customer waits for a reply before giving up.
 */
export const FIRST_LOAD_WAIT_MS = 30_000;

/** The chat cannot use the KB: it has never loaded (or is still loading). `cause` is the loader's error. */
export class KnowledgeUnavailableError extends Error {
  override readonly name = 'KnowledgeUnavailableError';
}

/**
 * A fingerprint of the files the loader reads: the same walk (files.ts), each file's size,
 * mtime and inode. Unreadable paths become part of the signature too, so fixing them
 * counts as a change.
 */
export function kbSignature(kbPath: string): string {
  let listing;
  try {
    listing = listKnowledgeFiles(kbPath);
  } catch (error) {
    return `missing\t${errorText(error)}`;
  }
  const stamp = (file: string) => {
    try {
      const s = statSync(path.join(listing.root, file));
      return `${file}\t${s.size}\t${s.mtimeMs}\t${s.ino}`;
    } catch (error) {
      return `${file}\t${(error as NodeJS.ErrnoException).code ?? 'error'}`;
    }
  };
  return [
    ...listing.documents.map(stamp),
    ...listing.config.map(stamp),
    ...listing.tests.map(stamp),
    ...[...listing.unreadable, ...listing.testsUnreadable].map((u) => `${u.path}\t${u.code}`),
  ].join('\n');
}

/** "; pinned sections: 13 → 12" when a reload changed how many are pinned (a rule removed on purpose shows in the log too). */
function pinnedChange(previous: Knowledge | undefined, next: Knowledge): string {
  const before = previous?.index.pinned.length;
  const after = next.index.pinned.length;
  return before === undefined || before === after ? '' : `; pinned sections: ${before} → ${after}`;
}

export class KnowledgeHolder {
  private current: Knowledge | undefined;
  private lastError: unknown;
  /** The last edit refused while a KB was in service (cleared by the next load). */
  private refusedEdit: { message: string; at: Date } | undefined;
  /** Signature of the files behind `current` (or behind the refused attempt). */
  private settled: string;
  /** A changed signature seen at the last check, not yet stable. */
  private changing: string | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private checking = false;
  private readonly kbPath: string;
  private readonly log: Log;
  /** Token counts by content hash, kept across reloads: a reload tokenizes only what changed. */
  private readonly tokens: TokenCounter;
  /** Parsed documents of the last load, by path and content hash: a reload parses only changed files. */
  private readonly documents: Map<string, BuiltDocument>;
  /** The parts long sections were split into, by block and part size: a reload splits only changed sections. */
  private readonly parts: PartsCache;
  private readonly cacheFile: string | undefined;
  private readonly config: KnowledgeConfig;
  private readonly reloadListeners: ReloadListener[] = [];

  /** The first load while it runs in the background: its progress, and its end. */
  private firstLoad: { progress: LoadProgress; done: Promise<void> } | undefined;
  /** Whether the parsed KB came from the disk cache (for the first load's log line). */
  private readonly fromDiskCache: boolean;

  constructor(private readonly options: KnowledgeHolderOptions) {
    this.kbPath = options.kbPath;
    this.config = options.config ?? {};
    this.log = options.log ?? consoleLog;
    this.settled = kbSignature(this.kbPath);
    this.cacheFile = options.cacheFile;
    const cached = this.cacheFile ? readKbCache(this.cacheFile) : undefined;
    this.fromDiskCache = cached !== undefined;
    this.tokens = cached?.tokens ?? new TokenCounter();
    this.documents = cached?.documents ?? new Map();
    this.parts = cached?.parts ?? new PartsCache();
    if (options.loadInBackground) {
      const progress = { done: 0, total: 0 };
      this.firstLoad = { progress, done: this.loadFirstInBackground(progress) };
      return;
    }
    try {
      this.served(loadKnowledge(this.kbPath, this.config, { tokens: this.tokens, documents: this.documents, parts: this.parts }));
    } catch (error) {
      this.notServed(error);
    }
  }

  private async loadFirstInBackground(progress: LoadProgress): Promise<void> {
    try {
      const onProgress = (p: LoadProgress) => Object.assign(progress, p);
      this.served(await loadKnowledgeAsync(this.kbPath, this.config, { tokens: this.tokens, documents: this.documents, parts: this.parts, onProgress }));
    } catch (error) {
      this.notServed(error);
    } finally {
      this.firstLoad = undefined;
    }
  }

  /** The first load, in service: logged, and cached for the next process. */
  private served(knowledge: Knowledge): void {
    this.current = this.withEmbeddings(knowledge);
    const reused = this.fromDiskCache ? `, ${knowledge.kb.cachedFiles} of ${knowledge.files.length} files from the cache` : '';
    const { parsing } = knowledge.kb;
    const started = Math.max(...parsing.figures.map((w) => w.startMs ?? 0));
    const workers = parsing.workers ? `, ${parsing.parsedFiles} parsed on ${parsing.workers} worker thread${parsing.workers === 1 ? '' : 's'} (started in ${Math.round(started)} ms)` : '';
    this.log.info(`[knowledge] loaded ${knowledge.path}: ${knowledge.summary}${reused}${workers}`);
    this.logProblems(knowledge);
    this.saveCache();
  }

  private notServed(error: unknown): void {
    this.lastError = error;
    this.log.error(`[knowledge] THE KNOWLEDGE BASE COULD NOT BE LOADED: ${errorText(error)}`);
    this.log.error('[knowledge] the chat answers 503 until this is fixed; the files are checked again when they change');
  }

  /** Resolves once the first load has ended, served or refused (at once when the constructor loaded). */
  get loaded(): Promise<void> {
    return this.firstLoad?.done ?? Promise.resolve();
  }

  /**
   * The KB in service, once the first load has ended (waiting at most `waitMs` for it while it
   * runs in the background); throws KnowledgeUnavailableError as `get` does.
   */
  async whenReady(waitMs = FIRST_LOAD_WAIT_MS): Promise<Knowledge> {
    const loading = this.firstLoad;
    if (loading && waitMs > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
      await Promise.race([loading.done, timeout]).finally(() => clearTimeout(timer));
    }
    return this.get();
  }

  /** Subscribes to reloads: `listener` is told after every edited KB that replaced the one in service (not the first load, not a refused edit). */
  onReload(listener: ReloadListener): void {
    this.reloadListeners.push(listener);
  }

  /** Tells the reload listeners; a failing listener is only logged (the reload stands). */
  private notifyReload(previous: Knowledge, next: Knowledge): void {
    for (const listener of this.reloadListeners) {
      try {
        listener(previous, next);
      } catch (error) {
        this.log.error(`[knowledge] after the reload: ${errorText(error)}`);
      }
    }
  }

  /** The load with its section embeddings attached (cached ones at once, the rest in the background), when the stage is on. */
  private withEmbeddings(knowledge: Knowledge): Knowledge {
    if (this.options.embedder) knowledge.embeddings = this.options.embedder.attach(knowledge.index);
    return knowledge;
  }

  /** Writes the caches for the next process; a cache that cannot be written is only logged. */
  private saveCache(): void {
    if (!this.cacheFile) return;
    try {
      writeKbCache(this.cacheFile, { tokens: this.tokens, documents: this.documents, parts: this.parts });
    } catch (error) {
      this.log.error(`[knowledge] the parsed KB could not be cached in ${this.cacheFile}: ${errorText(error)} (it is parsed again at the next start)`);
    }
  }

  /** What went wrong in the load just served: the parse workers, if they could not be used; one line per broken unpinned file left out. */
  private logProblems(knowledge: Knowledge): void {
    if (knowledge.kb.parsing.fallback) this.log.error(`[knowledge] the parse workers could not be used: ${knowledge.kb.parsing.fallback}`);
    for (const skipped of knowledge.kb.skipped) {
      this.log.error(`[knowledge] skipped ${skipped.message} (the rest of the knowledge base is served)`);
    }
  }

  /** Files with pinned sections in the KB in service: a broken edit of one of them is refused, not skipped. */
  private pinnedFiles(): Set<string> {
    return new Set(this.current?.index.pinned.map((s) => s.source) ?? []);
  }

  /** True when a KB is in service. */
  get ready(): boolean {
    return this.current !== undefined;
  }

  /** Is what is served the whole KB on disk, with its rules? (see KnowledgeHealth) */
  health(): KnowledgeHealth {
    if (this.firstLoad) return { status: 'loading', progress: { ...this.firstLoad.progress } };
    const current = this.current;
    if (!current) return { status: 'unavailable', reason: errorText(this.lastError) };
    const reasons: string[] = [];
    if (this.refusedEdit) {
      reasons.push(
        `the edited knowledge base was refused at ${this.refusedEdit.at.toISOString()}: ${this.refusedEdit.message}; ` +
          `serving the version loaded at ${current.loadedAt.toISOString()}`,
      );
    }
    const missing = missingRules(current.kb.identity.rules, current.kb.sections);
    if (missing.length) reasons.push(`the knowledge base in service lacks declared rules: ${missing.join('; ')}`);
    const { skipped } = current.kb;
    if (skipped.length) reasons.push(`${skipped.length} file${skipped.length === 1 ? '' : 's'} left out: ${skipped.map((s) => s.message).join('; ')}`);
    return reasons.length ? { status: 'degraded', reasons } : { status: 'ready' };
  }

  /** The KB in service; throws KnowledgeUnavailableError (with the loader's message) if none ever loaded. */
  get(): Knowledge {
    if (this.current) return this.current;
    if (this.firstLoad) {
      const { done, total } = this.firstLoad.progress;
      throw new KnowledgeUnavailableError(`the knowledge base is loading (${done} of ${total || '?'} files)`);
    }
    throw new KnowledgeUnavailableError(errorText(this.lastError), { cause: this.lastError });
  }

  /**
   * One polling step: compares the files with the KB in service and reloads when they
   * settled. The reload yields to the event loop while it reads and parses, so requests
   * keep being served (by the KB in service) while a large KB loads.
   */
  async check(): Promise<CheckResult> {
    await this.firstLoad?.done;
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
      const next = this.withEmbeddings(
        await loadKnowledgeAsync(this.kbPath, this.config, { tokens: this.tokens, documents: this.documents, parts: this.parts, pinnedFiles: this.pinnedFiles() }),
      );
      const previous = this.current;
      this.current = next;
      this.lastError = undefined;
      this.refusedEdit = undefined;
      this.log.info(`[knowledge] ${previous ? 'reloaded after an edit' : 'loaded the fixed knowledge base'}: ${next.summary}${pinnedChange(previous, next)}`);
      this.logProblems(next);
      this.saveCache();
      if (previous) this.notifyReload(previous, next);
      return 'reloaded';
    } catch (error) {
      if (this.current) {
        this.refusedEdit = { message: errorText(error), at: new Date() };
        this.log.error(
          `[knowledge] the edited knowledge base was NOT loaded: ${errorText(error)}. Still serving the version loaded at ` +
            `${this.current.loadedAt.toISOString()} (${this.current.index.sections.length} sections).`,
        );
      } else {
        this.lastError = error;
        this.log.error(`[knowledge] THE KNOWLEDGE BASE STILL COULD NOT BE LOADED: ${errorText(error)}`);
      }
      return 'refused';
    }
  }

  /** Checks every `intervalMs` (0: never), one check at a time. The timer does not keep the process alive. */
  watch(intervalMs: number): void {
    if (this.timer || intervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (this.checking) return;
      this.checking = true;
      this.check()
        .catch((error) => this.log.error(`[knowledge] checking the knowledge base for changes failed: ${errorText(error)}`))
        .finally(() => (this.checking = false));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
