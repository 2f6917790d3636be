import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A local SMTP server for tests (smtp-server), on 127.0.0.1: it accepts every message (no TLS,
 * no auth) and keeps each with its SMTP envelope — the recipients the server was actually asked
 * to deliver to, which is what "never mail the customer" is checked against — and its raw text,
 * with the headers and the decoded text body read out.
 */

export interface ReceivedMail {
  /** MAIL FROM and RCPT TO, as the client sent them. */
  envelope: { from: string | undefined; to: string[] };
  raw: string;
  /** Header names in lower case; a folded header unfolded. */
  headers: Map<string, string>;
  /** The text/plain body, transfer encoding undone. */
  text: string;
}

export interface SmtpTestServer {
  port: number;
  url: string;
  mails: ReceivedMail[];
  stop(): Promise<void>;
}

export async function startSmtpServer(port = 0): Promise<SmtpTestServer> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          envelope: { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined, to: session.envelope.rcptTo.map((r) => r.address) },
          raw,
          ...parseMail(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as AddressInfo).port;
  return { port: actual, url: `smtp://127.0.0.1:${actual}`, mails, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The headers and the text body of a single-part message (what nodemailer sends for a text-only mail). */
export function parseMail(raw: string): { headers: Map<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const body = raw.slice(split + 4);
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  let bytes: Buffer;
  if (encoding === 'base64') bytes = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  else if (encoding === 'quoted-printable') {
    const soft = body.replace(/=\r?\n/g, '');
    bytes = Buffer.from(soft.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
  } else bytes = Buffer.from(body, 'utf8');
  return { headers, text: bytes.toString('utf8').replace(/\r\n/g, '\n') };
}
