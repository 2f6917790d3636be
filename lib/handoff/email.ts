import nodemailer from 'nodemailer';
import type { ClaimedDelivery } from '../store/ports/handoffs';
import type { ChannelSender } from './channel';
import { payloadText, reasonText, type HandoffPayload } from './payload';

/**
 * The email channel: the hand-off mailed through SMTP_URL (nodemailer) to the support inbox
 * HANDOFF_EMAIL_TO — and to nobody else. The customer's address is only the Reply-To, so the
 * support team answers them from their own mail client; it is never a recipient, in a header or
 * the SMTP envelope (the envelope is set explicitly), so the form cannot be used to send mail to
 * anyone. The Message-ID is the hand-off's own: a repeat after a crash is the same message.
 */
export function createEmailSender(options: { smtpUrl: string; to: string; from?: string; timeoutMs: number }): ChannelSender {
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  });
  const from = options.from ?? options.to;
  const domain = from.split('@')[1] ?? 'support-chat.invalid';
  return {
    target: new URL(options.smtpUrl).host,
    async send(delivery: ClaimedDelivery) {
      const payload = JSON.parse(delivery.payload) as HandoffPayload;
      await transport.sendMail({
        from,
        to: options.to,
        replyTo: { name: '', address: payload.data.customer.email },
        envelope: { from, to: [options.to] },
        subject: `Support chat: a customer asks for a person (${reasonText(payload.data.reason)})`,
        text: payloadText(payload),
        messageId: `<${delivery.handoffId}@${domain}>`,
        headers: { 'X-Support-Chat-Handoff': delivery.handoffId },
      });
    },
  };
}
