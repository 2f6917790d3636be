/** A JSON error response: `{ "error": "what is wrong" }`. */
export function jsonError(status: number, error: string, headers?: HeadersInit): Response {
  return Response.json({ error }, { status, headers: { 'cache-control': 'no-store', ...headers } });
}
