import { describe, expect, it } from 'vitest';
import { errorText } from './errors';

describe('errorText', () => {
  it("gives an Error's message, a subclass's too, without its name", () => {
    expect(errorText(new Error('disk full'))).toBe('disk full');
    expect(errorText(new TypeError('not a function'))).toBe('not a function');
  });

  it('gives anything else thrown as a string', () => {
    expect(errorText('plain text')).toBe('plain text');
    expect(errorText(42)).toBe('42');
    expect(errorText(undefined)).toBe('undefined');
    expect(errorText(null)).toBe('null');
  });
});
