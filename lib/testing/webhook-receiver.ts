import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A hand-off webhook receiver for tests, on 127.0.0.1, as a helpdesk would write one: it checks
 * each request's Standard Webhooks signature with the `standardwebhooks` package (and refuses a
 * bad one with 401), keeps every verified delivery, and answers 2xx. It can be taken down and
 * brought back on the same port (a receiver outage), answer with an error status, or be slow.
 */

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  /** The three Standard Webhooks headers as they came (to verify again). */
  headers: { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };
  /** The verified, parsed body. */
  body: unknown;
  raw: string;
  /** The status it was answered with. */
  status: number;
}

export interface WebhookReceiver {
  port: number;
  url: string;
  /** Every verified delivery, repeats included, in arrival order. */
  received: ReceivedWebhook[];
  /** Requests whose signature did not verify. */
  refused: number;
  /** The status verified deliveries get (default 204), and how long it waits before answering (a delivery is recorded when it arrives). */
  answer: { status: number; delayMs: number };
  /** Stops listening (connections refused) … */
  down(): Promise<void>;
  /** … and listens again on the same port. */
  up(): Promise<void>;
}

export async function startWebhookReceiver(secret: string, port = 0): Promise<WebhookReceiver> {
  const verifier = new Webhook(secret);
  let server: Server | undefined;
  const receiver: WebhookReceiver = {
    port,
    url: '',
    received: [],
    refused: 0,
    answer: { status: 204, delayMs: 0 },
    async down() {
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => { s.close(() => resolve()); s.closeAllConnections(); });
    },
    async up() {
      if (server) return;
      const s = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (c: Buffer) => chunks.push(c));
        request.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const headers = {
            'webhook-id': String(request.headers['webhook-id'] ?? ''),
            'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
            'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
          };
          let body: unknown;
          try {
            body = verifier.verify(raw, headers);
          } catch {
            receiver.refused++;
            response.writeHead(401).end('bad signature');
            return;
          }
          const status = receiver.answer.status;
          receiver.received.push({ id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], headers, body, raw, status });
          setTimeout(() => response.writeHead(status).end(), receiver.answer.delayMs);
        });
      });
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(receiver.port, '127.0.0.1', () => resolve());
      });
      server = s;
      receiver.port = (s.address() as AddressInfo).port;
      receiver.url = `http://127.0.0.1:${receiver.port}/hooks/support-chat`;
    },
  };
  await receiver.up();
  return receiver;
}
