/**
 * Bytes of trace storage per turn (issue 12): `npm run bench:traces [-- --turns 200]`.
 *
 * Runs chat turns through the in-process chat handler (app/api/chat/testing.ts: the demo KB,
 * the offline model streaming without pauses, a trace store in a temporary folder), on varied
 * questions (bench/questions.ts: the golden set's customer questions, then off-topic corpus
 * questions that take the floor path; every fourth turn a follow-up in the previous
 * conversation). Then `PRAGMA wal_checkpoint(TRUNCATE)`, `VACUUM INTO` a copy, and the copy's
 * size divided by the number of turns.
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { demoBenchQuestions } from '@/bench/questions';
import { chatBody, chatRequest, cookieFrom, harness } from '@/app/api/chat/testing';
import { parseCommandLineOrExit, wholeNumberFlag, type Cli } from './cli';

const cli: Cli = {
  name: 'bench:traces',
  usage: `usage: npm run bench:traces [-- --turns N] [--tables]

  --turns N     chat turns to record (default: 200)
  --tables      also the bytes of each table
  -h, --help    this text`,
};
const { values } = parseCommandLineOrExit(cli, { turns: { type: 'string', default: '200' }, tables: { type: 'boolean', default: false } });
const turns = wholeNumberFlag(cli, 'turns', values.turns, 1);
const questions = demoBenchQuestions();
const { handle, store } = harness();

let conversation = '';
let cookie = '';
let previous = '';
for (let i = 0; i < turns; i++) {
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

const counted = (store.db.prepare("SELECT COUNT(*) AS n FROM turns WHERE status = 'ok'").get() as { n: number }).n;
if (counted !== turns) throw new Error(`${counted} of ${turns} turns were traced ok`);
store.db.pragma('wal_checkpoint(TRUNCATE)');
const copy = process.env.BENCH_TRACES_COPY ?? path.join(mkdtempSync(path.join(tmpdir(), 'bench-traces-')), 'copy.db');
store.db.exec(`VACUUM INTO '${copy.replaceAll("'", "''")}'`);
const bytes = statSync(copy).size;
await store.close();
if (values.tables) {
  const Database = (await import('better-sqlite3')).default;
  const db = new Database(copy, { readonly: true });
  try {
    const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all() as { name: string; bytes: number }[];
    for (const r of rows) console.log(`${r.name.padEnd(32)} ${(r.bytes / 1024).toFixed(1).padStart(9)} KiB  ${(r.bytes / turns).toFixed(0).padStart(7)} B/turn`);
  } finally {
    db.close();
  }
}
console.log(`${turns} turns on the demo KB: ${bytes.toLocaleString('en-US')} bytes after checkpoint + VACUUM = ${(bytes / turns / 1024).toFixed(2)} KiB per turn`);
