import { chmodSync, copyFileSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSystemPrompt } from '../ai/prompt';
import { requestSplit } from '../debug/request-split';
import { stubEmbedding } from '../testing/stub-embeddings.mjs';
import { embeddingText, kbVersionOf, SEMANTIC_DEFAULTS, sectionVectors, selectContext, type SemanticQuery } from '../retrieval/index';
import { testIndex } from '../testing/kb';
import { withRecord, type TestTurnStart } from '../testing/turns';
import { openTraceDatabase, SqliteStore } from './sqlite';
import { MIGRATIONS } from './sqlite-migrations';
import type { TurnTrace } from './ports/turns';

const index = testIndex();
const INSTRUCTIONS = 'Answer from the knowledge below.';
const kb = kbVersionOf(index, INSTRUCTIONS);
const stores: SqliteStore[] = [];

function tempFile(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'traces-')), 'nested', 'traces.db');
}

function open(file = tempFile()): SqliteStore {
  const store = new SqliteStore(file);
  stores.push(store);
  return store;
}

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

let n = 0;
function turn(question: string, overrides: Partial<Omit<TestTurnStart, 'record'>> = {}, semantic?: SemanticQuery): TestTurnStart {
  n++;
  const explanation = selectContext(index, [question], semantic);
  return withRecord({
    id: `turn-${n}`,
    conversationId: 'conv-aaaaaaaa',
    createdAt: new Date(Date.UTC(2026, 0, 1, 12, 0, n)).toISOString(),
    trigger: 'submit-message',
    customerMessages: [question],
    question,
    explanation,
    systemPrompt: buildSystemPrompt(explanation, index.pinnedContext, INSTRUCTIONS),
    kb,
    provider: 'offline',
    modelId: 'lumacast-extractive-v1',
    selectionUs: 42.4,
    ...overrides,
  });
}

