import { SpanKind } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../privacy/redact';
import { requestTargetProcessor } from './request-span';

/**
 * The request span's `http.target` as it is exported: the span is started the way Next.js
 * starts its request span (BaseServer.handleRequest: kind SERVER, `http.method` and
 * `http.target` — the URL's path and query — given at the start), through the SDK's own
 * tracer provider with this processor registered before the exporting one, as
 * instrumentation.ts registers it with @vercel/otel.
 */

const redactor = createRedactor({ mode: 'store', phoneRegion: 'US' });
const redact = (text: string) => redactor.redact(text).text;

function exportedTarget(target: string, captureContent: boolean): unknown {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [requestTargetProcessor({ captureContent, redact }), new SimpleSpanProcessor(exporter)] });
  provider.getTracer('next.js').startActiveSpan('GET', { kind: SpanKind.SERVER, attributes: { 'http.method': 'GET', 'http.target': target } }, (span) => span.end());
  const [span] = exporter.getFinishedSpans();
  return span!.attributes['http.target'];
}

const EXPORT = '/api/debug/customer-data/export?kind=email&value=jan.kowalski%40example.com';
const SEARCH = '/debug?q=jan.kowalski%40example.com+refund&status=ok#top';

describe('the request span carries the path, not the query', () => {
  it('content capture off (the default): the path alone', () => {
    expect(exportedTarget(EXPORT, false)).toBe('/api/debug/customer-data/export');
    expect(exportedTarget(SEARCH, false)).toBe('/debug');
    expect(exportedTarget('/help/billing', false)).toBe('/help/billing');
  });

  it('content capture on: the query too, its personal data redacted (TRACE_REDACT), the fragment gone', () => {
    expect(exportedTarget(EXPORT, true)).toBe('/api/debug/customer-data/export?kind=email&value=%5Bemail%5D');
    expect(exportedTarget(SEARCH, true)).toBe('/debug?q=%5Bemail%5D+refund&status=ok');
  });

  it('other spans are left as they are', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [requestTargetProcessor({ captureContent: false, redact }), new SimpleSpanProcessor(exporter)] });
    provider.getTracer('support-chat').startActiveSpan('retrieval', { attributes: { 'gen_ai.operation.name': 'retrieval' } }, (span) => span.end());
    expect(exporter.getFinishedSpans()[0]!.attributes).toEqual({ 'gen_ai.operation.name': 'retrieval' });
  });
});
