import { createHash } from 'node:crypto';
import path from 'node:path';
import { context, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { TelemetrySettings } from 'ai';
import { errorText } from '../errors';
import type { Explanation, RetrievalIndex } from '../retrieval/index';
import { redactingTracer } from './redacting-tracer';

/**
 * OpenTelemetry spans of one chat turn, exported when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set — instrumentation.ts then registers the SDK
 * (@vercel/otel, OTLP over HTTP). Unset, every method here is a pass-through: no span, no
 * attribute built, no hash computed.
 *
 *     chat turn                      one per POST /api/chat (gen_ai.conversation.id, support_chat.turn.*)
 *     ├── retrieval                  the selection step, OTel GenAI retrieval conventions + support_chat.*
 *     └── ai.streamText …            the AI SDK's own spans (experimental_telemetry), model call under them
 *
 * Content (the customer's question on the retrieval span, prompts and replies on the AI SDK
 * spans) is recorded only with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, the
 * GenAI instrumentations' standard switch — and with TRACE_REDACT on, every string attribute
 * passes through the redactor first (redacting-tracer.ts), so content carries no personal data.
 * The variables are the OTel SDK's own, read here from process.env rather than lib/env.ts.
 */

export const TRACER_NAME = 'support-chat';

export interface TelemetryOptions {
  enabled: boolean;
  /** Record message content (query text, prompts, replies). */
  captureContent: boolean;
  tracer?: Tracer;
  /** TRACE_REDACT: applied to every string attribute of the turn's spans when content is captured. */
  redact?: (text: string) => string;
}

export function telemetryOptions(environment: Record<string, string | undefined> = process.env): TelemetryOptions {
  return {
    enabled: Boolean(environment.OTEL_EXPORTER_OTLP_ENDPOINT || environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
    captureContent: environment.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.toLowerCase() === 'true',
  };
}

const versions = new WeakMap<RetrievalIndex, string>();

/**
 * A version of the loaded KB: the first 16 hex digits of SHA-256 over every section's id,
 * token count and text, in file order. Computed once per loaded index (~1 ms for the demo KB).
 */
export function knowledgeVersion(index: RetrievalIndex): string {
  let version = versions.get(index);
  if (!version) {
    const hash = createHash('sha256');
    for (const s of index.sections) hash.update(`${s.id}\t${s.tokens}\t${s.text}\0`);
    version = hash.digest('hex').slice(0, 16);
    versions.set(index, version);
  }
  return version;
}

/** The retrieval span's attributes for one selection. */
export function retrievalAttributes(explanation: Explanation, kb: { path: string; index: RetrievalIndex }, captureContent: boolean) {
  const verdicts = new Map(explanation.sections.map((v) => [v.id, v]));
  const sent = explanation.sentIds.map((id) => verdicts.get(id)).filter((v) => v !== undefined);
  const dropped = explanation.sections.filter((v) => v.reason === 'over-budget');
  return {
    'gen_ai.operation.name': 'retrieval',
    'gen_ai.data_source.id': path.basename(kb.path),
    ...(captureContent ? { 'gen_ai.retrieval.query.text': explanation.query.question } : {}),
    // Pinned sections are sent unscored: they are listed in support_chat.retrieval.pinned_ids.
    'gen_ai.retrieval.documents': JSON.stringify(sent.filter((v) => !v.pinned).map((v) => ({ id: v.id, score: v.score }))),
    'support_chat.retrieval.pinned_ids': sent.filter((v) => v.pinned).map((v) => v.id),
    'support_chat.retrieval.sent_ids': explanation.sentIds,
    'support_chat.retrieval.dropped_ids': dropped.map((v) => v.id),
    'support_chat.retrieval.dropped': JSON.stringify(dropped.map((v) => ({ id: v.id, reason: v.reason, score: v.score, tokens: v.tokens }))),
    'support_chat.retrieval.floor_used': explanation.floorUsed,
    'support_chat.retrieval.top_score': explanation.topScore,
    'support_chat.retrieval.budget': explanation.budget,
    'support_chat.retrieval.tokens.pinned': explanation.tokens.pinned,
    'support_chat.retrieval.tokens.scored': explanation.tokens.scored,
    'support_chat.retrieval.tokens.floor': explanation.tokens.floor,
    'support_chat.retrieval.tokens.total': explanation.tokens.total,
    'support_chat.kb.version': knowledgeVersion(kb.index),
    'support_chat.kb.sections': kb.index.sections.length,
  };
}

type Callback = ((event: never) => unknown) | undefined;
type EndingCallbacks = { onFinish?: Callback; onError?: Callback; onAbort?: Callback };

export interface TurnTelemetry {
  /** Runs the turn's retrieval inside the retrieval span (a child of the turn span). */
  retrieval<T extends { explanation: Explanation }>(kb: { path: string; index: RetrievalIndex }, run: () => Promise<T>): Promise<T>;
  /** Runs `fn` (the streamText call) with the turn span active: the AI SDK's spans become its children. */
  run<T>(fn: () => T): T;
  /** streamText's `experimental_telemetry`. */
  readonly model: TelemetrySettings;
  /** The recorder's callbacks, also ending the turn span with the turn (ok, error or aborted). */
  track<C extends EndingCallbacks>(turnId: string, callbacks: C): C;
  /** Ends the turn span early (the turn could not be served). */
  end(error?: unknown): void;
}

const DISABLED: TurnTelemetry = {
  retrieval: (_kb, run) => run(),
  run: (fn) => fn(),
  model: { isEnabled: false },
  track: (_turnId, callbacks) => callbacks,
  end: () => {},
};

/** The telemetry of one turn; a no-op unless an OTLP endpoint is configured. */
export function startTurnTelemetry(conversationId: string, options: TelemetryOptions = telemetryOptions()): TurnTelemetry {
  if (!options.enabled) return DISABLED;
  const base = options.tracer ?? trace.getTracer(TRACER_NAME);
  const tracer = options.captureContent && options.redact ? redactingTracer(base, options.redact) : base;
  const turn: Span = tracer.startSpan('chat turn', { kind: SpanKind.INTERNAL, attributes: { 'gen_ai.conversation.id': conversationId } });
  const turnContext = trace.setSpan(context.active(), turn);
  let ended = false;
  const end = (status: 'ok' | 'error' | 'aborted', error?: unknown) => {
    if (ended) return;
    ended = true;
    turn.setAttribute('support_chat.turn.status', status);
    if (status === 'error') {
      turn.setStatus({ code: SpanStatusCode.ERROR, message: errorText(error) });
      if (error instanceof Error) turn.setAttribute('error.type', error.name);
    }
    turn.end();
  };
  const after =
    <E>(callback: ((event: E) => unknown) | undefined, status: 'ok' | 'error' | 'aborted') =>
    async (event: E) => {
      try {
        await callback?.(event);
      } finally {
        end(status, status === 'error' ? (event as { error?: unknown }).error : undefined);
      }
    };

  return {
    async retrieval(kb, run) {
      const span = tracer.startSpan('retrieval', { kind: SpanKind.INTERNAL }, turnContext);
      try {
        const result = await run();
        span.setAttributes(retrievalAttributes(result.explanation, kb, options.captureContent));
        return result;
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: errorText(error) });
        throw error;
      } finally {
        span.end();
      }
    },
    run: (fn) => context.with(turnContext, fn),
    model: {
      isEnabled: true,
      recordInputs: options.captureContent,
      recordOutputs: options.captureContent,
      functionId: 'chat-turn',
      tracer,
    },
    track(turnId, callbacks) {
      turn.setAttribute('support_chat.turn.id', turnId);
      return {
        ...callbacks,
        onFinish: after(callbacks.onFinish, 'ok'),
        onError: after(callbacks.onError, 'error'),
        onAbort: after(callbacks.onAbort, 'aborted'),
      };
    },
    end: (error) => end('error', error),
  };
}
