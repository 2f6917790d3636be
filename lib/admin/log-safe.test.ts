import { describe, expect, it } from 'vitest';
import { logSafe } from './log-safe';

describe('logSafe: outside text as one bounded line', () => {
  it('escapes what would start a new line or forge one, and the backslash', () => {
    const forged = 'denied\n[debug] OpenID Connect sign-in ok: admin@acme.test\r\u2028\u0085';
    expect(logSafe(forged)).toBe('denied\\n[debug] OpenID Connect sign-in ok: admin@acme.test\\r\\u{2028}\\u{85}');
    expect(logSafe('a\\nb\tc\u0000d\u001b[31me\u007f')).toBe('a\\\\nb\\tc\\u{0}d\\u{1b}[31me\\u{7f}');
    expect(logSafe(forged)).not.toMatch(/[\n\r\u2028\u0085]/);
  });

  it('escapes bidirectional controls and lone surrogates; leaves other Unicode alone', () => {
    expect(logSafe('user\u202egnp.exe')).toBe('user\\u{202e}gnp.exe');
    expect(logSafe('x\ud800y')).toBe('x\\u{d800}y');
    expect(logSafe('Jürgen 😀 北京 ✓')).toBe('Jürgen 😀 北京 ✓');
  });

  it('bounds the length, escapes counted, never splitting a character or an escape', () => {
    expect(logSafe('a'.repeat(10_000))).toBe(`${'a'.repeat(200)}…`);
    expect(logSafe('abcdef', 4)).toBe('abcd…');
    expect(logSafe('ab\ncd', 3)).toBe('ab…');
    expect(logSafe('a😀b', 2)).toBe('a…');
    expect(logSafe('😀😀😀', 5)).toBe('😀😀…');
    expect(logSafe('short', 5)).toBe('short');
  });
});
