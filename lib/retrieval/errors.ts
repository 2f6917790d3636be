/**
 * Errors raised while loading a knowledge base or configuring the selector.
 * Each one names the file (and line, where there is one) so an editor can jump to it.
 */

/** A knowledge-base file that cannot be used as written. `message` starts with `file:line:`. */
export class KnowledgeBaseError extends Error {
  override readonly name = 'KnowledgeBaseError';
  constructor(
    readonly reason: string,
    readonly file: string,
    readonly line?: number,
  ) {
    super(`${line === undefined ? file : `${file}:${line}`}: ${reason}`);
  }
}

/** A selector setting that cannot work (e.g. the pinned block is larger than the budget). */
export class RetrievalConfigError extends Error {
  override readonly name = 'RetrievalConfigError';
}
