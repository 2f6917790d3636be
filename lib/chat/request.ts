import { viaHttps } from '../http';
import { clientKey, type ClientKeyResult } from '../rate-limit/client';
import { ownerCredentials, type OwnerCredentials } from './owner';

/**
 * What a chat turn reads of its request's head, read once before its steps, as plain values.
 * The body is not among them: step 2 reads it, after the rate limit, so the body of a refused
 * request is never read.
 */
export interface TurnRequest {
  /** Who sends it, for the rate limit (lib/rate-limit/client.ts). */
  client: ClientKeyResult;
  /** Whose conversation it claims to be (owner.ts). */
  credentials: OwnerCredentials;
  /** Reached over HTTPS: the visitor cookie is then `Secure`. */
  https: boolean;
  /** The browser's Accept-Language header, as sent. */
  acceptLanguage: string | null;
  /** Aborted when the customer leaves: ends the retrieval and the reply. */
  signal: AbortSignal;
}

export function readTurnRequest(request: Request, trustProxy: number): TurnRequest {
  return {
    client: clientKey(request.headers, trustProxy),
    credentials: ownerCredentials(request.headers),
    https: viaHttps(request),
    acceptLanguage: request.headers.get('accept-language'),
    signal: request.signal,
  };
}
