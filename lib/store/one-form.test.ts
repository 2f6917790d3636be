import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../testing/pg-database';
import { createPostgresPool, PostgresStore } from './postgres';
import { decodeQuery, encodeQuery } from '../retrieval/index';
// The old forms' reader, from inside lib/retrieval (a test may reach past its entry point).
import { expandSelection } from '../retrieval/explain/record/from-record';
import { decodeSelection } from '../retrieval/explain/record/legacy-record';
import { kbVersionFromRows, SELECT_KB_SECTIONS, SELECT_KB_VERSION, summaryFromRow, type KbSectionRow, type KbVersionRow, type TurnRow } from './rows';
import { POSTGRES_MIGRATIONS } from './postgres-migrations';
import type { ServerStore } from './server-store';
import { SqliteStore } from './sqlite';
import { MIGRATIONS } from './sqlite-migrations';
import type { TurnTrace } from './ports/turns';

/**
 * The migration to one stored form (one-form.ts), on stores written by the version before it
 * (commit 4fd1c6c: SQLite schema 8, PostgreSQL schema 6; fixtures/README.md says how they were
 * made): turns whose selection was stored packed, compact (formats 2) and whole, with framed and
 * whole prompts. After it every turn reads back as that version read it: the same trace, field
 * for field, explanation and system prompt included.
 */

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const unpack = (file: string) => brotliDecompressSync(readFileSync(path.join(FIXTURES, file)));
const expected = JSON.parse(unpack('expected.json.br').toString('utf8')) as { turns: TurnTrace[]; postgresFinishedAt: Record<string, string> };

const opened: ServerStore[] = [];
afterAll(async () => {
  for (const store of opened.splice(0)) await store.close();
});

/** The SQLite file that version left, copied out of the fixture. */
function oldSqlite(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'store-v8-')), 'traces.db');
  writeFileSync(file, unpack('store-v8.db.br'));
  return file;
}

/** A new database holding what that version left in PostgreSQL (its pg_dump, run through a client of its own). */
async function oldPostgres(): Promise<string> {
  const url = await freshDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(unpack('store-pg6.sql.br').toString('utf8'));
  } finally {
    await client.end();
  }
  return url;
}

const BACKENDS = [
  {
    name: 'SQLite',
    async open() {
      const store = new SqliteStore(oldSqlite());
      opened.push(store);
      return { store, records: () => store.db.prepare('SELECT id, selection FROM turns ORDER BY seq').all() as { id: string; selection: string }[] };
    },
    expected: (t: TurnTrace) => t,
  },
  {
    name: 'PostgreSQL',
    async open() {
      const store = new PostgresStore(createPostgresPool(await oldPostgres()));
      opened.push(store);
      await store.ready();
      return { store, records: async () => (await store.pool.query<{ id: string; selection: string }>('SELECT id, selection FROM turns ORDER BY seq')).rows };
    },
    expected: (t: TurnTrace) => (t.finishedAt ? { ...t, finishedAt: expected.postgresFinishedAt[t.id] } : t),
  },
];

describe.each(BACKENDS)('migrating a $name store written by the version before one stored form', (backend) => {
  it('reads every old turn back as that version did: its explanation and system prompt identical, every other field too', async () => {
    const { store } = await backend.open();
    expect(expected.turns.length).toBe(50);
    for (const old of expected.turns) {
      const trace = await store.getTurn(old.id);
      expect(JSON.parse(JSON.stringify(trace))).toStrictEqual(backend.expected(old));
    }
    // A conversation's turns, expanded when first read (lazily), to the same.
    const conversation = expected.turns.filter((t) => t.conversationId === expected.turns[3]!.conversationId);
    const listed = await store.listTurnsByConversation(conversation[0]!.conversationId);
    expect(listed.map((t) => t.id)).toEqual(conversation.map((t) => t.id));
    for (const [i, t] of listed.entries()) {
      expect(t.explanation).toStrictEqual(conversation[i]!.explanation);
      expect(t.systemPrompt).toBe(conversation[i]!.systemPrompt);
    }
  });

  it('leaves one form: every record packed (format 3, or 4 with what it states beside), no payload table, and refuses an older form', async () => {
    const { store, records } = await backend.open();
    const formats = (await records()).map((r) => (JSON.parse(r.selection) as { v: number }).v);
    expect(new Set(formats)).toEqual(new Set([3, 4]));
    await expect(store.countTurns()).resolves.toBe(50);
    const run = async (sql: string) => (store instanceof SqliteStore ? store.db.exec(sql) : (store as PostgresStore).pool.query(sql));
    await expect(run('SELECT COUNT(*) FROM turn_payloads')).rejects.toThrow(/turn_payloads/);
    // An instance of an older version still writing a compact (format 2) or whole turn: refused.
    const insert = (selection: string | null) =>
      run(`INSERT INTO turns (id, conversation_id, created_at, trigger, status, question, customer_messages, floor_used, top_score, budget,
             tokens_pinned, tokens_scored, tokens_floor, tokens_total, n_sections, n_pinned, n_matched, n_scored, n_floor, n_over_budget,
             n_no_match, n_omitted, selection, provider, model_id, selection_us)
           VALUES ('older-${Math.random()}', 'conv-older', '2026-12-01T00:00:00.000Z', 'submit-message', 'pending', 'q', '["q"]', 0, 0, 400,
             0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ${selection === null ? 'NULL' : `'${selection}'`}, 'offline', 'old', 1)`);
    await expect(insert('{"v":2,"idfs":[],"verdicts":[],"noMatchListed":0,"sent":[]}')).rejects.toThrow(/one stored form|turns_one_form/);
    await expect(insert(null)).rejects.toThrow(/one stored form|turns_one_form/);
    await expect(store.countTurns()).resolves.toBe(50);
  });
});

