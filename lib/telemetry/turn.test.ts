import { SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createRetrievalIndex, selectContext, sectionsFromSources } from '../retrieval/index';
import { testIndex, TEST_SOURCES } from '../testing/kb';
import { redact as redact_ } from '../privacy/redact';
import { knowledgeVersion, retrievalAttributes, startTurnTelemetry, telemetryOptions } from './turn';

describe('turn telemetry', () => {
  it('is off (a pass-through, no span, no hash) unless an OTLP endpoint is set', () => {
    expect(telemetryOptions({})).toEqual({ enabled: false, captureContent: false });
    expect(telemetryOptions({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).enabled).toBe(true);
    expect(telemetryOptions({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://x/v1/traces', OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE' })).toEqual({
      enabled: true,
      captureContent: true,
    });
    const off = startTurnTelemetry('conv-1', { enabled: false, captureContent: false });
    const callbacks = { onFinish: async () => {} };
    expect(off.track('t', callbacks)).toBe(callbacks);
    expect(off.model).toEqual({ isEnabled: false });
    expect(off.run(() => 42)).toBe(42);
  });

  it('describes a selection with the GenAI retrieval attributes and our own; the query text only with content capture', () => {
    // 45 tokens: the pinned rule (21) and the timelines (18) fit, the refund policy (32) does not.
    const index = testIndex({ budget: 45, floor: 0 });
    const explanation = selectContext(index, ['can I get a refund?']);
    const kb = { path: '/srv/kb/content', index };
    const a = retrievalAttributes(explanation, kb, false);
    expect(a['gen_ai.operation.name']).toBe('retrieval');
    expect(a['gen_ai.data_source.id']).toBe('content');
    expect(a).not.toHaveProperty('gen_ai.retrieval.query.text');
    expect(a['support_chat.retrieval.pinned_ids']).toEqual(['rules.md#refunds']);
    const documents = JSON.parse(a['gen_ai.retrieval.documents']) as { id: string; score: number }[];
    expect(documents).toEqual([{ id: 'billing/refund-policy.md#refund-timelines', score: explanation.sections[1]!.score }]);
    expect(documents[0]!.score).toBeGreaterThan(0);
    expect(a['support_chat.retrieval.tokens.total']).toBe(explanation.tokens.total);
    expect(a['support_chat.retrieval.dropped_ids']).toEqual(['billing/refund-policy.md#refund-policy']);
    expect(JSON.parse(a['support_chat.retrieval.dropped'])).toEqual([
      { id: 'billing/refund-policy.md#refund-policy', reason: 'over-budget', score: explanation.sections[2]!.score, tokens: 32 },
    ]);
    expect(a['support_chat.retrieval.floor_used']).toBe(false);
    expect(retrievalAttributes(explanation, kb, true)['gen_ai.retrieval.query.text']).toBe('can I get a refund?');
  });

  it('versions the KB by its content, once per loaded index', () => {
    const a = testIndex();
    expect(knowledgeVersion(a)).toMatch(/^[0-9a-f]{16}$/);
    expect(knowledgeVersion(testIndex())).toBe(knowledgeVersion(a));
    const edited = TEST_SOURCES.map((s, i) => (i === 3 ? { ...s, text: s.text.replace('name', 'nickname') } : s));
    expect(knowledgeVersion(createRetrievalIndex({ sections: sectionsFromSources(edited), synonyms: [] }, { budget: 400 }))).not.toBe(knowledgeVersion(a));
  });
});

describe('startTurnTelemetry', () => {
  function traced() {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
    return { exporter, telemetry: startTurnTelemetry('conv-1', { enabled: true, captureContent: false, tracer }) };
  }
  const kb = { path: '/kb/content', index: testIndex() };

  it('puts the retrieval span under the turn span, and ends the turn with the recorder\'s ending', async () => {
    const { exporter, telemetry } = traced();
    const selection = await telemetry.retrieval(kb, async () => ({ explanation: selectContext(kb.index, ['can I get a refund?']) }));
    expect(selection.explanation.sentIds.length).toBeGreaterThan(0);
    const seen: string[] = [];
    const callbacks = telemetry.track('turn-1', { onFinish: async (_event: unknown) => void seen.push('finish'), onError: async (_event: { error: unknown }) => void seen.push('error') });
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['retrieval']); // the turn is still open
    await callbacks.onFinish?.({});
    await callbacks.onError?.({ error: new Error('late') }); // a second ending changes nothing
    expect(seen).toEqual(['finish', 'error']);
    const [retrieval, turn] = exporter.getFinishedSpans();
    expect(turn!.name).toBe('chat turn');
    expect(retrieval!.parentSpanContext?.spanId).toBe(turn!.spanContext().spanId);
    expect(turn!.attributes).toMatchObject({ 'gen_ai.conversation.id': 'conv-1', 'support_chat.turn.id': 'turn-1', 'support_chat.turn.status': 'ok' });
    expect(turn!.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(telemetry.model).toMatchObject({ isEnabled: true, recordInputs: false, recordOutputs: false });
  });

  it('marks a failed turn as an error with the error type', async () => {
    const { exporter, telemetry } = traced();
    await telemetry.track('turn-2', { onError: async (_event: { error: unknown }) => {} }).onError?.({ error: new TypeError('terminated') });
    const [turn] = exporter.getFinishedSpans();
    expect(turn!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'terminated' });
    expect(turn!.attributes).toMatchObject({ 'support_chat.turn.status': 'error', 'error.type': 'TypeError' });
  });
});

describe('turn telemetry with TRACE_REDACT', () => {
  it('with content capture on, every string attribute of the turn and the AI SDK spans is redacted before it is recorded', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const redact = (text: string) => redact_(text, { phoneRegion: 'US' }).text;
    const telemetry = startTurnTelemetry('conv-1', { enabled: true, captureContent: true, tracer: provider.getTracer('test'), redact });
    const tracer = telemetry.model.tracer!;
    // As the AI SDK records its spans: attributes at start, more set later, an event.
    await tracer.startActiveSpan('ai.streamText', { attributes: { 'ai.prompt': '{"messages":[{"role":"user","content":"I am jane@example.com"}]}' } }, async (span) => {
      span.setAttributes({ 'ai.response.text': 'Call +44 20 7946 0958 about card 4111 1111 1111 1111.', 'ai.usage.promptTokens': 12 });
      span.setAttribute('ai.prompt.messages', ['to jane@example.com']);
      span.addEvent('ai.stream.firstChunk', { 'ai.response.msToFirstChunk': 5, note: 'from 203.0.113.42' });
      span.end();
    });
    const [span] = exporter.getFinishedSpans();
    expect(span!.attributes).toEqual({
      'ai.prompt': '{"messages":[{"role":"user","content":"I am [email]"}]}',
      'ai.response.text': 'Call [phone] about card [card].',
      'ai.usage.promptTokens': 12,
      'ai.prompt.messages': ['to [email]'],
    });
    expect(span!.events[0]!.attributes).toEqual({ 'ai.response.msToFirstChunk': 5, note: 'from [ip]' });
  });

  it('without content capture the tracer is the plain one (nothing to redact)', () => {
    const provider = new BasicTracerProvider();
    const tracer = provider.getTracer('test');
    expect(startTurnTelemetry('c', { enabled: true, captureContent: false, tracer, redact: (t) => t }).model.tracer).toBe(tracer);
  });
});
