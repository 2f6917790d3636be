import { APICallError, RetryError, wrapLanguageModel, type LanguageModelMiddleware } from 'ai';
import { errorText } from '../errors';
import { sleep } from './abort';
import type { LanguageModelV3, StreamPart, StreamResult } from './model-types';

/**
 * Retries a failed model call, only while it is safe: before the first token.
 *
 * - What is retried: a 429, 408, 409 or 5xx answer, and a network failure (connection
 *   refused, reset, cut) — when it happens before the model produced any text. The call
 *   fails again at most `maxRetries` times. Once text has streamed, an error is final:
 *   retrying would repeat or contradict what the customer already read.
 * - The wait: the provider's `retry-after-ms` / `retry-after` (seconds or HTTP date) when it
 *   sends one, else `backoffMs`. A provider asking for more than `maxWaitMs` gets no retry:
 *   the customer is told now to try again later, instead of staring at a spinner.
 * - Not retried: timeouts (ModelTimeoutError: a silent provider would double the wait),
 *   aborts (the customer left), malformed streams and other 4xx (they would fail again).
 *
 * Why not the AI SDK's own `maxRetries`: it waits up to 60 s for a Retry-After and 2 s
 * without one, and only retries failures before the response starts. streamText runs
 * with `maxRetries: 0`; this middleware (`wrapStream` / `wrapGenerate`) does the retrying. A failure after the retries is a
 * RetryError (the SDK's), so errors.ts describes both the same way.
 *
 * Nothing of a failed attempt reaches streamText: the parts an attempt sends before its
 * first text (stream-start, response metadata) are held back until that text arrives.
 */

/**
 * The server's retry policy (lib/ai/providers.ts): one retry, after at most 5 s. A chat customer
 * watches a spinner the whole time: a second retry of a provider that just failed twice, or a
 * pause of more than a few seconds, costs more of their patience than it wins back, and "the
 * service is busy, try again" at once is the better answer. Not settings (lib/env.ts
 * RETIRED_VARIABLES): no deployment needs another policy for a chat that a person is waiting on.
 */
export const MODEL_MAX_RETRIES = 1;
export const MODEL_RETRY_MAX_WAIT_MS = 5000;

export interface RetryOptions {
  /** Retries after the first attempt (0: none). */
  maxRetries: number;
  /** Longest Retry-After honoured, ms; longer → no retry. */
  maxWaitMs: number;
  /** Pause before a retry when the provider sent no Retry-After, ms (default 300). */
  backoffMs?: number;
  /** Told about each retry (default: a server log line). */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ConnectionRefused',
  'ConnectionClosed',
]);

/** A network failure anywhere in the cause chain (undici wraps them in `TypeError: terminated`). */
function isNetworkError(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e = error; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  }
  return false;
}

export function isRetryableModelError(error: unknown): boolean {
  if (APICallError.isInstance(error)) return error.isRetryable;
  return isNetworkError(error);
}

