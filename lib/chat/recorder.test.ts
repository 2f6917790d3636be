import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { APICallError, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { groundingFor, groundingProviderOptions } from '../ai/grounding';
import type { LanguageModelV3 } from '../ai/model-types';
import { OfflineModel } from '../ai/offline-model';
import type { RetrievalIndex } from '../retrieval/index';
import { testIndex } from '../testing/kb';
import { ASSISTANT_INSTRUCTIONS } from '../ai/prompt';
import type { FinishRetryOptions } from '../store/finish';
import { SqliteStore } from '../store/sqlite';
import type { TurnStore, TurnEnd } from '../store/ports/turns';
import { recordTurn } from './record-turn';
import { TurnRecorder } from './recorder';
import { retrieveForTurn, type TurnKnowledge } from '../knowledge/retrieve';
import { customerMessagesOf, toModelMessages, type ChatText } from './turn';

const index = testIndex();
let store: SqliteStore;

beforeEach(() => {
  store = new SqliteStore(path.join(mkdtempSync(path.join(tmpdir(), 'recorder-')), 'traces.db'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await store.close();
});

/** The test index as a turn's retrieval reads it: the default instructions, no pages, no semantic stage. */
function knowledgeOf(retrievalIndex: RetrievalIndex): TurnKnowledge {
  return { index: retrievalIndex, instructions: ASSISTANT_INSTRUCTIONS, pages: new Map() };
}

interface TurnOptions {
  abortAfterChars?: number;
  /** The store the recorder writes the ending to (default: the test's store). */
  traces?: TurnStore;
  retry?: FinishRetryOptions;
}

/** What the chat route does, minus HTTP: select, stream, record the start once streaming, record the end. */
async function turn(model: LanguageModelV3, messages: ChatText[], { abortAfterChars, traces = store, retry }: TurnOptions = {}) {
  const selection = await retrieveForTurn(knowledgeOf(index), customerMessagesOf(messages));
  const controller = new AbortController();
  const recorder = recordTurn(traces, {
    conversationId: 'conv-12345678',
    visitorId: 'visitor-1',
    trigger: 'submit-message',
    retrieval: selection,
    knowledge: knowledgeOf(index),
    chat: model,
    startedAt: performance.now(),
    ...(retry ? { retry } : {}),
  });
  const id = recorder.turnId;
  recorder.watch(controller.signal);
  const result = streamText({
    model,
    system: selection.systemPrompt,
    messages: toModelMessages(messages),
    maxRetries: 0,
    abortSignal: controller.signal,
    providerOptions: groundingProviderOptions(groundingFor(selection.selection)),
    ...recorder.callbacks,
  });
  recorder.begin();
  let text = '';
  try {
    for await (const delta of result.textStream) {
      text += delta;
      if (abortAfterChars !== undefined && text.length > abortAfterChars) controller.abort();
    }
  } catch {
    // errors are the recorder's business
  }
  const whenStreamEnded = (await store.getTurn(id))!;
  const outcome = await recorder.done;
  return { id, text, whenStreamEnded, outcome, trace: (await store.getTurn(id))! };
}

function failing(error: Error): LanguageModelV3 {
  return new MockLanguageModelV3({ provider: 'fake', modelId: 'down', doGenerate: () => Promise.reject(error), doStream: () => Promise.reject(error) });
}

describe('TurnRecorder', () => {
  it('records a finished turn: reply, usage, finish reason, first-token and total time', async () => {
    const { text, trace } = await turn(new OfflineModel({ chunkDelayMs: 1 }), [{ role: 'user', text: 'can I get a refund?' }]);
    expect(trace.status).toBe('ok');
    expect(trace.reply).toBe(text);
    expect(trace.finishReason).toBe('stop');
    expect(trace.usage?.inputTokens).toBeGreaterThan(0);
    expect(trace.firstTokenMs).toBeGreaterThan(0);
    expect(trace.totalMs).toBeGreaterThanOrEqual(trace.firstTokenMs!);
    expect(trace.error).toBeUndefined();
  });

  it('records a failed model call as an error with the technical detail', async () => {
    const error = new APICallError({ message: 'Internal', url: 'http://stub/v1/chat/completions', requestBodyValues: {}, statusCode: 500 });
    const { trace } = await turn(failing(error), [{ role: 'user', text: 'refund' }]);
    expect(trace.status).toBe('error');
    expect(trace.error).toContain('APICallError 500');
    expect(trace.reply).toBe('');
  });

  it('records an abort with the partial reply', async () => {
    const { trace } = await turn(new OfflineModel({ chunkDelayMs: 2 }), [{ role: 'user', text: 'refund' }], { abortAfterChars: 30 });
    expect(trace.status).toBe('aborted');
    expect(trace.reply.length).toBeGreaterThan(0);
    expect(trace.reply.length).toBeLessThan(200);
  });

  it('keeps the first ending only', async () => {
    const { id } = await turn(new OfflineModel({ chunkDelayMs: 0 }), [{ role: 'user', text: 'refund' }]);
    const late = new TurnRecorder(store, id, 0);
    vi.spyOn(console, 'warn').mockImplementationOnce(() => {});
    expect(await late.finish({ status: 'error', error: 'late' })).toBe('refused');
    expect((await store.getTurn(id))!.status).toBe('ok');
  });

  it('a database blip as the reply ends: the stream still ends at once, and the ending is written when the store answers again', async () => {
    let failures = 3;
    const blip = Object.assign(Object.create(store) as TurnStore, {
      async finishTurn(turnId: string, end: TurnEnd) {
        if (failures-- > 0) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return store.finishTurn(turnId, end);
      },
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const { id, text, whenStreamEnded, outcome, trace } = await turn(new OfflineModel({ chunkDelayMs: 0 }), [{ role: 'user', text: 'can I get a refund?' }], {
      traces: blip,
      retry: { firstDelayMs: 20, windowMs: 2000 },
    });
    expect(whenStreamEnded.status).toBe('pending'); // the stream did not wait for the retries
    expect(outcome).toBe('recorded');
    expect(trace).toMatchObject({ id, status: 'ok', reply: text, finishReason: 'stop' });
    expect(text.length).toBeGreaterThan(0);
    expect(failures).toBe(-1); // three failed attempts, then the one that worked
  });
});

describe('retrieveForTurn', () => {
  it('queries with the customer messages only and times the selection', async () => {
    const selection = await retrieveForTurn(knowledgeOf(index), customerMessagesOf([
      { role: 'user', text: 'how do I start a live stream?' },
      { role: 'assistant', text: 'You can get a refund' },
      { role: 'user', text: 'what about that one?' },
    ]));
    expect(selection.customerMessages).toEqual(['how do I start a live stream?', 'what about that one?']);
    expect(selection.explanation.query.previous).toBe('how do I start a live stream?');
    const firstScored = selection.explanation.sections.find((v) => v.reason === 'scored');
    expect(firstScored?.source).toBe('product/live.md');
    expect(selection.selectionUs).toBeGreaterThan(0);
  });

  it('builds model messages from text only, dropping empty ones', () => {
    expect(
      toModelMessages([
        { role: 'user', text: 'hi' },
        { role: 'assistant', text: '' },
        { role: 'user', text: 'refund?' },
      ]),
    ).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'user', content: 'refund?' },
    ]);
  });
});
