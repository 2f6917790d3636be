import { describe, expect, it } from 'vitest';
import { storeErrorText } from './unrecorded';

describe('storeErrorText', () => {
  it("gives an Error's message, and its name when it has no message", () => {
    expect(storeErrorText(new Error('database is locked'))).toBe('database is locked');
    expect(storeErrorText(new TypeError(''))).toBe('TypeError');
    expect(storeErrorText('plain text')).toBe('plain text');
  });

  it("joins the messages of a connection error to several addresses (an AggregateError with none of its own)", () => {
    const refused = new AggregateError([new Error('connect ECONNREFUSED ::1:5432'), new Error('connect ECONNREFUSED 127.0.0.1:5432')]);
    expect(storeErrorText(refused)).toBe('connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432');
    expect(storeErrorText(new AggregateError([], 'all failed'))).toBe('all failed');
  });
});
