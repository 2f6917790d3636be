import { wrapLanguageModel, type LanguageModelMiddleware } from 'ai';
import { linkedController } from './abort';
import type { LanguageModelV3, StreamPart, StreamResult } from './model-types';

/**
 * A silence limit for a model: the call fails with ModelTimeoutError when the provider has
 * not answered within `timeoutMs`, or when a started stream sends nothing for `timeoutMs`.
 * A long answer that keeps streaming is never cut.
 *
 * Why not streamText's own `timeout`: the SDK treats its timeouts as an abort, so the
 * customer's chat would end quietly instead of showing an error. A ModelTimeoutError is
 * an ordinary error: streamText reports it (onError), the UI shows it, the trace says
 * `error`. The underlying request is aborted either way, so the provider connection closes.
 *
 * A middleware (`wrapStream` / `wrapGenerate`) that calls the next model itself, with an abort
 * signal of its own linked to the caller's, so a timeout can abort the provider request.
 */

export class ModelTimeoutError extends Error {
  override readonly name = 'ModelTimeoutError';

  /**
   * By name, not `instanceof`: the model is built once per process (lib/server/app.ts) in one
   * bundle's copy of this class, and its errors are read in the route's (as the AI SDK's own
   * `isInstance` checks do).
   */
  static isInstance(error: unknown): error is ModelTimeoutError {
    return error instanceof Error && error.name === 'ModelTimeoutError';
  }

  constructor(readonly timeoutMs: number, phase: 'response' | 'stream') {
    super(
      phase === 'response'
        ? `the model did not start answering within ${timeoutMs} ms`
        : `the model stream stalled: no data for ${timeoutMs} ms`,
    );
  }
}

/** Runs `start` with a linked abort signal; rejects with ModelTimeoutError if it takes longer than `ms`. */
async function withDeadline<T>(
  ms: number,
  controller: AbortController,
  start: (signal: AbortSignal) => PromiseLike<T>,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await new Promise<T>((resolve, reject) => {
      timer = setTimeout(() => {
        const error = new ModelTimeoutError(ms, 'response');
        reject(error);
        controller.abort(error);
      }, ms);
      Promise.resolve(start(controller.signal)).then(resolve, reject);
    });
  } finally {
    clearTimeout(timer);
  }
}

export function silenceTimeoutMiddleware(timeoutMs: number): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',

    wrapGenerate({ model, params }) {
      const controller = linkedController(params.abortSignal);
      return withDeadline(timeoutMs, controller, (abortSignal) => model.doGenerate({ ...params, abortSignal }));
    },

    async wrapStream({ model, params }): Promise<StreamResult> {
      const controller = linkedController(params.abortSignal);
      const result = await withDeadline(timeoutMs, controller, (abortSignal) => model.doStream({ ...params, abortSignal }));
      const reader = result.stream.getReader();
      const stall = new StallWatch(timeoutMs, (error) => {
        controller.abort(error);
        reader.cancel(error).catch(() => {}); // ends the pending read
      });
      const stream = new ReadableStream<StreamPart>({
        async pull(out) {
          stall.waiting();
          const next = await reader.read();
          stall.received();
          if (stall.error) {
            // Report the stall the way providers report stream errors: an error part, then
            // the end of the stream. (A failed stream would drop the customer's connection.)
            out.enqueue({ type: 'error', error: stall.error });
            out.close();
          } else if (next.done) {
            stall.stop();
            out.close();
          } else out.enqueue(next.value);
        },
        cancel(reason) {
          stall.stop();
          return reader.cancel(reason);
        },
      });
      return { ...result, stream };
    },
  };
}

/**
 * Times the waits for a stream's next part: `onStall` once a wait reaches `timeoutMs`. One timer
 * per stream, re-armed for what is left of the current wait when it fires, and two timestamps a
 * part (not a timer and a promise race per part: a reply is hundreds of parts).
 */
class StallWatch {
  error: ModelTimeoutError | undefined;
  private since: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly onStall: (error: ModelTimeoutError) => void,
  ) {}

  /** A read of the next part starts. */
  waiting(): void {
    this.since = performance.now();
    if (!this.timer && !this.error) this.arm(this.timeoutMs);
  }

  /** The read ended (a part, the end, or the stall's cancel). */
  received(): void {
    this.since = undefined;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.check(), ms);
  }

  private check(): void {
    this.timer = undefined;
    if (this.since === undefined) return; // not waiting: the next read re-arms
    const waited = performance.now() - this.since;
    if (waited < this.timeoutMs) return this.arm(this.timeoutMs - waited);
    this.error = new ModelTimeoutError(this.timeoutMs, 'stream');
    this.onStall(this.error);
  }
}

/** `model` with the silence timeout (see silenceTimeoutMiddleware). */
export function withSilenceTimeout(model: LanguageModelV3, timeoutMs: number): LanguageModelV3 {
  return wrapLanguageModel({ model, middleware: silenceTimeoutMiddleware(timeoutMs) });
}
