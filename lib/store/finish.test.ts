import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testTurnStart } from '../testing/turns';
import { finishWithRetry, lostTurns, unsettledEndings, type FinishRetryOptions } from './finish';
import { TurnStartWrite } from './start';
import { SqliteStore } from './sqlite';
import { closeStaleTurns } from './stale';
import type { TurnStore, TurnEnd, TurnStart } from './ports/turns';
import { isUnrecordedEnding } from './unrecorded';

/**
 * Writing a turn's ending through a database blip, on a fake clock: a real SQLite store
 * behind a wrapper whose finishTurn fails as each test says (the database being away).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
let store: SqliteStore;
let errors: string[];
beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-06-01T12:00:00.000Z') });
  store = new SqliteStore(':memory:');
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args.join(' ')));
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await store.close();
});

const END: TurnEnd = { status: 'ok', reply: 'Refunds are reviewed.', finishReason: 'stop', totalMs: 800 };
/** No jitter: each pause is the whole delay (250, 500, 1000, … ms, at most 5 s). */
const STEADY: FinishRetryOptions = { random: () => 1 };

/** The store, with finishTurn failing while `fails(end, call)` says so; the time of each call. */
function flaky(fails: (end: TurnEnd, call: number) => boolean): TurnStore & { calls: number[] } {
  const calls: number[] = [];
  return Object.assign(Object.create(store) as TurnStore, {
    calls,
    async finishTurn(id: string, end: TurnEnd) {
      calls.push(Date.now() - new Date('2026-06-01T12:00:00.000Z').getTime());
      if (fails(end, calls.length)) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      return store.finishTurn(id, end);
    },
  });
}

async function pendingTurn(): Promise<string> {
  const start = testTurnStart('can I get a refund?');
  await store.startTurn(start);
  return start.id;
}

