import { describe, expect, it, vi } from 'vitest';
import { retryDelayMs } from './backoff';
import { handoffOfferFor, isThinTurn } from './offer';
import { personMatcher } from './phrases';

const settings = { afterThinTurns: 2, thinConfidence: 0.2 };
const asks = personMatcher();
const confident = { floorUsed: false, confidence: 0.8 };
const thin = { floorUsed: true, confidence: 0 };

function offer(question: string, match = confident, signals = { thinTurns: 0, handedOff: false }, more: Partial<Parameters<typeof handoffOfferFor>[0]> = {}) {
  const read = vi.fn(async () => signals);
  return { read, result: handoffOfferFor({ question, trigger: 'submit-message', match, asks, settings, signals: read, ...more }) };
}

describe('when a turn offers the hand-off', () => {
  it('a thin turn: the floor filled in, or BM25 was not confident', () => {
    expect(isThinTurn({ floorUsed: true, confidence: 0.9 }, 0.2)).toBe(true);
    expect(isThinTurn({ floorUsed: false, confidence: 0.19 }, 0.2)).toBe(true);
    expect(isThinTurn({ floorUsed: false, confidence: 0.2 }, 0.2)).toBe(false);
  });

  it('asking for a person offers it at once, unless the conversation was handed off already', async () => {
    expect(await offer('I want to talk to a person').result).toBe('asked');
    expect(await offer('I want to talk to a person', confident, { thinTurns: 0, handedOff: true }).result).toBeUndefined();
  });

  it('thin answers: on the N-th thin turn of the conversation (this one included), and on each thin turn after', async () => {
    expect(await offer('hi there', thin, { thinTurns: 0, handedOff: false }).result).toBeUndefined();
    expect(await offer('hi there', thin, { thinTurns: 1, handedOff: false }).result).toBe('thin-answers');
    expect(await offer('hmm?', thin, { thinTurns: 4, handedOff: false }).result).toBe('thin-answers');
    expect(await offer('hmm?', thin, { thinTurns: 4, handedOff: true }).result).toBeUndefined();
    // Asking again (Retry) is not another thin turn.
    expect(await offer('hi there', thin, { thinTurns: 1, handedOff: false }, { trigger: 'regenerate-message' }).result).toBeUndefined();
    expect(await offer('hi there', thin, { thinTurns: 9, handedOff: false }, { settings: { ...settings, afterThinTurns: 0 } }).result).toBeUndefined();
  });

  it('reads the conversation only when an offer is possible (most turns read nothing more)', async () => {
    const { read, result } = offer('can I get a refund?', confident, { thinTurns: 9, handedOff: false });
    expect(await result).toBeUndefined();
    expect(read).not.toHaveBeenCalled();
  });
});

describe('retry backoff', () => {
  it('doubles from 1 s up to the maximum, with half of each step random', () => {
    const low = () => 0;
    const high = () => 1;
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 900_000, high))).toEqual([1000, 2000, 4000, 8000]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 900_000, low))).toEqual([500, 1000, 2000, 4000]);
    expect(retryDelayMs(40, 900_000, high)).toBe(900_000);
    expect(retryDelayMs(40, 900_000, low)).toBe(450_000);
    expect(retryDelayMs(3, 1500, high)).toBe(1500);
  });
});
