import { errorText } from '../errors';
import { helpLimiter, serverEnv, serverRegistry } from '../server/registry';
import type { Knowledge } from '../knowledge/load';
import { takeOrWait } from '../rate-limit/wait';
import { helpPagesByUrl } from './pages';
import { helpRefusalPage, type HelpRefusal } from './refusal-page';

/**
 * What proxy.ts does for a /help/… request before the page renders
 * (app/help/[...page], whose article is rendered once per loaded KB):
 *
 * 1. The client's limit (HELP_RATE_LIMIT_*, per client as the chat's: lib/rate-limit/client.ts),
 *    for every help request, however cheap: a request over it waits for its turn, up to
 *    HELP_RATE_LIMIT_WAIT_MS, and is then served or refused with 429 (lib/rate-limit/wait.ts).
 *    Counted in this process's memory: what it protects is this process's CPU.
 * 2. No KB loaded: a 503 page, and one log line per outage (not a stack trace per request).
 * 3. Revalidation: the ETag names the KB in service (this process, this load), so a browser
 *    sending it back gets 304 without a render until the KB is reloaded or the server
 *    restarts. `Cache-Control: private, no-cache`: the browser keeps the page and asks every
 *    time (the KB can change at any reload); shared caches do not keep it (each page carries
 *    its own CSP nonce).
 */

export type HelpGate =
  /** Answer with this; the page does not render. */
  | { response: Response }
  /** Render the page, with these headers on its response. */
  | { headers: Record<string, string> };

export interface HelpRequest {
  /** The request's path, as sent (`/help/…`). */
  path: string;
  ifNoneMatch: string | null;
  /** The client key (lib/rate-limit/client.ts). */
  client: string;
  /** This request's CSP nonce and policy (proxy.ts), for the refusal page. */
  nonce: string;
  csp: string;
}

const CACHE_CONTROL = 'private, no-cache';


/** This process: its start time (a restart, perhaps of a new build, changes every ETag). */
const PROCESS_TAG = Math.round(performance.timeOrigin).toString(36);

/** The ETag of every help page of a loaded KB: this process, this load. */
const etagOf = (knowledge: Knowledge) => `W/"${PROCESS_TAG}.${knowledge.loadedAt.getTime().toString(36)}"`;

/** The path as the page sees it: each segment decoded, then encoded again (app/help/[...page]/page.tsx). */
function canonicalPath(path: string): string {
  try {
    return path
      .split('/')
      .map((segment) => encodeURIComponent(decodeURIComponent(segment)))
      .join('/');
  } catch {
    return path; // malformed %-escapes: the page answers 404
  }
}

/** If-None-Match names this ETag (weak comparison, RFC 9110 §13.1.2), or is `*`. */
export function revalidates(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

function refuse(refusal: HelpRefusal, request: HelpRequest): { response: Response } {
  return {
    response: new Response(helpRefusalPage(refusal, request.nonce), {
      status: refusal.status,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': request.csp,
        ...(refusal.status === 429 ? { 'retry-after': String(refusal.retryAfterSeconds) } : {}),
      },
    }),
  };
}

/** True while the outage in progress has been logged. */
let outageLogged = false;

export async function helpGate(request: HelpRequest): Promise<HelpGate> {
  const settings = serverEnv();
  const turn = await takeOrWait(helpLimiter(), request.client, settings.HELP_RATE_LIMIT_WAIT_MS);
  if (!turn.allowed) return refuse({ status: 429, retryAfterSeconds: turn.retryAfterSeconds }, request);

  const holder = serverRegistry().app?.knowledge;
  if (!holder) return { headers: {} }; // not built yet (the page builds it): nothing to say
  if (!holder.ready) {
    if (!outageLogged) {
      outageLogged = true;
      let reason = 'not loaded';
      try {
        holder.get();
      } catch (error) {
        reason = errorText(error);
      }
      console.error(`[help] help pages answer 503 until the knowledge base loads: ${reason}`);
    }
    return refuse({ status: 503 }, request);
  }
  outageLogged = false;

  const knowledge = holder.get();
  if (!helpPagesByUrl(knowledge).has(canonicalPath(request.path))) return { headers: {} }; // not a page: the page answers 404
  const etag = etagOf(knowledge);
  const headers = { etag, 'cache-control': CACHE_CONTROL };
  // No CSP on a 304: the browser would store it over the one that matches its copy's nonce.
  if (revalidates(request.ifNoneMatch, etag)) return { response: new Response(null, { status: 304, headers }) };
  return { headers };
}
