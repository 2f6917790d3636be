/**
 * Runs once per server process, before it serves its first request:
 * - validates the environment and refuses to start when it is invalid (e.g. an ADMIN_TOKEN
 *   shorter than 16 characters), and limits how long a client may take to send a request
 *   (lib/server/startup.ts);
 * - stamps every incoming request with the address of its TCP connection (see
 *   lib/rate-limit/client.ts: the rate limiter's notion of "client" when TRUST_PROXY=0);
 * - loads the knowledge base and starts checking it for edits (lib/knowledge), so a broken
 *   KB is reported in the server log (file:line) at start-up. The site still serves; the
 *   chat answers 503 with the same message until the files are fixed.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { prepareServer } = await import('./lib/server/startup');
  prepareServer();
  const { stampPeerAddresses } = await import('./lib/rate-limit/peer');
  stampPeerAddresses();
  try {
    const { knowledgeHolder } = await import('./lib/knowledge');
    knowledgeHolder(); // logs what it loaded, or why it could not
  } catch (error) {
    // Only an invalid environment gets here (lib/env.ts names the variable).
    console.error(`[knowledge] THE KNOWLEDGE BASE COULD NOT BE LOADED: ${error instanceof Error ? error.message : String(error)}`);
  }
}
