import { describe, expect, it } from 'vitest';
import { formatNumber, formatPercent } from './format';

describe('formatNumber / formatPercent', () => {
  it('groups digits, fixes decimals on request and marks a missing value', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(3.14159, 2)).toBe('3.14');
    expect(formatNumber(undefined)).toBe('—');
    expect(formatNumber(Number.NaN, 1)).toBe('—');
  });

  it('shows a share with one decimal below 10%, none above, or as asked', () => {
    expect(formatPercent(0.09)).toBe('9.0%');
    expect(formatPercent(0.25)).toBe('25%');
    expect(formatPercent(0.987, 0)).toBe('99%');
    expect(formatPercent(Number.NaN)).toBe('—');
  });
});
