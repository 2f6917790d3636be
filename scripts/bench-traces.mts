/**
 * Bytes of trace storage per turn (issue 12, 28): `npm run bench:traces [-- --turns 500]`.
 *
 * Runs chat turns through the in-process chat handler (app/api/chat/testing.ts: the demo KB,
 * the offline model streaming without pauses, a trace store in a temporary folder), on varied
 * questions (bench/questions.ts: the golden set's customer questions, then off-topic corpus
 * questions that take the floor path; every fourth turn a follow-up in the previous
 * conversation). The store's size is taken three times, each after `PRAGMA
 * wal_checkpoint(TRUNCATE)` and `VACUUM INTO` a copy: with the schema only, after the first
 * turn (which also writes the KB version, once for all the turns on it), and after the last.
 * Per turn is the growth from the first turn to the last over the turns between: what each
 * turn adds, the KB version not shared out among them.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCommandLineOrExit, wholeNumberFlag, type Cli } from './cli';

const cli: Cli = {
  name: 'bench:traces',
  usage: `usage: npm run bench:traces [-- --turns N] [--tables]

  --turns N     chat turns to record, at least 2 (default: 500)
  --tables      also each table's growth per turn
  -h, --help    this text`,
};
const { values } = parseCommandLineOrExit(cli, { turns: { type: 'string', default: '500' }, tables: { type: 'boolean', default: false } });
const turns = wholeNumberFlag(cli, 'turns', values.turns, 2);

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { default: Database } = await import('better-sqlite3');
const { demoBenchQuestions } = await import('@/bench/questions');
const { chatBody, chatRequest, cookieFrom, harness } = await import('@/app/api/chat/testing');

const questions = demoBenchQuestions();
const { handle, store } = harness();
const folder = mkdtempSync(path.join(tmpdir(), 'bench-traces-'));

/** The store's size now (checkpointed, vacuumed into a copy), and each table's bytes. */
function snapshot(name: string): { bytes: number; tables: Map<string, number> } {
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  const copy = path.join(folder, `${name}.db`);
  store.db.exec(`VACUUM INTO '${copy.replaceAll("'", "''")}'`);
  const db = new Database(copy, { readonly: true });
  try {
    const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as { name: string; bytes: number }[];
    return { bytes: statSync(copy).size, tables: new Map(rows.map((r) => [r.name, r.bytes])) };
  } finally {
    db.close();
  }
}

let conversation = '';
let cookie = '';
let previous = '';
async function turn(i: number): Promise<void> {
  const question = questions[i % questions.length]!;
  const followUp = i % 4 === 3;
  if (!followUp) conversation = `conv-bench-${String(i).padStart(6, '0')}`;
  const messages = followUp
    ? [{ role: 'user' as const, text: previous }, { role: 'assistant' as const, text: '…' }, { role: 'user' as const, text: question }]
    : [{ role: 'user' as const, text: question }];
  const response = await handle(chatRequest(chatBody(messages, conversation), followUp ? { cookie } : {}));
  if (response.status !== 200) throw new Error(`turn ${i}: HTTP ${response.status} ${await response.text()}`);
  if (!followUp) cookie = cookieFrom(response);
  await response.text();
  previous = question;
}

const empty = snapshot('schema');
await turn(0);
const first = snapshot('first');
for (let i = 1; i < turns; i++) await turn(i);
const last = snapshot('last');

const counted = (store.db.prepare("SELECT COUNT(*) AS n FROM turns WHERE status = 'ok'").get() as { n: number }).n;
if (counted !== turns) throw new Error(`${counted} of ${turns} turns were traced ok`);
await store.close();
rmSync(folder, { recursive: true, force: true }); // the snapshots' copies

const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;
const perTurn = (last.bytes - first.bytes) / (turns - 1);
if (values.tables) {
  const grown = [...last.tables].map(([name, bytes]) => [name, (bytes - (first.tables.get(name) ?? 0)) / (turns - 1)] as const).filter(([, b]) => b > 0);
  for (const [name, bytes] of grown.sort((a, b) => b[1] - a[1])) console.log(`${name.padEnd(32)} ${bytes.toFixed(0).padStart(7)} B/turn`);
}
console.log(`schema alone: ${kib(empty.bytes)}; the KB version and the first turn: ${kib(first.bytes - empty.bytes)} (once per KB version)`);
console.log(`${turns} turns on the demo KB: ${last.bytes.toLocaleString('en-US')} bytes after checkpoint + VACUUM; ${kib(perTurn)} per turn (turns 2–${turns})`);
