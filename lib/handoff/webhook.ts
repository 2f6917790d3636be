import { Webhook } from 'standardwebhooks';
import type { ClaimedDelivery } from '../store/ports/handoffs';
import type { ChannelSender } from './channel';

/**
 * The webhook channel: the hand-off's payload POSTed as JSON to HANDOFF_WEBHOOK_URL, signed per
 * the Standard Webhooks spec with the `standardwebhooks` package — `webhook-id` (the hand-off's
 * id, the same on every attempt, so a receiver drops a repeat), `webhook-timestamp` (seconds)
 * and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`). A 2xx answer is a
 * delivery; anything else (a redirect too: it is not followed) or no answer within the timeout is
 * a failed attempt, retried by the worker. How a receiver verifies: docs/handoff.md "Verifying it".
 */
export function createWebhookSender(options: { url: string; secret: string; timeoutMs: number; fetch?: typeof fetch; now?: () => Date }): ChannelSender {
  const signer = new Webhook(options.secret);
  const send = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  return {
    target: new URL(options.url).host,
    async send(delivery: ClaimedDelivery) {
      const at = now();
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'trusty-support-chat (hand-off webhook)',
        'webhook-id': delivery.handoffId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signer.sign(delivery.handoffId, at, delivery.payload),
      };
      let response: Response;
      try {
        response = await send(options.url, { method: 'POST', headers, body: delivery.payload, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
      } catch (error) {
        if (error instanceof Error && error.name === 'TimeoutError') throw new Error(`no answer within ${options.timeoutMs} ms`);
        throw error;
      }
      const body = await response.text().catch(() => '');
      if (response.status < 200 || response.status > 299) {
        throw new Error(`HTTP ${response.status}${body.trim() ? `: ${body.trim().slice(0, 200)}` : ''}`);
      }
    },
  };
}
