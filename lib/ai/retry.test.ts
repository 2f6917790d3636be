import { APICallError, RetryError, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_ERRORS, describeModelError } from './errors';
import type { LanguageModelV3, StreamPart } from './model-types';
import { isRetryableModelError, retryAfterMs, withRetry, type RetryOptions } from './retry';
import { ModelTimeoutError, withSilenceTimeout } from './timeout';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

const apiError = (statusCode: number, headers: Record<string, string> = {}) =>
  new APICallError({
    message: `status ${statusCode}`,
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
  });

/** undici's error for a connection cut mid-body: TypeError('terminated') caused by a socket error. */
function cutError(): Error {
  return new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
}

/** One attempt of the fake provider: throw before answering, or stream these parts (then maybe fail). */
type Attempt = { fail: unknown } | { parts: StreamPart[]; thenFail?: unknown };

const text = (...words: string[]): StreamPart[] => [
  { type: 'stream-start', warnings: [] },
  { type: 'response-metadata', id: 'r', modelId: 'fake' },
  { type: 'text-start', id: 't' },
  ...words.map((w): StreamPart => ({ type: 'text-delta', id: 't', delta: w })),
];
const finish: StreamPart[] = [
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
];

/** The AI SDK's mock model, answering each doStream call with the next scripted attempt. */
function scripted(attempts: Attempt[]): MockLanguageModelV3 & { readonly calls: number } {
  const model = new MockLanguageModelV3({
    provider: 'fake',
    modelId: 'fake-1',
    async doStream() {
      const attempt = attempts[model.doStreamCalls.length - 1];
      if (!attempt) throw new Error('no more attempts scripted');
      if ('fail' in attempt) throw attempt.fail;
      // One part per pull, as a network stream delivers them (an errored stream drops queued parts).
      let i = 0;
      return {
        stream: new ReadableStream<StreamPart>({
          pull(controller) {
            if (i < attempt.parts.length) controller.enqueue(attempt.parts[i++]!);
            else if (attempt.thenFail) controller.error(attempt.thenFail);
            else controller.close();
          },
        }),
      };
    },
  });
  return Object.defineProperty(model, 'calls', { get: () => model.doStreamCalls.length }) as MockLanguageModelV3 & { readonly calls: number };
}

async function run(model: LanguageModelV3, options: Partial<RetryOptions> = {}, abortSignal?: AbortSignal) {
  const retries: number[] = [];
  const wrapped = withRetry(model, { maxRetries: 1, maxWaitMs: 1000, backoffMs: 5, onRetry: ({ delayMs }) => retries.push(delayMs), ...options });
  let error: unknown;
  const starts: string[] = [];
  const result = streamText({ model: wrapped, prompt: 'hello', maxRetries: 0, abortSignal, onError: ({ error: e }) => void (error ??= e) });
  let out = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') out += part.text;
    if (part.type === 'text-start') starts.push(part.id);
  }
  return { text: out, error, retries, starts };
}

