import { describe, expect, it } from 'vitest';
import { LruMemo, ownCopy } from './lru-memo';

describe('LruMemo', () => {
  it('never holds more than its limit, dropping the entry used least recently', () => {
    const memo = new LruMemo<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) memo.set(key, i);
    expect(memo.get('a')).toBe(0); // a is now the most recent: b is the oldest
    memo.set('d', 3);
    expect(memo.size).toBe(3);
    expect(memo.get('b')).toBeUndefined();
    expect([memo.get('a'), memo.get('c'), memo.get('d')]).toEqual([0, 2, 3]);
    for (let i = 0; i < 1000; i++) memo.set(`k${i}`, i);
    expect(memo.size).toBe(3);
    expect(memo.get('k999')).toBe(999);
    expect(memo.get('a')).toBeUndefined();
  });

  it('replaces a value set again without growing', () => {
    const memo = new LruMemo<string, number>(2);
    memo.set('a', 1);
    memo.set('a', 2);
    expect(memo.size).toBe(1);
    expect(memo.get('a')).toBe(2);
  });

  it('refuses a limit below one entry', () => {
    expect(() => new LruMemo(0)).toThrow(/at least 1 entry, got 0/);
    expect(() => new LruMemo(2.5)).toThrow(RangeError);
  });
});

describe('ownCopy', () => {
  it('is the same text, astral characters included', () => {
    expect(ownCopy('internationalisation')).toBe('internationalisation');
    expect(ownCopy('emoji 🎥 ok')).toBe('emoji 🎥 ok');
    expect(ownCopy('')).toBe('');
  });
});
