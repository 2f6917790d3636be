import type { TurnStore, TurnStart } from './ports/turns';

/**
 * A turn's start row, written once its reply has started streaming (lib/chat/record-turn.ts):
 * the row, and the explanation's record in it, are built then, so the reply's first byte waits
 * for neither. The turn's ending waits for it: finish.ts writes the start before the ending, and
 * again before each retry while it is missing. So an ending is never written before its row
 * exists, and a turn whose start could not be written (a database blip) is still recorded whole
 * once the store answers again.
 */
export class TurnStartWrite {
  private turn: TurnStart | undefined;
  private pending: Promise<void> | undefined;
  /** True once the row is in the store. */
  written = false;

  constructor(
    private readonly store: TurnStore,
    readonly turnId: string,
    /** Builds the row (once, when it is first written). */
    private readonly build: () => TurnStart,
  ) {}

  /** Writes the row unless it is written; after a failed attempt, the next call tries again. Rejects with the attempt's error. */
  write(): Promise<void> {
    this.pending ??= this.attempt().then(
      () => {
        this.written = true;
      },
      (error: unknown) => {
        this.pending = undefined;
        throw error;
      },
    );
    return this.pending;
  }

  private async attempt(): Promise<void> {
    this.turn ??= this.build();
    try {
      await this.store.startTurn(this.turn);
    } catch (error) {
      // An insert that committed but whose answer was lost (a connection cut): the row is there.
      if (await this.store.getTurn(this.turn.id).catch(() => undefined)) return;
      throw error;
    }
  }
}