describe('the schema versions of one stored form', () => {
  it('is SQLite schema 9 and PostgreSQL schema 7', () => {
    expect([MIGRATIONS.length, POSTGRES_MIGRATIONS.length]).toEqual([9, 7]);
  });
});

describe('a turn stored compact, as a newer version of that format might have written it: what the migration does not know is read as such, not refused', () => {
  /** A fused turn the version before one stored form stored compact (format 2), as its store holds it: its row, its KB version and how that version read it. */
  function oldTurn() {
    const db = new Database(oldSqlite(), { readonly: true });
    try {
      const row = db.prepare("SELECT * FROM turns WHERE id = 'old-031'").get() as TurnRow;
      const kb = kbVersionFromRows(
        db.prepare(`${SELECT_KB_VERSION} WHERE v.id = ?`).get(row.kb_version) as KbVersionRow,
        db.prepare(`${SELECT_KB_SECTIONS} WHERE s.kb_version = ? ORDER BY s.position`).all(row.kb_version) as KbSectionRow[],
      );
      return { row, kb, explanation: expected.turns.find((t) => t.id === 'old-031')!.explanation };
    } finally {
      db.close();
    }
  }

  /** That turn as a newer version might have stored it: the same record, with values and fields this version has never seen. */
  function newerRecord() {
    const { row, kb, explanation } = oldTurn();
    const query = JSON.parse(row.query!) as { terms: unknown[][]; [key: string]: unknown };
    query.terms[0]![2] = 'phonetic'; // a term source added later (as `variant` was)
    query.terms[0]!.push('from-word', null, 0.5); // from, no clause, and a trailing element
    query.spellingModel = 'v2';
    const selection = JSON.parse(row.selection!) as { v: number; verdicts: unknown[][]; s: { stage: unknown[] }; [key: string]: unknown };
    expect(selection.v).toBe(2);
    selection.v = 3;
    selection.rerank = { model: 'x' };
    const changed = selection.verdicts.findIndex((v) => v[2] !== undefined && v[2] !== null); // a ranked verdict
    selection.verdicts[changed]![1] = 9; // a reason code added later
    selection.verdicts[changed]!.push('a note');
    selection.s.stage = ['reranked', 'stub-embed', 12, 'cross-encoder'];
    return { row, kb, explanation, query: JSON.stringify(query), selection: JSON.stringify(selection), changed };
  }

  it('an unknown term source, reason code or stage status; unknown fields and trailing elements; a newer format number', () => {
    const { row, kb, explanation, query, selection, changed } = newerRecord();
    const decodedQuery = decodeQuery(row.question, query);
    expect(decodedQuery.terms[0]).toEqual({ term: explanation.query.terms[0]!.term, weight: explanation.query.terms[0]!.weight, source: 'phonetic', from: 'from-word' });
    expect(decodedQuery.terms.slice(1)).toEqual(decodeQuery(row.question, encodeQuery(explanation.query)).terms.slice(1));
    const decoded = decodeSelection(selection);
    expect(decoded.semantic?.stage).toEqual({ status: 'reranked', model: 'stub-embed' });
    const read = expandSelection(decoded, decodedQuery, summaryFromRow(row), kb);
    const verdict = read.sections.find((v) => v.id === explanation.sections.filter((s) => !s.pinned)[changed]!.id)!;
    const original = explanation.sections.find((v) => v.id === verdict.id)!;
    expect(verdict).toMatchObject({ reason: 'unknown', sent: original.sent, rank: original.rank, score: original.score });
    // everything else reads back as it was written
    expect(read.sections.filter((v) => v.id !== verdict.id).map(({ fusion, ...v }) => v)).toEqual(
      explanation.sections.filter((v) => v.id !== verdict.id).map(({ fusion, ...v }) => v),
    );
    expect(read.sentIds).toEqual(explanation.sentIds);
    expect(read.context).toBe(explanation.context);
  });
});
