import type { LanguageModelUsage } from 'ai';
import { describeModelError } from '../ai/errors';
import type { TraceStore, TurnEnd, TurnUsage } from '../traces/types';
import type { NumberCheck } from './numbers';

/**
 * Completes one turn's trace from streamText's callbacks. The row was written as
 * `pending` before the model was called; exactly one ending is recorded, the first that
 * happens: finish (ok), error, or abort (the customer pressed Stop or went away).
 *
 *     const recorder = new TurnRecorder(store, turnId, startedAt);
 *     recorder.watch(request.signal);
 *     streamText({ …, ...recorder.callbacks });
 */

type Clock = () => number;

export interface RecorderOptions {
  clock?: Clock;
  /** Checks the reply's numbers when the turn ends (recorded with the ending); none when absent. */
  checkReply?: (reply: string) => NumberCheck;
}

/** Text of a provider's usage report, JSON-safe (undefined fields dropped). */
export function usageRecord(usage: LanguageModelUsage | undefined): TurnUsage | undefined {
  if (!usage) return undefined;
  return JSON.parse(JSON.stringify(usage)) as TurnUsage;
}

export class TurnRecorder {
  private reply = '';
  private firstTokenMs: number | undefined;
  private ending: Promise<boolean> | undefined;
  private readonly clock: Clock;
  private readonly checkReply: RecorderOptions['checkReply'];

  constructor(
    private readonly store: TraceStore,
    readonly turnId: string,
    /** `clock()` when the request arrived. */
    private readonly startedAt: number,
    options: RecorderOptions = {},
  ) {
    this.clock = options.clock ?? (() => performance.now());
    this.checkReply = options.checkReply;
  }

  /** The recorded ending, once there is one (for tests and shutdown). */
  get done(): Promise<boolean> | undefined {
    return this.ending;
  }

  private elapsed(): number {
    return Math.round((this.clock() - this.startedAt) * 100) / 100;
  }

  /** Records the ending, unless one was recorded already. Never throws: a trace failure is logged. */
  finish(end: Omit<TurnEnd, 'totalMs' | 'firstTokenMs' | 'reply'> & { reply?: string }): Promise<boolean> {
    if (this.ending) return this.ending;
    const reply = end.reply ?? this.reply;
    const record: TurnEnd = {
      ...end,
      reply,
      totalMs: this.elapsed(),
      ...(this.firstTokenMs === undefined ? {} : { firstTokenMs: this.firstTokenMs }),
      ...(this.checkReply ? { numbers: this.checkReply(reply) } : {}),
    };
    this.ending = this.store.finishTurn(this.turnId, record).catch((error: unknown) => {
      console.error(`[traces] could not finish turn ${this.turnId}:`, error);
      return false;
    });
    return this.ending;
  }

  /** Records an abort when `signal` fires (the request's signal: the customer stopped or left). */
  watch(signal: AbortSignal): void {
    const onAbort = () => void this.finish({ status: 'aborted', error: 'the customer stopped the reply or closed the connection' });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }

  /**
   * Spread into streamText's options. The endings return the trace write, which streamText
   * awaits before it closes the reply stream: a reply the customer received to its end is
   * already in the trace store (npm run test:crash checks this across SIGKILLs).
   */
  readonly callbacks = {
    onChunk: ({ chunk }: { chunk: { type: string; text?: string } }) => {
      if (chunk.type !== 'text-delta' || !chunk.text) return;
      this.firstTokenMs ??= this.elapsed();
      this.reply += chunk.text;
    },
    onFinish: async (event: { text: string; finishReason: string; totalUsage: LanguageModelUsage }): Promise<void> => {
      await this.finish({ status: 'ok', reply: event.text, finishReason: event.finishReason, usage: usageRecord(event.totalUsage) });
    },
    onError: async ({ error }: { error: unknown }): Promise<void> => {
      const { detail } = describeModelError(error);
      console.error(`[chat] turn ${this.turnId} failed: ${detail}`);
      await this.finish({ status: 'error', error: detail });
    },
    onAbort: async (): Promise<void> => {
      await this.finish({ status: 'aborted', error: 'the reply was aborted' });
    },
  };
}