describe('SqliteStore', () => {
  it('creates the schema at open (WAL, user_version) and keeps data across reopen', async () => {
    const file = tempFile();
    const store = open(file);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    await store.startTurn(turn('can I get a refund?'));
    await store.close();
    const again = open(file);
    expect(await again.getTurn(`turn-${n}`)).toMatchObject({ question: 'can I get a refund?', status: 'pending' });
  });

  it('creates the database and its -wal / -shm files 0600 whatever the umask, and tightens an older 0644 one', async () => {
    const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);
    const before = process.umask(0o000); // SQLite alone would create 0644 files here (0666 with umask 0)
    try {
      const file = tempFile();
      const store = open(file);
      await store.startTurn(turn('can I get a refund?'));
      expect([mode(file), mode(`${file}-wal`), mode(`${file}-shm`)]).toEqual(['600', '600', '600']);
      await store.close();
      const old = path.join(mkdtempSync(path.join(tmpdir(), 'traces-old-')), 'traces.db');
      openTraceDatabase(old).close();
      chmodSync(old, 0o644);
      const reopened = openTraceDatabase(old);
      reopened.prepare('INSERT INTO admin_state (key, value) VALUES (?, ?)').run('probe', 1);
      expect([mode(old), mode(`${old}-wal`), mode(`${old}-shm`)]).toEqual(['600', '600', '600']);
      reopened.close();
    } finally {
      process.umask(before);
    }
  });

  it('refuses a path that is not a regular file in a real, writable folder, before creating anything', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'traces-bad-'));
    writeFileSync(path.join(dir, 'a-file'), '');
    expect(() => openTraceDatabase(dir)).toThrow(/must be a regular file \(it is a folder\)/);
    expect(() => openTraceDatabase('/dev/null')).toThrow(/must be a regular file \(it is a character device\)/);
    expect(() => openTraceDatabase(path.join(dir, 'a-file', 'traces.db'))).toThrow(/must be in a folder/);
  });

  it('refuses a database from a newer version of the app', () => {
    const file = tempFile();
    open(file).db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    expect(() => new SqliteStore(file)).toThrow(/newer than this app knows/);
  });

  it('migrates a version-1 database: its turns are kept, with no visitor', async () => {
    // A real version-1 file: the first migration only, and a turn row as that version wrote it.
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'traces-v1-')), 'traces.db');
    const v1 = new Database(file);
    v1.exec(MIGRATIONS[0] as string);
    v1.pragma('user_version = 1');
    v1.prepare(
      `INSERT INTO turns (id, conversation_id, created_at, trigger, status, question, customer_messages, query_terms, floor_used,
         top_score, budget, tokens_pinned, tokens_scored, tokens_floor, tokens_total, explanation, system_prompt, provider, model_id, selection_us)
       VALUES ('turn-v1', 'conv-aaaaaaaa', '2026-11-01T00:00:00.000Z', 'submit-message', 'ok', 'from before', '["from before"]', '[]', 0,
         0, 3700, 0, 0, 0, 0, ?, 'the prompt', 'offline', 'extractive-v1', 10)`,
    ).run(JSON.stringify(selectContext(testIndex(), ['from before'])));
    v1.close();
    const reopened = open(file);
    expect(reopened.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    const [old] = await reopened.listTurnsByConversation('conv-aaaaaaaa');
    expect(old!.question).toBe('from before');
    expect(old!.visitorId).toBeUndefined();
  });

  it('stores each sent or matched section in turn_sections, so section questions are one query', async () => {
    const store = open(); // budget 400: the refund pages do not all fit
    const refund = turn('refund refund timelines 14 days billing');
    const vague = turn('hi, I need some help');
    await store.startTurn(refund);
    await store.startTurn(vague);

    const rows = store.db
      .prepare(
        `SELECT r.section_id, v.reason, v.sent FROM turn_sections s JOIN section_refs r ON r.ref = s.section_ref
         JOIN verdict_reasons v ON v.code = s.reason WHERE s.turn_seq = (SELECT seq FROM turns WHERE id = ?) ORDER BY r.section_id`,
      )
      .all(refund.id) as { section_id: string; reason: string; sent: number }[];
    const expected = refund.explanation.sections.filter((v) => v.reason !== 'no-match').sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(rows.map((r) => [r.section_id, r.reason, r.sent])).toEqual(expected.map((v) => [v.id, v.reason, v.sent ? 1 : 0]));
    expect(rows.find((r) => r.section_id === 'rules.md#refunds')).toMatchObject({ reason: 'pinned', sent: 1 });
    expect(rows.some((r) => r.reason === 'scored')).toBe(true);

    const sentIn = (id: string) =>
      store.db
        .prepare(
          `SELECT t.id FROM turn_sections s JOIN turns t ON t.seq = s.turn_seq JOIN verdict_reasons v ON v.code = s.reason
           WHERE s.section_ref = (SELECT ref FROM section_refs WHERE section_id = ?) AND v.sent = 1 ORDER BY t.id`,
        )
        .pluck()
        .all(id);
    expect(sentIn('rules.md#refunds')).toEqual([refund.id, vague.id].sort());

    const everSent = new Set(
      store.db
        .prepare(
          `SELECT DISTINCT r.section_id FROM turn_sections s JOIN section_refs r ON r.ref = s.section_ref
           JOIN verdict_reasons v ON v.code = s.reason WHERE v.sent = 1`,
        )
        .pluck()
        .all() as string[],
    );
    const neverSent = index.sections.map((s) => s.id).filter((id) => !everSent.has(id));
    expect(neverSent.length).toBeGreaterThanOrEqual(0);
    expect(neverSent.every((id) => !refund.explanation.sentIds.includes(id) && !vague.explanation.sentIds.includes(id))).toBe(true);

    const floorTurns = store.db.prepare('SELECT id FROM turns WHERE floor_used = 1').pluck().all();
    expect(vague.explanation.floorUsed).toBe(true);
    expect(floorTurns).toEqual([refund, vague].filter((t) => t.explanation.floorUsed).map((t) => t.id));
  });

  it('finds turns by words of the question (FTS5) and uses its indexes', async () => {
    const store = open();
    await store.startTurn(turn('How do I start a live stream from OBS?'));
    await store.startTurn(turn('can I get a refund?'));
    const hits = store.db
      .prepare('SELECT t.question FROM turns_question_fts f JOIN turns t ON t.seq = f.rowid WHERE turns_question_fts MATCH ?')
      .pluck()
      .all('streaming');
    expect(hits).toEqual(['How do I start a live stream from OBS?']); // porter stemming: streaming ~ stream
    const plan = (sql: string) => JSON.stringify(store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all());
    expect(plan("SELECT * FROM turns WHERE status = 'error' ORDER BY created_at")).toContain('turns_status');
    expect(plan('SELECT turn_seq FROM turn_sections WHERE section_ref = 1 AND reason = 0')).toMatch(/SEARCH turn_sections USING PRIMARY KEY \(section_ref=\?/);
  });

  it('reads a turn back exactly from its packed record, also from a fresh store that must read the KB version from disk', async () => {
    const file = tempFile();
    const store = open(file);
    const starts = ['can I get a refund?', 'refund refund timelines 14 days billing', 'hi, I need some help', 'live stream OBS latency'].map((q) => turn(q));
    for (const start of starts) await store.startTurn(start);
    await store.close();
    const fresh = open(file);
    for (const start of starts) {
      const trace = (await fresh.getTurn(start.id))!;
      expect(trace.explanation).toStrictEqual(JSON.parse(JSON.stringify(start.explanation)));
      expect(trace.systemPrompt).toBe(start.systemPrompt);
      expect(trace.kbVersion).toBe(kb.hash);
    }
    // Nothing of it is stated beside the packed fields (every record is of format 3), and the KB version was written once.
    const count = (table: string) => (fresh.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number);
    expect(fresh.db.prepare(`SELECT COUNT(*) FROM turns WHERE selection NOT LIKE '{"v":3,%'`).pluck().get()).toBe(0);
    expect(count('kb_versions')).toBe(1);
    expect(count('kb_sections')).toBe(index.sections.length);
    expect(count('texts')).toBe(new Set([...index.sections.map((s) => s.text), INSTRUCTIONS, index.pinnedContext]).size);
    // The conversation lists expand lazily, to the same.
    const listed = await fresh.listTurnsByConversation(starts[0]!.conversationId);
    expect(listed.find((t) => t.id === starts[1]!.id)!.explanation).toStrictEqual(JSON.parse(JSON.stringify(starts[1]!.explanation)));
  });

  it('reads a turn of the semantic stage back exactly (fused, and fallen back), with no exceptions in its record', async () => {
    const store = open();
    const sections = sectionVectors('stub-embed', index.pool.map((s) => Float32Array.from(stubEmbedding(embeddingText(s)))));
    const fused = (q: string): SemanticQuery => ({ kind: 'vector', settings: { model: 'stub-embed', ...SEMANTIC_DEFAULTS, minSimilarity: 0.05 }, sections, query: stubEmbedding(q), ms: 12 });
    const starts = [
      turn('how long until my money comes back?', {}, fused('how long until my money comes back?')),
      turn('live stream OBS latency', {}, fused('live stream OBS latency')),
      turn('can I get a refund?', {}, { kind: 'fallback', model: 'stub-embed', reason: 'the embedding model answered HTTP 500: stub', ms: 3 }),
    ];
    expect(starts[0]!.explanation.sections.some((v) => v.fusion?.semanticRank !== undefined && v.fusion.lexicalRank === undefined)).toBe(true);
    for (const start of starts) await store.startTurn(start);
    for (const start of starts) expect((await store.getTurn(start.id))!.explanation).toStrictEqual(JSON.parse(JSON.stringify(start.explanation)));
    const records = store.db.prepare('SELECT selection FROM turns ORDER BY seq').pluck().all() as string[];
    expect(records.map((r) => 'x' in JSON.parse(r))).toEqual([false, false, false]);
    const stored = store.db.prepare('SELECT selection FROM turns WHERE id = ?').pluck().get(starts[2]!.id) as string;
    expect(JSON.parse(stored)).toMatchObject({ v: 3, stage: ['fallback', 'stub-embed', 'the embedding model answered HTTP 500: stub', 3] });
  });

  it('lists the newest turns’ best scores and floor use, for /debug/health', async () => {
    const store = open();
    const starts = [turn('can I get a refund?'), turn('hi, I need some help'), turn('live stream OBS latency')];
    for (const start of starts) await store.startTurn(start);
    const recent = await store.recentTurnScores(2);
    expect(recent).toEqual(
      starts.slice(1).reverse().map((t) => ({ id: t.id, question: t.question, createdAt: t.createdAt, floorUsed: t.explanation.floorUsed, topScore: t.explanation.topScore })),
    );
    expect(recent.some((r) => r.floorUsed)).toBe(true);
  });

  it('opens an existing v1 database created by another process', () => {
    const file = tempFile();
    open(file);
    const db = new Database(file);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all()).toEqual(
      expect.arrayContaining(['turns', 'turn_sections', 'turns_question_fts']),
    );
    db.close();
  });
});

