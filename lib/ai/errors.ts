import { APICallError, RetryError } from 'ai';
import { ModelTimeoutError } from './timeout';

/**
 * Model failures, described twice: once for the customer (short, no internals, says what
 * to do) and once for the trace (what actually happened).
 */

export const CUSTOMER_ERRORS = {
  timeout: 'The assistant took too long to answer. Please try again.',
  busy: 'The assistant is handling too many conversations right now. Please try again in a minute.',
  unavailable: 'The assistant could not answer just now. Please try again in a moment.',
} as const;

export interface DescribedError {
  kind: keyof typeof CUSTOMER_ERRORS;
  /** Safe to show in the chat. */
  customer: string;
  /** For the trace and server logs. */
  detail: string;
}

function rootCause(error: unknown): unknown {
  return RetryError.isInstance(error) ? error.lastError : error;
}

function technical(error: unknown): string {
  if (RetryError.isInstance(error)) {
    // Ours (retry.ts) and the SDK's ("Failed after 3 attempts. Last error: …") alike.
    const summary = error.message.split('. Last error')[0]!;
    return `${technical(error.lastError)} (${summary.charAt(0).toLowerCase()}${summary.slice(1)})`;
  }
  if (APICallError.isInstance(error)) {
    const body = error.responseBody ? `: ${error.responseBody.slice(0, 300)}` : '';
    return `APICallError ${error.statusCode ?? 'no status'} from ${error.url}: ${error.message}${body}${causes(error)}`;
  }
  if (error instanceof Error) return `${error.name}: ${error.message}${causes(error)}`;
  return String(error);
}

/** ` ← TypeError: terminated ← SocketError: other side closed`: what lies under an error (a cut connection, say). */
function causes(error: Error): string {
  const chain: string[] = [];
  for (let e = error.cause; e instanceof Error && chain.length < 3; e = e.cause) {
    if (!error.message.includes(e.message)) chain.push(`${e.name}: ${e.message}`);
  }
  return chain.map((c) => ` ← ${c}`).join('');
}

export function describeModelError(error: unknown): DescribedError {
  const cause = rootCause(error);
  let kind: DescribedError['kind'] = 'unavailable';
  if (ModelTimeoutError.isInstance(cause)) kind = 'timeout';
  else if (APICallError.isInstance(cause) && cause.statusCode === 429) kind = 'busy';
  return { kind, customer: CUSTOMER_ERRORS[kind], detail: technical(error) };
}
