import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testTurnStart } from '../testing/turns';
import { GroupCommit } from './group-commit';
import { SqliteStore } from './sqlite';

/**
 * Group commit on a real SQLite file, watched from a second connection: what it sees is what
 * was committed.
 */

let dir: string;
let db: Database.Database;
let observer: Database.Database;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'group-commit-'));
  const file = path.join(dir, 'test.db');
  db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.exec(`
    CREATE TABLE parents (id INTEGER PRIMARY KEY);
    CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE,
      parent INTEGER REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)`);
  observer = new Database(file, { readonly: true });
});
afterEach(() => {
  observer.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const committedNotes = () => observer.prepare('SELECT text FROM notes ORDER BY id').pluck().all();

describe('GroupCommit', () => {
  it('commits the writes submitted in one pass of the loop together: none is visible to another connection before the last is written', async () => {
    const seenByOthers: unknown[][] = [];
    const commit = new GroupCommit(db, (text: string) => {
      seenByOthers.push(committedNotes());
      return Number(db.prepare('INSERT INTO notes (text) VALUES (?)').run(text).lastInsertRowid);
    });
    const ids = await Promise.all(['a', 'b', 'c'].map((text) => commit.submit(text)));
    expect(ids).toEqual([1, 2, 3]);
    expect(seenByOthers).toEqual([[], [], []]);
    expect(committedNotes()).toEqual(['a', 'b', 'c']);
  });

  it('a write that fails fails alone: its promise rejects, the others are committed', async () => {
    const remembered: string[] = [];
    const commit = new GroupCommit(
      db,
      (text: string) => {
        db.prepare('INSERT INTO notes (text) VALUES (?)').run(text);
        if (text === 'bad') throw new Error('refused after its insert');
      },
      (text) => remembered.push(text),
    );
    const outcomes = await Promise.allSettled(['a', 'bad', 'c', 'a'].map((text) => commit.submit(text)));
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? 'ok' : String(o.reason)))).toEqual([
      'ok',
      'Error: refused after its insert',
      'ok',
      'SqliteError: UNIQUE constraint failed: notes.text',
    ]);
    expect(committedNotes()).toEqual(['a', 'c']);
    expect(remembered).toEqual(['a', 'c']); // only what was committed
  });

  it('a batch whose commit fails is written again a write at a time: the one at fault rejects with the reason, the others are committed', async () => {
    const remembered: string[] = [];
    const commit = new GroupCommit(
      db,
      ({ text, parent }: { text: string; parent?: number }) => void db.prepare('INSERT INTO notes (text, parent) VALUES (?, ?)').run(text, parent ?? null),
      ({ text }) => remembered.push(text),
    );
    // A deferred foreign key is checked at COMMIT: the batch's commit fails, after every write went in.
    const outcomes = await Promise.allSettled([commit.submit({ text: 'a' }), commit.submit({ text: 'orphan', parent: 99 }), commit.submit({ text: 'b' })]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? 'ok' : String(o.reason)))).toEqual(['ok', 'SqliteError: FOREIGN KEY constraint failed', 'ok']);
    expect(committedNotes()).toEqual(['a', 'b']);
    expect(remembered).toEqual(['a', 'b']);
    expect(db.inTransaction).toBe(false);
    await commit.submit({ text: 'after' }); // the connection is usable again
    expect(committedNotes()).toEqual(['a', 'b', 'after']);
  });

  it('a batch whose rollback fails too is refused whole: no write runs again inside what is left of its transaction', async () => {
    const reruns: string[] = [];
    let batches = 0;
    const stuck = {
      open: true,
      inTransaction: true, // the failed batch's transaction, still open
      // The batch fails; a write run again would "succeed" as a savepoint inside the stuck transaction.
      transaction: (run: () => unknown) => () => {
        if (batches++ === 0) throw new Error('disk I/O error');
        return run();
      },
      exec: () => {
        throw new Error('cannot rollback: disk I/O error');
      },
    } as unknown as Database.Database;
    const commit = new GroupCommit(stuck, (text: string) => reruns.push(text));
    const outcomes = await Promise.allSettled(['a', 'b'].map((text) => commit.submit(text)));
    expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))).toEqual(['Error: disk I/O error', 'Error: disk I/O error']);
    expect(reruns).toEqual([]);
  });

  it('flush() commits what is queued at once (a store closing loses nothing)', async () => {
    const commit = new GroupCommit(db, (text: string) => void db.prepare('INSERT INTO notes (text) VALUES (?)').run(text));
    const written = commit.submit('queued');
    commit.flush();
    expect(committedNotes()).toEqual(['queued']);
    await written;
    commit.flush(); // nothing queued: nothing happens
  });
});

describe('the SQLite trace store commits turns in groups', () => {
  it('turns started together are all stored; one that cannot be (its id taken) fails alone', async () => {
    const store = new SqliteStore(path.join(dir, 'traces.db'));
    try {
      const first = testTurnStart('can I get a refund?');
      const turns = [first, testTurnStart('how do I cancel?'), { ...testTurnStart('what plans are there?'), id: first.id }, testTurnStart('do you have an API?')];
      const outcomes = await Promise.allSettled(turns.map((turn) => store.startTurn(turn)));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      for (const turn of [turns[0]!, turns[1]!, turns[3]!]) expect(await store.getTurn(turn.id)).toMatchObject({ question: turn.question, status: 'pending' });
      expect((await store.getTurn(first.id))!.question).toBe('can I get a refund?');
      const ended = await Promise.all([store.finishTurn(turns[1]!.id, { status: 'ok', reply: 'Yes.', totalMs: 5 }), store.finishTurn('no-such-turn', { status: 'ok', reply: '', totalMs: 1 })]);
      expect(ended).toEqual([true, false]);
      expect(await store.getTurn(turns[1]!.id)).toMatchObject({ status: 'ok', reply: 'Yes.' });
    } finally {
      await store.close();
    }
  });

  it('close() writes the starts still queued', async () => {
    const file = path.join(dir, 'closing.db');
    const store = new SqliteStore(file);
    const turn = testTurnStart('can I get a refund?');
    const written = store.startTurn(turn);
    await store.close();
    await written;
    const reopened = new SqliteStore(file);
    try {
      expect(await reopened.getTurn(turn.id)).toMatchObject({ question: 'can I get a refund?' });
    } finally {
      await reopened.close();
    }
  });
});
