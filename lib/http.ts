/** A JSON response that no cache keeps (every JSON the app answers is per request). */
export function json(body: unknown, { status = 200, headers }: { status?: number; headers?: Record<string, string> } = {}): Response {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

/** A JSON error response: `{ "error": "what is wrong" }`. */
export function jsonError(status: number, error: string, headers?: Record<string, string>): Response {
  return json({ error }, { status, headers });
}
