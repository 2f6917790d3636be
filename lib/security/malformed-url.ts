import { jsonError } from '../http';

/**
 * A path with a percent-escape that does not decode (`/help/%ff`, `/api/conversations/%`, a
 * `%` not followed by two hex digits, bytes that are not UTF-8). Next.js throws on one while
 * matching a dynamic route and answers a bare 500 without the security headers; proxy.ts
 * answers 400 before that.
 */
export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

const MESSAGE = 'the address has a malformed percent-escape: "%" must be followed by two hex digits, and the bytes must be UTF-8';

/** The 400 for such a path: JSON `{ error }` for the API, plain text under the pages' CSP for a page. */
export function malformedEscapeResponse(isApi: boolean, csp: string): Response {
  if (isApi) return jsonError(400, MESSAGE);
  return new Response(`Bad request: ${MESSAGE}.\n`, {
    status: 400,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': csp },
  });
}
