import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { errorText } from '../errors';
import { telemetryOptions, TRACER_NAME, type TelemetryOptions } from './turn';

/**
 * One OpenTelemetry span per hand-off delivery attempt (lib/handoff/worker.ts), exported like a
 * chat turn's when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise a pass-through:
 *
 *     handoff delivery     support_chat.handoff.{id,channel,attempt,reason,outcome}, gen_ai.conversation.id,
 *                          server.address (the receiver's host); status ERROR with the reason when the attempt failed
 *
 * No customer text goes on it (no email, no note, no transcript).
 */

export interface DeliverySpanAttributes {
  handoffId: string;
  conversationId: string;
  channel: string;
  attempt: number;
  reason: string;
  target: string;
}

export type AttemptOutcome = 'sent' | 'retry' | 'failed';

/** Runs one attempt inside its span; `attempt` resolves with the outcome it recorded. */
export async function withDeliverySpan(
  attributes: DeliverySpanAttributes,
  attempt: () => Promise<{ outcome: AttemptOutcome; error?: string }>,
  options: TelemetryOptions = telemetryOptions(),
): Promise<void> {
  if (!options.enabled) {
    await attempt();
    return;
  }
  const tracer = options.tracer ?? trace.getTracer(TRACER_NAME);
  await tracer.startActiveSpan(
    'handoff delivery',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'support_chat.handoff.id': attributes.handoffId,
        'support_chat.handoff.channel': attributes.channel,
        'support_chat.handoff.attempt': attributes.attempt,
        'support_chat.handoff.reason': attributes.reason,
        'gen_ai.conversation.id': attributes.conversationId,
        'server.address': attributes.target,
      },
    },
    async (span) => {
      try {
        const result = await attempt();
        span.setAttribute('support_chat.handoff.outcome', result.outcome);
        if (result.error) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error });
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: errorText(error) });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