describe('withRetry', () => {
  it('retries a 500 once, after the backoff, and answers', async () => {
    const model = scripted([{ fail: apiError(500) }, { parts: [...text('hello ', 'there'), ...finish] }]);
    const { text: out, error, retries } = await run(model);
    expect(out).toBe('hello there');
    expect(error).toBeUndefined();
    expect(model.calls).toBe(2);
    expect(retries).toEqual([5]);
  });

  it('waits what a 429 asks for (retry-after-ms / retry-after), within the bound', async () => {
    const model = scripted([{ fail: apiError(429, { 'retry-after-ms': '40' }) }, { parts: [...text('ok'), ...finish] }]);
    const started = Date.now();
    const { text: out, retries } = await run(model);
    expect(out).toBe('ok');
    expect(retries).toEqual([40]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
  });

  it('does not retry when the provider asks for a longer pause than MODEL_RETRY_MAX_WAIT_MS: the customer hears "busy" at once', async () => {
    const model = scripted([{ fail: apiError(429, { 'retry-after': '120' }) }, { parts: [...text('never'), ...finish] }]);
    const started = Date.now();
    const { text: out, error, retries } = await run(model, { maxWaitMs: 5000 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(out).toBe('');
    expect(model.calls).toBe(1);
    expect(retries).toEqual([]);
    expect(RetryError.isInstance(error)).toBe(true);
    const described = describeModelError(error);
    expect(described.kind).toBe('busy');
    expect(described.customer).toBe(CUSTOMER_ERRORS.busy);
    expect(described.detail).toMatch(/APICallError 429 .*not retried: the provider asked to wait 120000 ms, more than MODEL_RETRY_MAX_WAIT_MS=5000/);
  });

  it('gives up after MODEL_MAX_RETRIES, naming the attempts', async () => {
    const model = scripted([{ fail: apiError(503) }, { fail: apiError(502) }, { parts: text('never') }]);
    const { error } = await run(model);
    expect(model.calls).toBe(2);
    expect(describeModelError(error)).toMatchObject({ kind: 'unavailable' });
    expect(describeModelError(error).detail).toMatch(/APICallError 502 .*\(failed after 2 attempts\)/);
  });

  it('never retries with maxRetries 0, a 400, a timeout or an abort', async () => {
    const once = scripted([{ fail: apiError(500) }, { parts: text('x') }]);
    await run(once, { maxRetries: 0 });
    expect(once.calls).toBe(1);
    const bad = scripted([{ fail: apiError(400) }, { parts: text('x') }]);
    await run(bad);
    expect(bad.calls).toBe(1);
    const slow = scripted([{ fail: new ModelTimeoutError(10, 'response') }, { parts: text('x') }]);
    expect(describeModelError((await run(slow)).error).kind).toBe('timeout');
    expect(slow.calls).toBe(1);
    expect(isRetryableModelError(new DOMException('aborted', 'AbortError'))).toBe(false);
  });

  it('retries a connection cut before the first token, and the first attempt leaves no trace in the stream', async () => {
    const model = scripted([
      { parts: [{ type: 'stream-start', warnings: [] }, { type: 'response-metadata', id: 'first' }], thenFail: cutError() },
      { parts: [...text('second ', 'attempt'), ...finish] },
    ]);
    const { text: out, error, starts } = await run(model);
    expect(model.calls).toBe(2);
    expect(out).toBe('second attempt');
    expect(error).toBeUndefined();
    expect(starts).toEqual(['t']);
  });

  it('never retries once text has streamed: a cut mid-answer is an error part (the customer keeps the partial text)', async () => {
    const model = scripted([{ parts: text('partial ', 'answer'), thenFail: cutError() }, { parts: [...text('x'), ...finish] }]);
    const { text: out, error } = await run(model);
    expect(model.calls).toBe(1);
    expect(out).toBe('partial answer');
    expect(describeModelError(error)).toMatchObject({ kind: 'unavailable' });
    expect(describeModelError(error).detail).toMatch(/TypeError: terminated/);
  });

  it('stops waiting at once when the customer aborts during the backoff', async () => {
    const model = scripted([{ fail: apiError(500) }, { parts: [...text('x'), ...finish] }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    await run(model, { backoffMs: 5000 }, controller.signal).catch(() => {});
    expect(Date.now() - started).toBeLessThan(1000);
    expect(model.calls).toBe(1);
  });

  it('composes with the silence timeout: each attempt gets its own limit', async () => {
    const model = scripted([{ fail: apiError(500) }, { parts: [...text('fine'), ...finish] }]);
    const { text: out } = await run(withSilenceTimeout(model, 200));
    expect(out).toBe('fine');
  });
});

describe('retryAfterMs', () => {
  it('reads retry-after-ms, retry-after in seconds or as an HTTP date, else nothing', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(apiError(429, { 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterMs(apiError(429, { 'Retry-After': '2' }), now)).toBe(2000);
    expect(retryAfterMs(apiError(503, { 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterMs(apiError(503, { 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(apiError(500), now)).toBeUndefined();
    expect(retryAfterMs(new Error('x'), now)).toBeUndefined();
  });
});
