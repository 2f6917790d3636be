import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testTurnStart } from '@/lib/testing/turns';
import { SqliteStore } from '@/lib/store/sqlite';
import type { HandoffStart } from '@/lib/store/ports/handoffs';

/**
 * `npm run data:delete` as a process, on a SQLite file: the counts it reports are what went,
 * an email is matched whole, and nothing of the customer is left in the file or its WAL.
 */

const ROOT = path.resolve(import.meta.dirname, '..');

function dataDelete(dbFile: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, TRACE_DB_PATH: dbFile, DATABASE_URL: '' };
    execFile(process.execPath, ['--import', 'tsx', path.join('scripts', 'data-delete.mts'), ...args], { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

function handoff(id: string, visitorId: string, email: string, note: string): HandoffStart {
  return {
    id,
    conversationId: `conv-${id}`,
    visitorId,
    createdAt: '2026-03-01T10:00:00.000Z',
    reason: 'asked',
    email,
    note,
    payload: '{}',
    channels: ['email'],
    retryUntil: '2026-03-02T10:00:00.000Z',
  };
}

describe('data:delete', () => {
  it('--user: a hand-off made before any question goes, and the counts say so; --email: only the exact address; nothing left in the file or its WAL', { timeout: 120_000 }, async () => {
    const dbFile = path.join(mkdtempSync(path.join(tmpdir(), 'data-delete-')), 'traces.db');
    const store = new SqliteStore(dbFile);
    await store.createHandoff(handoff('ho-first', 'user:user-77', 'uma@example.com', 'umasnote call after six'));
    for (const [id, visitorId, question] of [
      ['t-an', 'visitor-an', 'refund for an@example.com please'],
      ['t-jan', 'visitor-jan', 'refund for jan@example.com please'],
    ] as const) {
      await store.startTurn(testTurnStart(question, { id, visitorId, conversationId: `conv-${id}` }));
      await store.finishTurn(id, { status: 'ok', reply: 'ok', totalMs: 1 });
    }
    // The store stays open, as a running server's would: the CLI's closing then leaves the WAL in place.

    const byUser = await dataDelete(dbFile, ['--user', 'user-77']);
    expect(byUser).toEqual({ code: 0, stdout: 'deleted 0 turns, 1 conversations, 0 feedback, 1 hand-offs (1 visitor); recorded in the audit trail\n', stderr: '' });

    const byEmail = await dataDelete(dbFile, ['--email', 'AN@Example.com', '--json']);
    expect(byEmail.code).toBe(0);
    expect(JSON.parse(byEmail.stdout)).toEqual({ counts: { turns: 1, conversations: 1, feedback: 0, 'hand-offs': 0 }, visitors: 1 });

    const again = await dataDelete(dbFile, ['--email', 'an@example.com']);
    expect(again.stdout).toBe('deleted 0 turns, 0 conversations, 0 feedback, 0 hand-offs (0 visitors); recorded in the audit trail\n');

    expect((await store.listTurns({}, 1, 10)).turns.map((t) => t.id)).toEqual(['t-jan']);
    const wal = readFileSync(`${dbFile}-wal`);
    const bytes = Buffer.concat([readFileSync(dbFile), wal]).toString('latin1');
    for (const gone of ['umasnote', 'uma@example.com', 'for an@example.com']) expect(bytes.includes(gone), gone).toBe(false);
    expect(bytes.includes('jan@example.com')).toBe(true);
    await store.close();
  });
});
