import type { LanguageModelUsage } from 'ai';
import { describeModelError } from '../ai/errors';
import { finishWithRetry, type FinishOutcome, type FinishRetryOptions, type PendingFinish } from '../store/finish';
import type { TurnStartWrite } from '../store/start';
import { storeErrorText } from '../store/unrecorded';
import type { Redacted } from '../privacy/redact';
import type { TurnStore, TurnEnd, TurnUsage, NumberCheck } from '../store/ports/turns';

/**
 * Records one turn: its start row (`pending`) once the reply has started, and exactly one
 * ending from streamText's callbacks, the first that happens: finish (ok), error, or abort
 * (the customer pressed Stop or went away).
 *
 *     const recorder = new TurnRecorder(store, turnId, startedAt, { start });
 *     recorder.watch(request.signal);
 *     streamText({ …, ...recorder.callbacks });
 *     recorder.begin(); // once the response is on its way
 *
 * The ending is written by lib/store/finish.ts, after the start (lib/store/start.ts) when that
 * is not written yet: the customer's stream waits for the first attempt only; a failed write is
 * retried in the background (up to 60 s), then the turn is marked `error` with the reason.
 */

type Clock = () => number;

/** An ending as the callbacks know it: the recorder adds the times (and the reply streamed so far, if none is given). */
type Ending = Omit<TurnEnd, 'totalMs' | 'firstTokenMs' | 'reply'> & { reply?: string };

export interface RecorderOptions {
  /** The turn's start row, still to be written (record-turn.ts); absent when it is in the store already. */
  start?: TurnStartWrite;
  clock?: Clock;
  /** Checks the reply's numbers when the turn ends (recorded with the ending); none when absent. */
  checkReply?: (reply: string) => NumberCheck;
  /** How a failed write of the ending is retried (lib/store/finish.ts; tests shorten it). */
  retry?: FinishRetryOptions;
  /** The reply as it is stored (TRACE_REDACT: personal data replaced); the numbers are checked on the reply as streamed. */
  redactReply?: (reply: string) => Redacted;
}

/** Text of a provider's usage report, JSON-safe (undefined fields dropped). */
export function usageRecord(usage: LanguageModelUsage | undefined): TurnUsage | undefined {
  if (!usage) return undefined;
  return JSON.parse(JSON.stringify(usage)) as TurnUsage;
}

export class TurnRecorder {
  private reply = '';
  private firstTokenMs: number | undefined;
  private ending: PendingFinish | undefined;
  private readonly clock: Clock;
  private readonly checkReply: RecorderOptions['checkReply'];
  private readonly retry: FinishRetryOptions | undefined;
  private readonly redactReply: RecorderOptions['redactReply'];
  private readonly start: TurnStartWrite | undefined;

  constructor(
    private readonly store: TurnStore,
    readonly turnId: string,
    /** `clock()` when the request arrived. */
    private readonly startedAt: number,
    options: RecorderOptions = {},
  ) {
    this.clock = options.clock ?? (() => performance.now());
    this.checkReply = options.checkReply;
    this.retry = options.retry;
    this.redactReply = options.redactReply;
    this.start = options.start;
  }

  /**
   * Writes the start row on the event loop's next turn, after the reply's first bytes have gone
   * out; the ending waits for it, and writes it itself if this attempt fails.
   */
  begin(): void {
    const start = this.start;
    if (!start) return;
    setImmediate(() => {
      start.write().catch((error: unknown) => {
        console.error(`[traces] could not write the start of turn ${this.turnId}: ${storeErrorText(error)}; its ending will write the whole turn`);
      });
    });
  }

  /** How the ending settled (after any retries), once there is one. */
  get done(): Promise<FinishOutcome> | undefined {
    return this.ending?.settled;
  }

  private elapsed(): number {
    return Math.round((this.clock() - this.startedAt) * 100) / 100;
  }

  /** Records the ending, unless one was recorded already; resolves once it settled (after any retries). Never rejects. */
  finish(end: Ending): Promise<FinishOutcome> {
    return this.record(end).settled;
  }

  private record(end: Ending): PendingFinish {
    if (this.ending) return this.ending;
    const reply = end.reply ?? this.reply;
    const stored = this.redactReply?.(reply);
    const record: TurnEnd = {
      ...end,
      reply: stored?.text ?? reply,
      totalMs: this.elapsed(),
      ...(this.firstTokenMs === undefined ? {} : { firstTokenMs: this.firstTokenMs }),
      ...(this.checkReply ? { numbers: this.checkReply(reply) } : {}),
      ...(stored && Object.keys(stored.counts).length ? { replyRedactions: stored.counts } : {}),
    };
    this.ending = finishWithRetry(this.store, this.turnId, record, this.retry, this.start);
    return this.ending;
  }

  /** What streamText waits for before it closes the reply stream: the first attempt at writing the ending. */
  private async endStream(end: Ending): Promise<void> {
    await this.record(end).first;
  }

  /** Records an abort when `signal` fires (the request's signal: the customer stopped or left). */
  watch(signal: AbortSignal): void {
    const onAbort = () => void this.finish({ status: 'aborted', error: 'the customer stopped the reply or closed the connection' });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }

  /**
   * Spread into streamText's options. The endings return the first attempt at the trace
   * write, which streamText awaits before it closes the reply stream: a reply the customer
   * received to its end is already in the trace store (npm run test:crash checks this across
   * SIGKILLs) — unless that attempt failed, and the write is being retried in the background.
   */
  readonly callbacks = {
    onChunk: ({ chunk }: { chunk: { type: string; text?: string } }) => {
      if (chunk.type !== 'text-delta' || !chunk.text) return;
      this.firstTokenMs ??= this.elapsed();
      this.reply += chunk.text;
    },
    onFinish: async (event: { text: string; finishReason: string; totalUsage: LanguageModelUsage }): Promise<void> => {
      await this.endStream({ status: 'ok', reply: event.text, finishReason: event.finishReason, usage: usageRecord(event.totalUsage) });
    },
    onError: async ({ error }: { error: unknown }): Promise<void> => {
      const { detail } = describeModelError(error);
      console.error(`[chat] turn ${this.turnId} failed: ${detail}`);
      await this.endStream({ status: 'error', error: detail });
    },
    onAbort: async (): Promise<void> => {
      await this.endStream({ status: 'aborted', error: 'the reply was aborted' });
    },
  };
}
