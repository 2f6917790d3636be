import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BuiltDocument } from './build-document';
import type { PackedSectionTerms } from './section-terms';
import type { Section, WorkerFigures } from '../types';

/**
 * A pool of parse workers (node:worker_threads, ../parse-worker.ts): the cold load of a large KB
 * decodes, parses and tokenizes its files on every core, and the event loop stays free for
 * requests (load.ts `loadKnowledgeBaseAsync`). One pool serves one load and is closed after
 * it: idle workers would hold their parsers' memory for nothing between loads.
 *
 * Where the worker's code comes from: `new Worker(new URL('../parse-worker.ts', import.meta.url))`
 * is the form Next.js's Turbopack recognises and bundles as a worker entry of its own (since
 * Next 16.2), so `next start` runs a bundled .js file. Run from the TypeScript sources (tsx:
 * the CLIs and benchmarks; vitest), the worker starts from a two-line bootstrap that registers
 * tsx's loader first: Node 20 gives a worker neither the process's `--import` nor its loader
 * hooks. Why not piscina: it takes a file name, which Turbopack cannot see to bundle.
 */

export interface ParseRequest {
  kind: 'parse';
  id: number;
  file: string;
  bytes: Uint8Array;
  /** The KB's default language, when known: the sections in English are analysed on the worker. */
  language?: string;
}

/** Why a file could not be parsed (a KnowledgeBaseError's reason and line), and whether its raw text asks to be pinned. */
export interface ParseFailure {
  reason: string;
  line?: number;
  looksPinned: boolean;
}

/** A file's document (and, for a page in English, its sections' terms, in the same order), or why it could not be parsed. */
export type ParseOutcome = { document: BuiltDocument; terms?: PackedSectionTerms[] } | { failure: ParseFailure };

export type ParseReply = { id: number; ms: number } & (ParseOutcome | { crash: string });

/** A long section to split into parts of at most `maxTokens` (select/split.ts), and whether to analyse them (English). */
export interface SplitRequest {
  kind: 'split';
  id: number;
  section: Section;
  maxTokens: number;
  analyse: boolean;
}

/** A section's parts (text and tokens, in order), with their terms when asked. */
export interface SplitOutcome {
  parts: { text: string; tokens: number }[];
  terms?: PackedSectionTerms[];
}

export type SplitReply = { id: number; ms: number } & (SplitOutcome | { crash: string });

/**
 * A piece of a long file's document, sent ahead of its ParseReply (which holds the last piece):
 * deserializing Node.js's all.html (3,261 sections, 15.6 MB) in one message held the main
 * thread ~50 ms. The worker sends the next piece when the pool asks for it (NextPartRequest),
 * so each arrives on an event-loop turn of its own.
 */
export interface ParsePart {
  id: number;
  part: { sections: Section[]; terms?: PackedSectionTerms[] };
}

/** The pool has taken a ParsePart: send the next. */
export interface NextPartRequest {
  kind: 'next-part';
  id: number;
}

export type WorkerRequest = ParseRequest | SplitRequest | NextPartRequest;

/** A worker that could not start, or died: the file it had (or was to have) was not parsed. */
export class WorkerLostError extends Error {
  override readonly name = 'WorkerLostError';
}

/** One worker per core, at least one. */
export function defaultWorkerCount(): number {
  return Math.max(1, availableParallelism());
}

interface Task {
  request: ParseRequest | SplitRequest;
  /** What the request weighs, for the figures: a file's bytes, a section's characters. */
  size: number;
  resolve(outcome: ParseOutcome | SplitOutcome): void;
  reject(error: Error): void;
}

/** A file's bytes at least this long go to the worker without a copy (Node.js's all.html, 15.6 MB, took 20–40 ms to clone on the event loop). */
export const HAND_OVER_MIN_BYTES = 1024 * 1024;

/**
 * What a request hands over to the worker instead of copying: a large file's bytes when they
 * are the whole of their buffer (a file read whole is). The caller's copy is empty afterwards
 * (load.ts reads the file again if the worker is lost before it answers).
 */
function handedOver(request: WorkerRequest): ArrayBuffer[] {
  if (request.kind !== 'parse') return [];
  const { bytes } = request;
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole && bytes.byteLength >= HAND_OVER_MIN_BYTES ? [bytes.buffer as ArrayBuffer] : [];
}

/** A larger young generation than the default: parsing allocates many short-lived nodes. */
const WORKER_OPTIONS = { resourceLimits: { maxYoungGenerationSizeMb: 64 } };

/**
 * Running from the TypeScript sources under a TypeScript loader (tsx: the CLIs and benchmarks;
 * vitest) rather than from a bundle. Not `import.meta.url`: Turbopack's bundle keeps the
 * source's .ts path in it.
 */
function fromSources(): boolean {
  return process.env.VITEST !== undefined || process.execArgv.some((arg) => arg.includes('tsx'));
}

/**
 * A parse worker: `script` when given (a bundle of parse-worker.ts: bench:load's, made as a build
 * makes one), else the bundled entry in a build, or the TypeScript entry behind tsx's loader when
 * running from the sources.
 */
