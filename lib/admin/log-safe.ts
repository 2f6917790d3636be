/**
 * Text from outside — a provider's `error_description`, a claimed email, a request path — as
 * it may go into an audit row or a log line: at most `maxChars` characters (then `…`), with
 * every character that could break or disguise a line escaped, so one entry stays one line
 * and cannot pose as another: C0 and C1 controls and DEL (`\n`, `\r`, `\t`, else `\u{…}`),
 * the Unicode line and paragraph separators, bidirectional controls (they reorder what a
 * reader sees) and lone surrogates; the backslash itself as `\\`, so an escape in the output
 * was made here.
 */
const ESCAPED = /^[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]$/u;
const NAMED = new Map([
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
  ['\\', '\\\\'],
]);

const escapeChar = (char: string): string =>
  NAMED.get(char) ?? (ESCAPED.test(char) ? `\\u{${char.codePointAt(0)!.toString(16)}}` : char);

export function logSafe(text: string, maxChars = 200): string {
  let safe = '';
  for (const char of text) {
    const escaped = escapeChar(char);
    if (safe.length + escaped.length > maxChars) return `${safe}…`;
    safe += escaped;
  }
  return safe;
}
