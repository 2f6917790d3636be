import { createServer, type Server as HttpServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXTRA_PORT } from './env';
import { chatBody, readChatStream } from './helpers';
import { startApp, type Server } from './spawn';

/**
 * OpenTelemetry export: an app started with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local
 * OTLP/HTTP receiver (JSON protocol) that records what is posted to /v1/traces. After a refund
 * question the exported spans hold the turn, its retrieval span (GenAI retrieval conventions +
 * support_chat.* attributes) and the AI SDK's model-call spans under the turn.
 */

const APP_PORT = EXTRA_PORT + 6;
const RECEIVER_PORT = EXTRA_PORT + 7;

type AnyValue = { stringValue?: string; boolValue?: boolean; intValue?: number | string; doubleValue?: number; arrayValue?: { values?: AnyValue[] } };
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: AnyValue }[];
}
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
}

function valueOf(v: AnyValue): unknown {
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(valueOf);
  if (v.intValue !== undefined) return Number(v.intValue);
  return v.stringValue ?? v.boolValue ?? v.doubleValue;
}

const posts: { path: string; contentType: string; body: string }[] = [];
let receiver: HttpServer;
let app: Server;

function exportedSpans(): Span[] {
  return posts
    .filter((p) => p.path === '/v1/traces')
    .flatMap((p) => (JSON.parse(p.body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans)
    .flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))
    .map((s) => ({ ...s, attributes: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, valueOf(a.value)])) }));
}

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      posts.push({ path: request.url ?? '', contentType: request.headers['content-type'] ?? '', body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(RECEIVER_PORT, '127.0.0.1', resolve));
  app = await startApp(APP_PORT, {
    OPENAI_API_KEY: '',
    TRACE_DB_PATH: path.join(mkdtempSync(path.join(tmpdir(), `e2e-otel-${APP_PORT}-`)), 'traces.db'),
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${RECEIVER_PORT}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
  });
});

test.afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

test('a refund question exports the turn, its retrieval span (refund rule pinned, refund policy retrieved) and the model call under it', async () => {
  const response = await fetch(`${app.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(chatBody('conv-otel-0001', [{ role: 'user', text: 'can I get a refund?' }])),
  });
  expect(response.status).toBe(200);
  const { turnId, text } = await readChatStream(response);
  expect(text).toContain('Refund');

  let retrieval: Span | undefined;
  let turn: Span | undefined;
  await expect
    .poll(() => {
      const spans = exportedSpans();
      turn = spans.find((s) => s.name === 'chat turn' && s.attributes['support_chat.turn.id'] === turnId);
      retrieval = spans.find((s) => s.name === 'retrieval' && s.parentSpanId === turn?.spanId);
      return Boolean(turn && retrieval && spans.some((s) => s.name === 'ai.streamText.doStream'));
    }, { timeout: 15_000 })
    .toBe(true);
  expect(posts.find((p) => p.path === '/v1/traces')!.contentType).toContain('application/json');

  const spans = exportedSpans().filter((s) => s.traceId === turn!.traceId);
  const a = retrieval!.attributes;
  expect(a['gen_ai.operation.name']).toBe('retrieval');
  expect(a['gen_ai.data_source.id']).toBe('content');
  expect(a['gen_ai.retrieval.query.text']).toBe('can I get a refund?');
  expect(a['support_chat.retrieval.pinned_ids']).toContain('rules/assistant-rules.md#refunds');
  const documents = JSON.parse(a['gen_ai.retrieval.documents'] as string) as { id: string; score: number }[];
  const policy = documents.find((d) => d.id === 'billing/refund-policy.md#refund-policy');
  expect(policy?.score).toBeGreaterThan(0);
  expect(a['support_chat.retrieval.floor_used']).toBe(false);
  expect(a['support_chat.kb.version']).toMatch(/^[0-9a-f]{16}$/);
  expect(Number(a['support_chat.retrieval.tokens.total'])).toBe(
    Number(a['support_chat.retrieval.tokens.pinned']) + Number(a['support_chat.retrieval.tokens.scored']) + Number(a['support_chat.retrieval.tokens.floor']),
  );
  expect(Array.isArray(a['support_chat.retrieval.dropped_ids'])).toBe(true);

  // The AI SDK's spans are children of the turn: ai.streamText → ai.streamText.doStream (the model call).
  const streamText = spans.find((s) => s.name === 'ai.streamText');
  expect(streamText?.parentSpanId).toBe(turn!.spanId);
  const doStream = spans.find((s) => s.name === 'ai.streamText.doStream');
  expect(doStream?.parentSpanId).toBe(streamText!.spanId);
  expect(doStream!.attributes['ai.model.provider']).toBe('offline');
  expect(turn!.attributes['gen_ai.conversation.id']).toBe('conv-otel-0001');
  expect(turn!.attributes['support_chat.turn.status']).toBe('ok');
});
