/**
 * bench:handoff-flood — a flood of hand-offs as the security review made it (issue 46): each
 * hand-off from a new visitor (one chat turn makes one), first from one address, then from
 * several; what reached the support team and what was refused.
 *
 *   npm run bench:handoff-flood [-- --handoffs 40 --addresses 6 --port 3800]
 *
 * Starts a webhook receiver that checks every signature and an SMTP server (lib/testing), the
 * stub model ("fast") and a production server (`next start`, NEXT_DIST_DIR or .next; built when
 * missing) with both hand-off channels and the default hand-off limits. The chat's own rate
 * limit is off (as in the other benchmarks), so a new visitor costs one quick chat turn and only
 * the hand-off limits stand between the flood and the support team. Then, one request at a time:
 *
 * 1. one address (127.0.0.1): `--handoffs` hand-offs, each by a new visitor (a chat turn, then
 *    the hand-off of its conversation, with a note and a Reply-To of the flood's choosing);
 * 2. several addresses (127.0.0.2 …, real source addresses on loopback, in turn): `--handoffs`
 *    from each of `--addresses`.
 *
 * Prints, per phase, the hand-offs accepted (201) and refused (429, by the limit that refused:
 * visitor, address, site), and what was sent: webhooks and mails received, and the hand-offs
 * and delivery rows in the store.
 */
import http from 'node:http';
import path from 'node:path';
import { parseCommandLineOrExit, usageExit, wholeNumberFlag, type Cli } from './cli';

const cli: Cli = {
  name: 'bench:handoff-flood',
  usage: `usage: npm run bench:handoff-flood [-- --handoffs N] [--addresses N] [--port PORT]

  --handoffs N      hand-offs from the one address, and from each of the others (default: 40)
  --addresses N     the addresses of the second phase, 127.0.0.2 and up (default: 6)
  --port PORT       the server's port; the stub gets PORT + 2 (default: 3800)
  -h, --help        this text`,
};
const { values } = parseCommandLineOrExit(cli, { handoffs: { type: 'string', default: '40' }, addresses: { type: 'string', default: '6' }, port: { type: 'string', default: '3800' } });
const HANDOFFS = wholeNumberFlag(cli, 'handoffs', values.handoffs, 1);
const ADDRESSES = wholeNumberFlag(cli, 'addresses', values.addresses, 1);
const PORT = wholeNumberFlag(cli, 'port', values.port, 1);
if (ADDRESSES > 250) usageExit(cli, '--addresses must be at most 250 (127.0.0.2 … 127.0.0.251)');

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { default: Database } = await import('better-sqlite3');
const { question } = await import('@/e2e/helpers');
const { SUPPORT_INBOX, WEBHOOK_SECRET } = await import('@/e2e/handoff-helpers');
const { startApp, stubbedServerSetup } = await import('@/e2e/spawn');
const { startSmtpServer } = await import('@/lib/testing/mail');
const { startWebhookReceiver } = await import('@/lib/testing/webhook-receiver');

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request from the source address `from` (its own kept-alive connection), the answer read to the end. */
const agents = new Map<string, http.Agent>();
function send(url: string, from: string, body: unknown, cookie?: string): Promise<Answer> {
  let agent = agents.get(from);
  if (!agent) agents.set(from, (agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: from })));
  const raw = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(raw), ...(cookie ? { cookie } : {}) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(raw);
  });
}

/** The limit a 429 names (handler.ts's words). */
function refusedBy(answer: Answer): string {
  const error = (JSON.parse(answer.body) as { error?: string }).error ?? '';
  return /from this browser/.test(error) ? 'visitor' : /from your network/.test(error) ? 'address' : /on this site/.test(error) ? 'site' : 'other';
}

const { stub, env, dbFile } = await stubbedServerSetup('bench-handoff-flood', PORT);
await fetch(`${stub.url}/__mode`, { method: 'POST', body: JSON.stringify({ mode: 'fast' }) });
const receiver = await startWebhookReceiver(WEBHOOK_SECRET);
const smtp = await startSmtpServer();
const app = await startApp(PORT, {
  ...env,
  PUBLIC_URL: `http://127.0.0.1:${PORT}`,
  HANDOFF_WEBHOOK_URL: receiver.url,
  HANDOFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
  SMTP_URL: smtp.url,
  HANDOFF_EMAIL_TO: SUPPORT_INBOX,
});

