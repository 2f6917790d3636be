import type { Context } from '@opentelemetry/api';
import type { Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * The request span Next.js starts for every request (kind SERVER) carries `http.target`: the
 * request's path and its query. A query holds customer data as often as not — an export's
 * subject (`/api/debug/customer-data/export?kind=email&value=…`), a /debug search (`?q=…`) — and
 * would reach the trace backend whatever the content-capture switch says. This processor
 * rewrites the attribute when the span starts, before any exporter sees it: the path alone; with
 * content capture on (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, the switch that
 * also lets prompts and replies through) the query too, each name and value through `redact`
 * (TRACE_REDACT) as content attributes are. Registered first, before @vercel/otel's exporting
 * processors (instrumentation.ts).
 */

export const REQUEST_TARGET = 'http.target';

export interface RequestTargetOptions {
  captureContent: boolean;
  /** TRACE_REDACT, for the query kept with content capture on. */
  redact: (text: string) => string;
}

export function requestTargetProcessor(options: RequestTargetOptions): SpanProcessor {
  return {
    onStart(span: Span, _context: Context) {
      const target = span.attributes[REQUEST_TARGET];
      if (typeof target === 'string') span.setAttribute(REQUEST_TARGET, requestTarget(target, options));
    },
    onEnd() {},
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}

/** `target` (a path, maybe with `?query` and `#fragment`) as a request span exports it. */
export function requestTarget(target: string, options: RequestTargetOptions): string {
  const queryAt = target.search(/[?#]/);
  if (queryAt < 0) return target;
  const path = target.slice(0, queryAt);
  const query = target[queryAt] === '?' ? target.slice(queryAt + 1).split('#')[0]! : '';
  if (!options.captureContent || !query) return path;
  const params = new URLSearchParams(query);
  const redacted = new URLSearchParams([...params].map(([name, value]) => [options.redact(name), options.redact(value)]));
  return `${path}?${redacted}`;
}
