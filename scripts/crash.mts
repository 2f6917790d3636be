/**
 * npm run test:crash — kill the server with SIGKILL in the middle of load, restart it, and
 * check that nothing completed was lost.
 *
 *   npm run test:crash [-- --rounds 3 --seconds 8 --clients 30 --port 3750]
 *
 * Each round: start the production server (on the same trace database every round) against
 * the stub model (40 ms per word, so many replies are mid-stream at any moment), run
 * `--clients` concurrent customers for `--seconds`, each asking, reading the reply to its
 * end and asking again; then SIGKILL the server without warning. After each kill:
 * - the database opens cleanly: PRAGMA integrity_check = ok (the WAL is recovered on open);
 * - every turn whose reply the customer received in full before the kill is in the trace
 *   store with status `ok` and exactly the reply the customer read;
 * - turns cut by the kill stay `pending` (the row written as the reply started streaming)
 *   until the pending-turn sweep marks them `error` TRACE_PENDING_LIMIT_MINUTES after they
 *   started (lib/store/stale.ts): how the inspector tells "the server died mid-turn".
 * After the last round the server starts once more and answers a question. Exits 1 on any loss.
 */
import type { Server } from '@/e2e/spawn';
import { parseCommandLineOrExit, wholeNumberFlag, type Cli } from './cli';

const cli: Cli = {
  name: 'test:crash',
  usage: `usage: npm run test:crash [-- --rounds N] [--seconds S] [--clients N] [--port PORT]

  --rounds N      kill-and-restart rounds (default: 3)
  --seconds S     seconds of load before each kill (default: 8)
  --clients N     concurrent customers (default: 30)
  --port PORT     the server's port; the stub gets PORT + 2 (default: 3750)
  -h, --help      this text

Exit status: 0 nothing completed was lost, 1 a loss.`,
};
const { values } = parseCommandLineOrExit(cli, {
  rounds: { type: 'string', default: '3' },
  seconds: { type: 'string', default: '8' },
  clients: { type: 'string', default: '30' },
  port: { type: 'string', default: '3750' },
});
const ROUNDS = wholeNumberFlag(cli, 'rounds', values.rounds, 1);
const SECONDS = wholeNumberFlag(cli, 'seconds', values.seconds, 1);
const CLIENTS = wholeNumberFlag(cli, 'clients', values.clients, 1);
const PORT = wholeNumberFlag(cli, 'port', values.port, 1);

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { default: Database } = await import('better-sqlite3');
const { question, readChatStream } = await import('@/e2e/helpers');
const { startApp, stubbedServerSetup } = await import('@/e2e/spawn');

const QUESTIONS = ['can I get a refund?', 'how do I start a live stream?', 'why does my video keep buffering?', 'what does the Pro plan cost?'];

interface Completed {
  turnId: string;
  text: string;
}

const { distDir, stub, dbFile, env: serverEnv } = await stubbedServerSetup('crash', PORT);

/** Customers asking until `stop` is set; the turns they read to the end. */
async function customers(app: Server, round: number, stop: { now: boolean }): Promise<{ completed: Completed[]; cut: number }> {
  const completed: Completed[] = [];
  let cut = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; !stop.now; i++) {
        try {
          const response = await fetch(`${app.url}/api/chat`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(question(`crash-r${round}-c${c}-${i}`, QUESTIONS[(c + i) % QUESTIONS.length]!)),
          });
          if (response.status !== 200) throw new Error(`status ${response.status}`);
          const { turnId, text, error } = await readChatStream(response);
          // readChatStream returns only once the body ended: the whole reply reached the customer.
          if (!turnId || error) throw new Error(error ?? 'no turn id');
          completed.push({ turnId, text });
        } catch {
          cut++; // the kill, most likely
          if (stop.now) return;
        }
      }
    }),
  );
  return { completed, cut };
}

function checkDatabase(completed: Completed[]) {
  const db = new Database(dbFile); // read-write: recovers the WAL left by the killed process
  try {
    const integrity = db.pragma('integrity_check', { simple: true }) as string;
    const mode = db.pragma('journal_mode', { simple: true }) as string;
    const turn = db.prepare('SELECT status, reply FROM turns WHERE id = ?');
    let found = 0;
    const lost: string[] = [];
    for (const { turnId, text } of completed) {
      const row = turn.get(turnId) as { status: string; reply: string } | undefined;
      if (row?.status === 'ok' && row.reply === text) found++;
      else lost.push(`${turnId}: ${row ? `status ${row.status}, reply ${row.reply === text ? 'same' : 'different'}` : 'missing'}`);
    }
    const statuses = Object.fromEntries(
      (db.prepare('SELECT status, COUNT(*) AS n FROM turns GROUP BY status').all() as { status: string; n: number }[]).map((r) => [r.status, r.n]),
    );
    return { integrity, mode, found, lost, statuses };
  } finally {
    db.close();
  }
}

const allCompleted: Completed[] = [];
let failed = false;
console.log(`trace database ${dbFile}; build ${distDir}; ${ROUNDS} rounds of ${SECONDS} s with ${CLIENTS} customers, then SIGKILL`);
try {
  for (let round = 1; round <= ROUNDS; round++) {
    const app = await startApp(PORT, serverEnv);
    const stop = { now: false };
    const load = customers(app, round, stop);
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    app.process.kill('SIGKILL');
    const killedAt = Date.now();
    stop.now = true;
    await app.stop('SIGKILL');
    const { completed, cut } = await load;
    allCompleted.push(...completed);
    const check = checkDatabase(allCompleted);
    const ok = check.integrity === 'ok' && check.lost.length === 0;
    failed ||= !ok;
    console.log(
      `== round ${round}: SIGKILL at ${new Date(killedAt).toISOString()}: ${completed.length} replies completed before the kill (${allCompleted.length} so far), ${cut} cut by it\n` +
        `   after the kill: integrity_check ${check.integrity}, journal ${check.mode}; completed turns found ok ${check.found}/${allCompleted.length}; ` +
        `rows by status ${JSON.stringify(check.statuses)}`,
    );
    for (const line of check.lost.slice(0, 10)) console.log(`   LOST ${line}`);
  }
  // The server comes back on the same database and works.
  const app = await startApp(PORT, serverEnv);
  try {
    const response = await fetch(`${app.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(question('crash-after-0001', 'can I get a refund?')),
    });
    const { turnId, text } = await readChatStream(response);
    await new Promise((r) => setTimeout(r, 200));
    const db = new Database(dbFile, { readonly: true });
    const row = db.prepare('SELECT status FROM turns WHERE id = ?').get(turnId) as { status: string } | undefined;
    db.close();
    const healthy = response.status === 200 && text.length > 0 && row?.status === 'ok';
    failed ||= !healthy;
    console.log(`== restarted: /api/chat ${response.status}, reply ${text.length} chars, its trace ${row?.status ?? 'missing'}`);
  } finally {
    await app.stop();
  }
  console.log(
    failed
      ? '== FAILED'
      : `== passed: ${allCompleted.length} turns completed before ${ROUNDS} kills, ${allCompleted.length} found ok; the database opened cleanly every time`,
  );
} finally {
  await stub.stop();
}
process.exit(failed ? 1 : 0);