describe('migrating a database written before compact traces (fixtures/traces-v2.db, schema version 2)', () => {
  const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'traces-v2.db');

  it('keeps every old turn readable with the same explanation and system prompt, the /debug filters and counts working, and records new turns packed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'traces-migrate-'));
    const file = path.join(dir, 'traces.db');
    copyFileSync(FIXTURE, file);
    const before = new Database(file, { readonly: true });
    expect(before.pragma('user_version', { simple: true })).toBe(2);
    const old = before.prepare('SELECT * FROM turns ORDER BY seq').all() as Record<string, string | number | null>[];
    const oldSections = before.prepare('SELECT turn_id, section_id, reason, sent FROM turn_sections ORDER BY turn_id, section_id').all();
    before.close();
    expect(old).toHaveLength(5);

    const store = open(file);
    expect(store.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(store.db.pragma('foreign_key_check')).toEqual([]);
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    for (const row of old) {
      const trace = (await store.getTurn(row.id as string))!;
      const explanation = JSON.parse(row.explanation as string) as TurnTrace['explanation'];
      expect(trace.explanation).toStrictEqual(explanation);
      expect(trace.systemPrompt).toBe(row.system_prompt);
      expect(trace).toMatchObject({ question: row.question, status: row.status, reply: row.reply, conversationId: row.conversation_id, visitorId: row.visitor_id });
      expect(trace.kbVersion).toBeUndefined();
      // What the turn page renders from the trace: the same token split as before the migration.
      const asBefore = { ...trace, explanation, systemPrompt: row.system_prompt as string };
      expect(requestSplit(trace, ['earlier question'])).toEqual(requestSplit(asBefore, ['earlier question']));
    }
    const migratedSections = store.db
      .prepare(
        `SELECT t.id AS turn_id, r.section_id, v.reason, v.sent FROM turn_sections s JOIN turns t ON t.seq = s.turn_seq
         JOIN section_refs r ON r.ref = s.section_ref JOIN verdict_reasons v ON v.code = s.reason ORDER BY t.id, r.section_id`,
      )
      .all();
    expect(migratedSections).toEqual(oldSections);
    expect((await store.listTurns({ text: 'refund' }, 1, 10)).turns.map((t) => t.id)).toEqual(['v2-turn-refund']);
    expect((await store.listTurns({ text: 'money card' }, 1, 10)).turns.map((t) => t.id)).toEqual(['v2-turn-followup']);
    expect((await store.listTurns({ conversationId: 'conv-v2-b' }, 1, 10)).turns.map((t) => t.id)).toEqual(['v2-turn-stream', 'v2-turn-floor']);
    expect((await store.listTurns({ floorUsed: true }, 1, 10)).total).toBe(5);
    expect((await store.listTurns({ status: 'aborted' }, 1, 10)).turns.map((t) => t.id)).toEqual(['v2-turn-stream']);
    expect((await store.listTurns({ section: { id: 'rules.md#refunds', state: 'sent' } }, 1, 10)).total).toBe(5);
    expect((await store.sectionTraffic()).find((t) => t.sectionId === 'rules.md#refunds')).toMatchObject({ sent: 5 });
    expect(await store.countTurns()).toBe(5);

    // The pending turn still finishes once; a new turn is compact and sits beside the old ones.
    expect(await store.finishTurn('v2-turn-pending', { status: 'ok', reply: 'done', totalMs: 1 })).toBe(true);
    expect(await store.finishTurn('v2-turn-pending', { status: 'ok', reply: 'again', totalMs: 1 })).toBe(false);
    const fresh = turn('can I get a refund?', { conversationId: 'conv-v2-a', createdAt: '2026-12-01T10:00:00.000Z' });
    await store.startTurn(fresh);
    expect((await store.getTurn(fresh.id))!.systemPrompt).toBe(fresh.systemPrompt);
    expect((await store.listTurnsByConversation('conv-v2-a')).map((t) => t.id)).toEqual(['v2-turn-refund', 'v2-turn-followup', fresh.id]);
    // The old turns hold what no KB version gives back as their records' exceptions; the new one has none.
    const stated = (id: string) => 'x' in JSON.parse(store.db.prepare('SELECT selection FROM turns WHERE id = ?').pluck().get(id) as string);
    expect([...old.map((row) => stated(row.id as string)), stated(fresh.id)]).toEqual([true, true, true, true, true, false]);
  });
});

describe('SqliteStore on a shared handle', () => {
  it('wraps an open database without migrating again, and leaves it open on close', async () => {
    const file = tempFile();
    const owner = open(file);
    const wrapper = new SqliteStore(owner.db);
    await wrapper.startTurn(turn('shared handle'));
    await wrapper.close();
    expect(owner.db.open).toBe(true);
    expect(await owner.getTurn(`turn-${n}`)).toMatchObject({ question: 'shared handle' });
  });
});
