/** A JSON response that no cache keeps (every JSON the app answers is per request). */
export function json(body: unknown, { status = 200, headers }: { status?: number; headers?: Record<string, string> } = {}): Response {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

/** A JSON error response: `{ "error": "what is wrong" }`. */
export function jsonError(status: number, error: string, headers?: Record<string, string>): Response {
  return json({ error }, { status, headers });
}

/**
 * The app cannot serve a request just now: a step throws it, the route catches it in one place
 * and answers `toResponse()` (503, `{ "error": message }`, safe for the client), logging `reason`
 * (what could not be used, and why: for the server log only).
 */
export class UnavailableError extends Error {
  override readonly name = 'UnavailableError';
  readonly status = 503;

  constructor(
    message: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  toResponse(): Response {
    return jsonError(this.status, this.message);
  }
}

/** A request body that cannot be read as sent: the status and a sentence for the client. */
export interface BodyFailure {
  ok: false;
  status: 400 | 413 | 415;
  error: string;
}

const fail = (status: BodyFailure['status'], error: string): BodyFailure => ({ ok: false, status, error });

/** The JSON error response for a BodyFailure (after a 413 the rest of the body is unread: close the connection). */
export function bodyFailureResponse(failure: BodyFailure): Response {
  return jsonError(failure.status, failure.error, failure.status === 413 ? { connection: 'close' } : undefined);
}

/**
 * The body's bytes, counted as they arrive: past `maxBytes` reading stops and the answer is
 * 413, so an oversized (or endless) body is never held in memory. A declared
 * Content-Length over the limit is refused before reading anything. The rest of an
 * oversized body is left unread (not cancelled: cancelling would reset the connection
 * before the 413 reaches the client). Every route that reads a body reads it through this.
 */
export async function readBody(request: Request, maxBytes: number): Promise<{ ok: true; bytes: Uint8Array } | BodyFailure> {
  const tooLarge = () => fail(413, `the body is too large: at most ${maxBytes} bytes`);
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) return tooLarge();
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) return tooLarge();
      chunks.push(value);
    }
  } catch {
    return fail(400, 'the body could not be read');
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/** The essence of a Content-Type (`application/json`), lowercase, and its charset if given. */
function contentType(type: string | null): { essence: string; charset: string | undefined } {
  const [essence = '', ...params] = (type ?? '').split(';').map((p) => p.trim().toLowerCase());
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  return { essence, charset };
}

/** A body of one of `types` (else 415), read with the byte cap, decoded as strict UTF-8. */
export async function readTextBody(request: Request, maxBytes: number, types: readonly string[]): Promise<{ ok: true; type: string; text: string } | BodyFailure> {
  const { essence, charset } = contentType(request.headers.get('content-type'));
  if (!types.includes(essence)) return fail(415, `the body must be ${types.includes('application/json') ? 'JSON (content-type: application/json)' : types.join(' or ')}`);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return fail(415, `the body must be UTF-8 (got charset=${charset})`);
  const body = await readBody(request, maxBytes);
  if (!body.ok) return body;
  try {
    return { ok: true, type: essence, text: new TextDecoder('utf-8', { fatal: true }).decode(body.bytes) };
  } catch {
    return fail(400, 'the body is not valid UTF-8');
  }
}

/** A JSON body (application/json, UTF-8, at most `maxBytes`), parsed; never throws. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<{ ok: true; value: unknown } | BodyFailure> {
  const body = await readTextBody(request, maxBytes, ['application/json']);
  if (!body.ok) return body;
  if (body.text.length === 0) return fail(400, 'the body is empty: send a JSON object');
  try {
    return { ok: true, value: JSON.parse(body.text) };
  } catch {
    return fail(400, 'the body is not valid JSON');
  }
}

/** Whether the browser reached us over HTTPS (directly, or through a TLS-terminating proxy): cookies then get `Secure`. */
export function viaHttps(request: Request): boolean {
  return new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
}
