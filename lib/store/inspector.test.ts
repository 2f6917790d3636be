import { describe, expect, it } from 'vitest';
import { ftsQuery, tsQuery } from './inspector';

// The inspector's queries themselves are tested against both stores: store-contract.test.ts.
describe('the question filter', () => {
  it('quotes customer text for FTS5 so it cannot inject operators', () => {
    expect(ftsQuery('refund OR "x" NEAR(y)')).toBe('"refund"* "OR"* "x"* "NEAR"* "y"*');
    expect(ftsQuery('?!')).toBeUndefined();
  });

  it('builds a PostgreSQL tsquery of letters and digits only, every word required and prefix-matched', () => {
    expect(tsQuery("refund & !x | y:* 'z' (w)")).toBe('refund:* & x:* & y:* & z:* & w:*');
    expect(tsQuery('?!')).toBeUndefined();
  });
});