function startWorker(script?: URL): Worker {
  if (script) return new Worker(script, WORKER_OPTIONS);
  if (!fromSources()) return new Worker(new URL('../parse-worker.ts', import.meta.url), WORKER_OPTIONS);
  // tsx's ESM API (its CommonJS build cannot register from an eval'd worker: index.mjs beside the index.cjs that require
  // resolves), found from the worker's own code, so that a bundler never sees tsx named here.
  const entry = new URL('../parse-worker.ts', import.meta.url).href;
  const bootstrap = [
    `const api = require('node:module').createRequire(${JSON.stringify(import.meta.url)}).resolve('tsx/esm/api').replace(/\\.cjs$/, '.mjs');`,
    `import(require('node:url').pathToFileURL(api).href).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
  ].join('\n');
  return new Worker(/* turbopackIgnore: true */ bootstrap, { ...WORKER_OPTIONS, eval: true });
}

class PoolWorker {
  readonly figures: WorkerFigures = { files: 0, bytes: 0, busyMs: 0, longestMs: 0, startMs: undefined };
  task: Task | undefined;
  private readonly spawned = performance.now();
  /** The pieces of the current task's document received so far (ParsePart). */
  private parts: { sections: Section[]; terms: PackedSectionTerms[] } | undefined;

  constructor(
    readonly worker: Worker,
    private readonly onIdle: (worker: PoolWorker) => void,
    private readonly onLost: (worker: PoolWorker, error: Error) => void,
  ) {
    worker.on('message', (reply: ParseReply | SplitReply | ParsePart | { ready: true }) => {
      if ('ready' in reply) this.figures.startMs = performance.now() - this.spawned;
      else if ('part' in reply) this.takePart(reply);
      else this.answer(reply);
    });
    worker.on('error', (error) => this.onLost(this, new WorkerLostError(`a parse worker failed: ${error.message}`)));
    // A reply (or a piece of one) that could not be read: its task would wait for ever.
    worker.on('messageerror', (error) => this.onLost(this, new WorkerLostError(`a parse worker's reply could not be read: ${error.message}`)));
    worker.on('exit', (code) => this.onLost(this, new WorkerLostError(`a parse worker exited (code ${code})`)));
  }

  run(task: Task): void {
    this.task = task;
    this.worker.postMessage(task.request, handedOver(task.request));
  }

  private takePart({ id, part }: ParsePart): void {
    if (this.task?.request.id !== id) return; // a piece of a task this worker no longer has (it cannot happen: one task at a time)
    this.parts ??= { sections: [], terms: [] };
    for (const section of part.sections) this.parts.sections.push(section);
    for (const terms of part.terms ?? []) this.parts.terms.push(terms);
    const next: NextPartRequest = { kind: 'next-part', id };
    this.worker.postMessage(next);
  }

  private answer(reply: ParseReply | SplitReply): void {
    const task = this.task!;
    this.task = undefined;
    const parts = this.parts;
    this.parts = undefined;
    if (parts && 'document' in reply) {
      reply.document.sections = [...parts.sections, ...reply.document.sections];
      if (reply.terms) reply.terms = [...parts.terms, ...reply.terms];
    }
    if (task.request.kind === 'parse') this.figures.files++;
    this.figures.bytes += task.size;
    this.figures.busyMs += reply.ms;
    this.figures.longestMs = Math.max(this.figures.longestMs, reply.ms);
    const what = task.request.kind === 'parse' ? `parsing ${task.request.file}` : `splitting ${task.request.section.id}`;
    if ('crash' in reply) task.reject(new Error(`${what} failed in a parse worker: ${reply.crash}`));
    else task.resolve(reply);
    this.onIdle(this);
  }
}

export class ParsePool {
  private readonly workers: PoolWorker[] = [];
  private readonly queue: Task[] = [];
  private nextId = 0;
  private closing = false;

  /** `script`: a bundled worker to run instead of the one this code finds (see startWorker). */
  constructor(size = defaultWorkerCount(), script?: URL) {
    for (let i = 0; i < size; i++) {
      const worker = startWorker(script);
      this.workers.push(new PoolWorker(worker, (w) => this.next(w), (w, error) => this.lost(w, error)));
    }
  }

  get size(): number {
    return this.workers.length;
  }

  /** Parses one file's bytes on the first free worker (in the order asked: ask for the largest files first). */
  parse(file: string, bytes: Uint8Array, language?: string): Promise<ParseOutcome> {
    return this.run({ kind: 'parse', id: this.nextId++, file, bytes, ...(language ? { language } : {}) }, bytes.byteLength) as Promise<ParseOutcome>;
  }

  /** Splits a long section into parts on the first free worker. */
  split(section: Section, maxTokens: number, analyse: boolean): Promise<SplitOutcome> {
    return this.run({ kind: 'split', id: this.nextId++, section, maxTokens, analyse }, section.text.length) as Promise<SplitOutcome>;
  }

  private run(request: ParseRequest | SplitRequest, size: number): Promise<ParseOutcome | SplitOutcome> {
    if (this.workers.length === 0) return Promise.reject(new WorkerLostError('the parse pool has no workers left'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request, size, resolve, reject });
      const idle = this.workers.find((w) => !w.task);
      if (idle) this.next(idle);
    });
  }

  /** What each worker has done so far (copies). */
  figures(): WorkerFigures[] {
    return this.workers.map((w) => ({ ...w.figures }));
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }

  private next(worker: PoolWorker): void {
    const task = this.queue.shift();
    if (task) worker.run(task);
  }

  /** A worker that failed or exited: its task fails, the others go on; with no worker left, so does every queued task. */
  private lost(worker: PoolWorker, error: Error): void {
    if (this.closing || !this.workers.includes(worker)) return;
    this.workers.splice(this.workers.indexOf(worker), 1);
    worker.task?.reject(error);
    worker.task = undefined;
    void worker.worker.terminate();
    if (this.workers.length === 0) for (const task of this.queue.splice(0)) task.reject(error);
  }
}
