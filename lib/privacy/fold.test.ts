import { describe, expect, it } from 'vitest';
import { foldForMatching } from './fold';

describe('foldForMatching', () => {
  it('leaves printable ASCII as it is', () => {
    const folded = foldForMatching('call me at (415) 555-0132.\nThanks');
    expect(folded.text).toBe('call me at (415) 555-0132.\nThanks');
    expect(folded.originalSpan(11, 25)).toEqual({ start: 11, end: 25 });
  });

  it('folds digits of any script, spaces, dashes and invisible characters; a run of spaces is one', () => {
    expect(foldForMatching('４１\u00a0٤١\u2009९१\t\t07\u2011 12\u200b3 a\u3000\u00a0b').text).toBe('41 41 91 07- 123 a b');
  });

  it('maps a span of the folded text back to the whole span as written', () => {
    const original = 'card ４１１１\u00a0\u00a0１１１１ end';
    const folded = foldForMatching(original);
    expect(folded.text).toBe('card 4111 1111 end');
    const start = folded.text.indexOf('4');
    const { start: from, end: to } = folded.originalSpan(start, start + '4111 1111'.length);
    expect(original.slice(from, to)).toBe('４１１１\u00a0\u00a0１１１１');
  });

  it('keeps surrogate pairs whole', () => {
    const original = 'x 𝟒𝟏 y'; // mathematical bold digits: NFKC makes them 4 and 1
    const folded = foldForMatching(original);
    expect(folded.text).toBe('x 41 y');
    const span = folded.originalSpan(2, 4);
    expect(original.slice(span.start, span.end)).toBe('𝟒𝟏');
  });
});
