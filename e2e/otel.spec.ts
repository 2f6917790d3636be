import { createServer, type Server as HttpServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXTRA_PORT } from './env';
import { question, readChatStream } from './helpers';
import { startApp, type Server } from './spawn';

/**
 * OpenTelemetry export: an app started with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local
 * OTLP/HTTP receiver (JSON protocol) that records what is posted to /v1/traces. After a refund
 * question the exported spans hold the turn, its retrieval span (GenAI retrieval conventions +
 * support_chat.* attributes) and the AI SDK's model-call spans under the turn. A request span
 * carries its path without the query (lib/telemetry/request-span.ts) — with content capture on,
 * the query with its personal data redacted; a second app, content capture off, exports to
 * the same receiver under /off.
 */

const APP_PORT = EXTRA_PORT + 6;
const RECEIVER_PORT = EXTRA_PORT + 7;
const NO_CONTENT_APP_PORT = EXTRA_PORT + 80;

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
let noContentApp: Server;

function exportedSpans(path = '/v1/traces'): Span[] {
  return posts
    .filter((p) => p.path === path)
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
  noContentApp = await startApp(NO_CONTENT_APP_PORT, {
    OPENAI_API_KEY: '',
    TRACE_DB_PATH: path.join(mkdtempSync(path.join(tmpdir(), `e2e-otel-${NO_CONTENT_APP_PORT}-`)), 'traces.db'),
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${RECEIVER_PORT}/off`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
});

test.afterAll(async () => {
  await app?.stop();
  await noContentApp?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

test('a refund question exports the turn, its retrieval span (refund rule pinned, refund policy retrieved) and the model call under it', async () => {
  const response = await fetch(`${app.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(question('conv-otel-0001', 'can I get a refund?')),
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

test('a request span carries the path without the query: with content capture on, the query with its personal data redacted', async () => {
  const PAGE = '/help/no-such-page-for-otel'; // a path nothing else requests (the start-up probes ask /api/health)
  const QUERY = '?email=jan.kowalski%40example.com&plan=pro';
  for (const server of [noContentApp, app]) expect((await fetch(`${server.url}${PAGE}${QUERY}`)).status).toBe(404);
  // Next.js's request spans (the proxy's own span has only the path already).
  const targetsOf = (path: string) => [
    ...new Set(exportedSpans(path).filter((s) => s.attributes['next.span_type'] === 'BaseServer.handleRequest' && String(s.attributes['http.target']).startsWith(PAGE)).map((s) => s.attributes['http.target'])),
  ];
  await expect.poll(() => [targetsOf('/off/v1/traces'), targetsOf('/v1/traces')], { timeout: 15_000 }).toEqual([[PAGE], [`${PAGE}?email=%5Bemail%5D&plan=pro`]]);
  expect(posts.map((p) => p.body).join('\n')).not.toContain('kowalski');
});