describe('finishWithRetry', () => {
  it('writes the ending at once when the store answers: the first attempt is the whole of it', async () => {
    const id = await pendingTurn();
    const pending = finishWithRetry(store, id, END);
    expect(await pending.first).toBe('recorded');
    expect(await pending.settled).toBe('recorded');
    expect(await store.getTurn(id)).toMatchObject({ status: 'ok', reply: END.reply });
  });

  it('writes the ending once the store answers again (3 failures), the pauses doubling; the caller waits for the first attempt only', async () => {
    const id = await pendingTurn();
    const traces = flaky((_, call) => call <= 3);
    const pending = finishWithRetry(traces, id, END, STEADY);
    expect(await pending.first).toBe('retrying');
    expect(unsettledEndings()).toContain(id);
    await vi.advanceTimersByTimeAsync(1749);
    expect((await store.getTurn(id))!.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending.settled).toBe('recorded');
    expect(traces.calls).toEqual([0, 250, 750, 1750]);
    expect(await store.getTurn(id)).toMatchObject({ status: 'ok', reply: END.reply, finishReason: 'stop', totalMs: 800 });
    expect(unsettledEndings()).not.toContain(id);
    expect(errors.join('\n')).toMatch(/could not write the ending of turn .* \(ok, 21 characters of reply\): connect ECONNREFUSED.*retrying for up to 60 s/);
  });

  it('spreads the retries with jitter, each pause between half and all of its delay, at most 5 s', async () => {
    const id = await pendingTurn();
    const traces = flaky(() => true);
    const random = vi.fn(() => 0);
    void finishWithRetry(traces, id, END, { random }).settled;
    await vi.advanceTimersByTimeAsync(60_000);
    const pauses = traces.calls.slice(1).map((t, i) => t - traces.calls[i]!);
    expect(pauses.slice(0, 6)).toEqual([125, 250, 500, 1000, 2000, 2500]);
    expect(Math.max(...pauses)).toBe(2500);
  });

  it('an ending the store keeps refusing for 60 s: the turn is marked error with the reason (not before), never left pending', async () => {
    const id = await pendingTurn();
    const traces = flaky((end) => end.status === 'ok'); // e.g. a reply the database will not take
    const pending = finishWithRetry(traces, id, END, STEADY);
    await vi.advanceTimersByTimeAsync(59_999);
    expect((await store.getTurn(id))!.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending.settled).toBe('marked-error');
    const trace = (await store.getTurn(id))!;
    expect(trace).toMatchObject({ status: 'error', reply: '', totalMs: 800 });
    expect(trace.error).toBe('the ending (ok, 21 characters of reply) could not be written within 60 s: connect ECONNREFUSED 127.0.0.1:5432');
    expect(isUnrecordedEnding(trace.error)).toBe(true);
    expect(traces.calls.slice(-3)).toEqual([57_750, 60_000, 60_000]); // the last retry at the end of the window, then the mark
    expect(errors.join('\n')).toMatch(/TURN .* MARKED ERROR/);
  });

  it('a store that fails everything: logged loudly, the turn left pending, and the pending-turn sweep closes it later', async () => {
    const id = await pendingTurn();
    const pending = finishWithRetry(flaky(() => true), id, END, STEADY);
    await vi.advanceTimersByTimeAsync(61_000);
    expect(await pending.settled).toBe('unrecorded');
    expect(errors.join('\n')).toMatch(new RegExp(`TURN ${id} IS STILL PENDING: .*could not be marked error either .*the pending-turn sweep will close it`));
    expect((await store.getTurn(id))!.status).toBe('pending');
    expect(await closeStaleTurns(store, 15, { now: Date.now() + 15 * 60_000 })).toBe(1);
    expect((await store.getTurn(id))!.error).toMatch(/^the server stopped before the turn ended/);
  });

  it('a write that committed though its answer was lost counts as recorded (the retry finds the turn ended so)', async () => {
    const id = await pendingTurn();
    const lostAnswer = Object.assign(Object.create(store) as TurnStore, {
      calls: 0,
      async finishTurn(this: { calls: number }, turnId: string, end: TurnEnd) {
        const written = await store.finishTurn(turnId, end);
        if (++this.calls === 1) throw new Error('Connection terminated unexpectedly');
        return written;
      },
    });
    const pending = finishWithRetry(lostAnswer, id, END, STEADY);
    expect(await pending.first).toBe('retrying'); // the store commits on the next pass of the loop, not on the fake clock
    await vi.advanceTimersByTimeAsync(300);
    expect(await pending.settled).toBe('recorded');
  });

  it('a process exiting while an ending is being retried logs the ending it loses', () => {
    const script = `
      import { finishWithRetry } from './lib/store/finish.ts';
      const down = { finishTurn: async () => { throw new Error('connect ECONNREFUSED 127.0.0.1:5432'); } };
      finishWithRetry(down, 'turn-cut-by-shutdown', { status: 'ok', reply: 'Refunds are reviewed.', totalMs: 5 });
      setTimeout(() => process.exit(143), 200); // as next start does on SIGTERM
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(child.status).toBe(143);
    expect(child.stderr).toContain(
      '[traces] THE PROCESS IS EXITING BEFORE THE ENDING OF TURN turn-cut-by-shutdown (ok, 21 characters of reply) COULD BE WRITTEN: it is lost; the pending-turn sweep will mark the turn error',
    );
  });

  it('a turn whose start row is still to write: the start first, then the ending (never the ending alone)', async () => {
    const start = testTurnStart('can I get a refund?');
    const order: string[] = [];
    const traces = Object.assign(Object.create(store) as TurnStore, {
      async startTurn(turn: TurnStart) {
        await new Promise((resolve) => setTimeout(resolve, 40)); // a slow insert
        await store.startTurn(turn);
        order.push('start written');
      },
      async finishTurn(id: string, end: TurnEnd) {
        order.push((await store.getTurn(id)) ? 'ending, after its row' : 'ending BEFORE its row');
        return store.finishTurn(id, end);
      },
    });
    const pending = finishWithRetry(traces, start.id, END, STEADY, new TurnStartWrite(traces, start.id, () => start));
    await vi.advanceTimersByTimeAsync(40);
    expect(await pending.first).toBe('recorded');
    expect(order).toEqual(['start written', 'ending, after its row']);
    expect(await store.getTurn(start.id)).toMatchObject({ status: 'ok', reply: END.reply, explanation: JSON.parse(JSON.stringify(start.explanation)) });
  });

  it('a start that fails (the database away) is written with the ending, whole, once the store answers again', async () => {
    const start = testTurnStart('can I get a refund?');
    let failures = 3;
    const traces = Object.assign(Object.create(store) as TurnStore, {
      async startTurn(turn: TurnStart) {
        if (failures-- > 0) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return store.startTurn(turn);
      },
    });
    const write = new TurnStartWrite(traces, start.id, () => start);
    await expect(write.write()).rejects.toThrow(/ECONNREFUSED/); // the attempt after the reply started
    const pending = finishWithRetry(traces, start.id, END, STEADY, write);
    expect(await pending.first).toBe('retrying');
    expect(await store.getTurn(start.id)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(750);
    expect(await pending.settled).toBe('recorded');
    expect(write.written).toBe(true);
    expect(await store.getTurn(start.id)).toMatchObject({ status: 'ok', reply: END.reply, systemPrompt: start.systemPrompt });
  });

  it('a turn that cannot be written at all within 60 s: logged as not recorded, and counted for /debug health', async () => {
    const start = testTurnStart('can I get a refund?');
    const down = Object.assign(Object.create(store) as TurnStore, {
      async startTurn() {
        throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      },
      async getTurn() {
        throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      },
    });
    const before = lostTurns().count;
    const pending = finishWithRetry(down, start.id, END, STEADY, new TurnStartWrite(down, start.id, () => start));
    await vi.advanceTimersByTimeAsync(61_000);
    expect(await pending.settled).toBe('unrecorded');
    expect(lostTurns().count).toBe(before + 1);
    expect(lostTurns().last).toMatchObject({ turnId: start.id, reason: expect.stringMatching(/^its start and ending \(ok, 21 characters of reply\) could not be written within 60 s: connect ECONNREFUSED/) });
    expect(errors.join('\n')).toMatch(new RegExp(`TURN ${start.id} WAS NOT RECORDED`));
    expect(await store.getTurn(start.id)).toBeUndefined();
  });

  it('a turn that ended already is left as it is, and not retried', async () => {
    const id = await pendingTurn();
    await store.finishTurn(id, { status: 'aborted', reply: 'Refunds', totalMs: 100 });
    const traces = flaky(() => false);
    const pending = finishWithRetry(traces, id, END);
    expect(await pending.first).toBe('refused');
    expect(await pending.settled).toBe('refused');
    expect(traces.calls).toHaveLength(1);
    expect((await store.getTurn(id))!.status).toBe('aborted');
  });
});
