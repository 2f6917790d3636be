import { APICallError, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_ERRORS, describeModelError } from './errors';
import type { CallOptions, LanguageModelV3, StreamPart } from './model-types';
import { ModelTimeoutError, withSilenceTimeout } from './timeout';

type Script = (controller: ReadableStreamDefaultController<StreamPart>, signal: AbortSignal | undefined) => Promise<void>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** The AI SDK's mock model: `respondAfterMs` before doStream resolves (Infinity = never), then `script` drives the stream. */
function fakeModel(respondAfterMs: number, script: Script): LanguageModelV3 & { aborted: () => boolean } {
  const model = new MockLanguageModelV3({
    provider: 'fake',
    modelId: 'fake-1',
    async doStream(options: CallOptions) {
      await new Promise<void>((resolve, reject) => {
        if (Number.isFinite(respondAfterMs)) setTimeout(resolve, respondAfterMs);
        options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal!.reason), { once: true });
      });
      return {
        stream: new ReadableStream<StreamPart>({
          start: (controller) => script(controller, options.abortSignal),
        }),
      };
    },
  });
  return Object.assign(model, { aborted: () => model.doStreamCalls.at(-1)?.abortSignal?.aborted ?? false });
}

const words = (n: number, gapMs: number): Script => async (controller) => {
  controller.enqueue({ type: 'stream-start', warnings: [] });
  controller.enqueue({ type: 'text-start', id: 't' });
  for (let i = 0; i < n; i++) {
    await sleep(gapMs);
    controller.enqueue({ type: 'text-delta', id: 't', delta: `w${i} ` });
  }
  controller.enqueue({ type: 'text-end', id: 't' });
  controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
  controller.close();
};

async function run(model: LanguageModelV3) {
  const events: string[] = [];
  let error: unknown;
  const result = streamText({
    model,
    prompt: 'hello',
    maxRetries: 0,
    onError: ({ error: e }) => {
      events.push('error');
      error = e;
    },
    onFinish: () => {
      events.push('finish');
    },
    onAbort: () => {
      events.push('abort');
    },
  });
  let text = '';
  for await (const part of result.fullStream) if (part.type === 'text-delta') text += part.text;
  return { events, error, text };
}

describe('withSilenceTimeout', () => {
  it('fails a model that never answers with ModelTimeoutError, as an error (not an abort), and aborts the request', async () => {
    const inner = fakeModel(Infinity, words(1, 0));
    const started = Date.now();
    const { events, error, text } = await run(withSilenceTimeout(inner, 80));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(events[0]).toBe('error');
    expect(events).not.toContain('abort');
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(text).toBe('');
    expect(inner.aborted()).toBe(true);
  });

  it('fails a stream that stalls, keeping what arrived before', async () => {
    const stall: Script = async (controller) => {
      controller.enqueue({ type: 'stream-start', warnings: [] });
      controller.enqueue({ type: 'text-start', id: 't' });
      controller.enqueue({ type: 'text-delta', id: 't', delta: 'partial ' });
      // …and then nothing, ever
    };
    const inner = fakeModel(0, stall);
    const { events, error, text } = await run(withSilenceTimeout(inner, 80));
    expect(events[0]).toBe('error');
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect((error as Error).message).toContain('stalled');
    expect(text).toBe('partial ');
    expect(inner.aborted()).toBe(true);
  });

  it('never cuts a long answer that keeps streaming', async () => {
    // 12 chunks 30 ms apart: 360 ms in all, far past the 100 ms limit, never silent for 100 ms.
    const { events, text } = await run(withSilenceTimeout(fakeModel(30, words(12, 30)), 100));
    expect(events).toEqual(['finish']);
    expect(text.trim().split(' ')).toHaveLength(12);
  });
});

describe('describeModelError', () => {
  const apiError = (statusCode: number) =>
    new APICallError({ message: 'nope', url: 'http://127.0.0.1/v1/chat/completions', requestBodyValues: {}, statusCode, responseBody: '{"error":"x"}' });

  it('gives customers a short message and the trace the details', () => {
    expect(describeModelError(new ModelTimeoutError(3000, 'response'))).toMatchObject({ kind: 'timeout', customer: CUSTOMER_ERRORS.timeout });
    const busy = describeModelError(apiError(429));
    expect(busy).toMatchObject({ kind: 'busy', customer: CUSTOMER_ERRORS.busy });
    expect(busy.detail).toContain('APICallError 429');
    const down = describeModelError(apiError(500));
    expect(down.customer).toBe(CUSTOMER_ERRORS.unavailable);
    expect(down.customer).not.toContain('500');
    expect(describeModelError('weird').detail).toBe('weird');
  });
});
