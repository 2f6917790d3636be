/**
 * Runs once per server process, before it serves its first request:
 * - validates the environment (lib/env.ts) and refuses to start when it is invalid, naming
 *   the variable (e.g. an ADMIN_TOKEN shorter than 16 characters);
 * - limits how long a client may take to send a request's head and body
 *   (lib/server/timeouts.ts: SERVER_HEADERS_TIMEOUT_MS, SERVER_REQUEST_TIMEOUT_MS), so
 *   stalled uploads are dropped in seconds;
 * - stamps every incoming request with the address of its TCP connection (see
 *   lib/rate-limit/client.ts: the rate limiter's notion of "client" when TRUST_PROXY=0);
 * - loads the knowledge base and starts checking it for edits (lib/knowledge), so a broken
 *   KB is reported in the server log (file:line) at start-up. The site still serves; the
 *   chat answers 503 with the same message until the files are fixed.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { env } = await import('./lib/env');
  let settings;
  try {
    settings = env();
  } catch (error) {
    console.error(`[env] THE SERVER WILL NOT START: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const { enforceReceiveTimeouts } = await import('./lib/server/timeouts');
  enforceReceiveTimeouts({ headersTimeoutMs: settings.SERVER_HEADERS_TIMEOUT_MS, requestTimeoutMs: settings.SERVER_REQUEST_TIMEOUT_MS });
  const { stampPeerAddresses } = await import('./lib/rate-limit/peer');
  stampPeerAddresses();
  try {
    const { knowledgeHolder } = await import('./lib/knowledge');
    knowledgeHolder(); // logs what it loaded, or why it could not
  } catch (error) {
    console.error(`[knowledge] THE KNOWLEDGE BASE COULD NOT BE LOADED: ${error instanceof Error ? error.message : String(error)}`);
  }
}