/** The pause the provider asked for, in ms, from its response headers; undefined if none. */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
  if (!headers) return undefined;
  const header = (name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const ms = Number.parseFloat(header('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = header('retry-after');
  if (after === undefined) return undefined;
  const seconds = Number(after.trim());
  if (after.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** Parts that carry model output: once one has been passed on, the call cannot be retried. */
function isOutput(part: StreamPart): boolean {
  return !['stream-start', 'response-metadata', 'raw', 'error'].includes(part.type);
}

export function retryMiddleware(options: RetryOptions): LanguageModelMiddleware {
  const { maxRetries, maxWaitMs, backoffMs = 300 } = options;
  const onRetry =
    options.onRetry ??
    (({ attempt, delayMs, error }) =>
      console.warn(`[model] attempt ${attempt} failed (${errorText(error)}); retrying in ${Math.round(delayMs)} ms`));

  /**
   * What to do after `errors` (the last one just happened): the delay before the next
   * attempt, or the error to fail with.
   */
  function decide(errors: unknown[], signal: AbortSignal | undefined): { retryInMs: number } | { fail: unknown } {
    const error = errors.at(-1);
    if (signal?.aborted || !isRetryableModelError(error)) {
      return { fail: errors.length === 1 ? error : new RetryError({ message: `failed after ${errors.length} attempts`, reason: 'errorNotRetryable', errors }) };
    }
    if (errors.length > maxRetries) {
      return {
        fail:
          maxRetries === 0
            ? error
            : new RetryError({ message: `failed after ${errors.length} attempts`, reason: 'maxRetriesExceeded', errors }),
      };
    }
    const asked = retryAfterMs(error);
    if (asked !== undefined && asked > maxWaitMs) {
      return {
        fail: new RetryError({
          message: `not retried: the provider asked to wait ${Math.round(asked)} ms, more than MODEL_RETRY_MAX_WAIT_MS=${maxWaitMs}`,
          reason: 'errorNotRetryable',
          errors,
        }),
      };
    }
    return { retryInMs: asked ?? backoffMs };
  }

  /** Calls `attempt` until it resolves or `decide` says fail; waits between attempts. */
  async function attempts<T>(attempt: () => PromiseLike<T>, errors: unknown[], signal: AbortSignal | undefined): Promise<T> {
    for (;;) {
      try {
        return await attempt();
      } catch (error) {
        errors.push(error);
        const next = decide(errors, signal);
        if ('fail' in next) throw next.fail;
        onRetry({ attempt: errors.length, delayMs: next.retryInMs, error });
        await sleep(next.retryInMs, signal);
      }
    }
  }

  return {
    specificationVersion: 'v3',

    wrapGenerate: ({ doGenerate, params }) => attempts(doGenerate, [], params.abortSignal),

    async wrapStream({ doStream, params }): Promise<StreamResult> {
      const errors: unknown[] = [];
      const signal = params.abortSignal;
      const start = () => attempts(doStream, errors, signal);

      const first = await start();
      let reader = first.stream.getReader();
      let held: StreamPart[] = [];
      let outputStarted = false;

      /** A failure before any output: retry (true) when allowed, else false. */
      async function retryEarly(error: unknown): Promise<boolean> {
        if (outputStarted) return false;
        errors.push(error);
        const next = decide(errors, signal);
        if ('fail' in next) {
          errors.pop();
          return false;
        }
        reader.cancel().catch(() => {});
        onRetry({ attempt: errors.length, delayMs: next.retryInMs, error });
        await sleep(next.retryInMs, signal);
        held = [];
        reader = (await start()).stream.getReader();
        return true;
      }

      const stream = new ReadableStream<StreamPart>({
        async pull(out) {
          for (;;) {
            let next: ReadableStreamReadResult<StreamPart>;
            try {
              next = await reader.read();
            } catch (error) {
              if (await retryEarly(error)) continue;
              // Report a broken stream (connection cut mid-answer) the way providers report
              // stream errors: an error part, then the end. A failing stream would make
              // streamText drop the customer's connection instead of showing the error.
              for (const part of held.splice(0)) out.enqueue(part);
              out.enqueue({ type: 'error', error });
              out.close();
              return;
            }
            if (next.done) {
              for (const part of held.splice(0)) out.enqueue(part);
              out.close();
              return;
            }
            const part = next.value;
            if (outputStarted) {
              out.enqueue(part);
              return;
            }
            if (part.type === 'error' && (await retryEarly(part.error))) continue;
            if (part.type === 'error' || !isOutput(part)) {
              held.push(part);
              if (part.type !== 'error') continue;
            } else {
              outputStarted = true;
              held.push(part);
            }
            for (const p of held.splice(0)) out.enqueue(p);
            return;
          }
        },
        cancel(reason) {
          return reader.cancel(reason);
        },
      });
      return { ...first, stream };
    },
  };
}

/** `model` with the retry policy (see retryMiddleware). */
export function withRetry(model: LanguageModelV3, options: RetryOptions): LanguageModelV3 {
  return wrapLanguageModel({ model, middleware: retryMiddleware(options) });
}