let made = 0;
/** A new visitor's chat turn from `from`, then the hand-off of its conversation: the hand-off's answer. */
async function newVisitorHandoff(from: string): Promise<Answer> {
  const conversationId = `flood-${String(++made).padStart(6, '0')}`;
  const turn = await send(`${app.url}/api/chat`, from, question(conversationId, 'can I get a refund?'));
  const cookie = String(turn.headers['set-cookie'] ?? '').split(';')[0];
  if (turn.status !== 200 || !cookie) throw new Error(`the chat turn from ${from} answered ${turn.status}: ${turn.body.slice(0, 200)}`);
  return send(`${app.url}/api/handoff`, from, { conversationId, email: `reply-to-${made}@flood.example`, note: `flood ${made}`, reason: 'asked' }, cookie);
}

/** What the support team got so far: webhooks and mails received, hand-offs and delivery rows stored. */
function sent(): { webhooks: number; mails: number; handoffs: number; deliveries: number } {
  const db = new Database(dbFile, { readonly: true });
  try {
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { webhooks: receiver.received.length, mails: smtp.mails.length, handoffs: count('handoffs'), deliveries: count('handoff_deliveries') };
  } finally {
    db.close();
  }
}

/** Waits until every stored delivery has reached the receiver or the inbox (or 30 s), then 1 s more for any repeat. */
async function delivered(): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const now = sent();
    if (now.webhooks + now.mails >= now.deliveries || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 1000));
}

async function phase(name: string, sources: string[]): Promise<void> {
  const before = sent();
  const refused = new Map<string, number>();
  let accepted = 0;
  let retryAfter = '';
  const started = performance.now();
  for (let i = 0; i < HANDOFFS; i++) {
    for (const from of sources) {
      const answer = await newVisitorHandoff(from);
      if (answer.status === 201) accepted++;
      else if (answer.status === 429) {
        refused.set(refusedBy(answer), (refused.get(refusedBy(answer)) ?? 0) + 1);
        retryAfter ||= String(answer.headers['retry-after'] ?? '');
      } else throw new Error(`the hand-off from ${from} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  await delivered();
  const after = sent();
  const tried = HANDOFFS * sources.length;
  const by = [...refused].map(([scope, n]) => `${scope} ${n}`).join(', ') || 'none';
  console.log(`\n${name}: ${tried} hand-offs, each by a new visitor, in ${seconds.toFixed(1)} s (${((tried / seconds) * 3600).toFixed(0)} an hour)`);
  console.log(`  accepted (201)        ${accepted}`);
  console.log(`  refused (429)         ${tried - accepted} (by limit: ${by}${retryAfter ? `; first Retry-After ${retryAfter} s` : ''})`);
  console.log(`  sent                  ${after.webhooks - before.webhooks} signed webhooks, ${after.mails - before.mails} mails`);
  console.log(`  stored                ${after.handoffs - before.handoffs} hand-offs, ${after.deliveries - before.deliveries} delivery rows`);
}

try {
  console.log(`bench:handoff-flood against ${app.url} (${process.env.NEXT_DIST_DIR || '.next'}), default hand-off limits, chat rate limit off; webhooks to ${receiver.url}, mail to ${smtp.url}`);
  await phase('one address (127.0.0.1)', ['127.0.0.1']);
  await phase(`${ADDRESSES} more addresses (127.0.0.2 … 127.0.0.${ADDRESSES + 1}), in turn`, Array.from({ length: ADDRESSES }, (_, i) => `127.0.0.${i + 2}`));
  const total = sent();
  console.log(`\nin all: ${total.webhooks} webhooks (${receiver.refused} with a bad signature), ${total.mails} mails, ${total.handoffs} hand-offs stored (${path.basename(dbFile)})`);
} finally {
  for (const agent of agents.values()) agent.destroy();
  await app.stop();
  await stub.stop();
  await receiver.down();
  await smtp.stop();
}
