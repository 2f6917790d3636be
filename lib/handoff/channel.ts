import { errorText } from '../errors';
import type { ClaimedDelivery } from '../store/ports/handoffs';

/** One way of delivering a hand-off to the support team: the webhook (webhook.ts) or email (email.ts). */
export interface ChannelSender {
  /** Resolves when the receiver accepted the delivery; throws an Error whose message says why not (shown on /debug). */
  send(delivery: ClaimedDelivery): Promise<void>;
  /** Where it goes, for logs and /debug: a host, never credentials. */
  readonly target: string;
}

/** An error's message with its causes ("fetch failed ← connect ECONNREFUSED 127.0.0.1:9"), at most `max` characters. */
export function errorChainText(error: unknown, max = 500): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const message = errorText(current);
    if (message && !parts.includes(message)) parts.push(message);
    current = current instanceof Error ? current.cause : undefined;
  }
  const text = parts.join(' ← ') || 'unknown error';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
