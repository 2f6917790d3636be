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
      const stream = new ReadableStream<StreamPart>({
        async pull(out) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          const stalled = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new ModelTimeoutError(timeoutMs, 'stream')), timeoutMs);
          });
          try {
            const next = await Promise.race([reader.read(), stalled]);
            if (next.done) out.close();
            else out.enqueue(next.value);
          } catch (error) {
            if (!(error instanceof ModelTimeoutError)) throw error;
            // Report the stall the way providers report stream errors: an error part, then
            // the end of the stream. (A failed stream would drop the customer's connection.)
            controller.abort(error);
            reader.cancel(error).catch(() => {});
            out.enqueue({ type: 'error', error });
            out.close();
          } finally {
            clearTimeout(timer);
          }
        },
        cancel(reason) {
          return reader.cancel(reason);
        },
      });
      return { ...result, stream };
    },
  };
}

/** `model` with the silence timeout (see silenceTimeoutMiddleware). */
export function withSilenceTimeout(model: LanguageModelV3, timeoutMs: number): LanguageModelV3 {
  return wrapLanguageModel({ model, middleware: silenceTimeoutMiddleware(timeoutMs) });
}
