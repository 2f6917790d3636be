import type { Env } from '../env';
import type { HandoffChannel } from '../store/ports/handoffs';
import type { ChannelSender } from './channel';
import { createEmailSender } from './email';
import { createWebhookSender } from './webhook';

/** The channels the environment sets up: the webhook (HANDOFF_WEBHOOK_URL) and email (SMTP_URL); none when neither is set. */
export function handoffSenders(env: Env): Partial<Record<HandoffChannel, ChannelSender>> {
  const senders: Partial<Record<HandoffChannel, ChannelSender>> = {};
  if (env.HANDOFF_WEBHOOK_URL && env.HANDOFF_WEBHOOK_SECRET) {
    senders.webhook = createWebhookSender({ url: env.HANDOFF_WEBHOOK_URL, secret: env.HANDOFF_WEBHOOK_SECRET, timeoutMs: env.HANDOFF_DELIVERY_TIMEOUT_MS });
  }
  if (env.SMTP_URL && env.HANDOFF_EMAIL_TO) {
    senders.email = createEmailSender({ smtpUrl: env.SMTP_URL, to: env.HANDOFF_EMAIL_TO, from: env.HANDOFF_EMAIL_FROM, timeoutMs: env.HANDOFF_DELIVERY_TIMEOUT_MS });
  }
  return senders;
}
