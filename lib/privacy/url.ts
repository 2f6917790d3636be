/**
 * A URL the customer's browser reported (the page the chat was used on), as TRACE_REDACT
 * stores it: its scheme, host and path, without the query string, the fragment or a user name
 * and password — they carry sign-in tokens, reset links, emails and tracking ids more often than
 * anything a support team needs. Each path segment is decoded and passed through `redactText`
 * (an email, phone or card number becomes its placeholder), and a segment that looks like a
 * secret (tokenLike) becomes `[token]`. A relative URL (`/account?…`) keeps its path only.
 */
export function redactUrl(url: string, redactText: (text: string) => string): string {
  const relative = url.startsWith('/');
  let parsed: URL;
  try {
    parsed = relative ? new URL(url, 'http://relative.invalid') : new URL(url);
  } catch {
    return redactText(url);
  }
  const path = parsed.pathname
    .split('/')
    .map((segment) => redactSegment(segment, redactText))
    .join('/');
  return relative ? path : `${parsed.protocol}//${parsed.host}${path}`;
}

function redactSegment(segment: string, redactText: (text: string) => string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    decoded = segment;
  }
  if (tokenLike(decoded)) return '[token]';
  const redacted = redactText(decoded);
  return redacted === decoded ? segment : encodeURI(redacted).replace(/%5B/g, '[').replace(/%5D/g, ']');
}

/**
 * A path segment that looks like a secret or an identifier rather than a name: 16 or more of
 * the characters tokens are written in (letters, digits, `-`, `_`), with letters and digits,
 * and a piece between `-` and `_` that is neither a word nor a short number — a UUID, a reset
 * token, `a8Fk2LmQ9xZ3kP0q`; not `live-streaming-guide-2024`.
 */
export function tokenLike(segment: string): boolean {
  if (segment.length < 16 || !/^[A-Za-z0-9_-]+$/.test(segment) || !/\d/.test(segment) || !/[A-Za-z]/.test(segment)) return false;
  return segment.split(/[-_]/).some((piece) => !/^[A-Za-z]*$/.test(piece) && !/^\d{1,4}$/.test(piece));
}
