/**
 * Runs once per server process, before it serves its first request:
 * - validates the environment and refuses to start when it is invalid (e.g. an ADMIN_TOKEN
 *   shorter than 16 characters, a TRACE_DB_PATH under /proc), warns about settings the mode
 *   ignores, and limits how long a client may take to send a request (lib/server/startup.ts);
 * - stamps every incoming request with the address of its TCP connection (see
 *   lib/rate-limit/client.ts: the rate limiter's notion of "client" when TRUST_PROXY=0);
 * - loads the knowledge base and starts checking it for edits (lib/knowledge), so a broken
 *   KB is reported in the server log (file:line) at start-up. The site still serves; the
 *   chat answers 503 with the same message until the files are fixed;
 * - when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, registers
 *   OpenTelemetry (@vercel/otel: OTLP over HTTP, the standard OTEL_* variables) so each chat
 *   turn exports its spans (lib/telemetry/turn.ts). Unset, nothing is loaded or registered;
 * - opens the store (SQLite, or PostgreSQL with DATABASE_URL: migrations run now) and logs which.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { prepareServer } = await import('./lib/server/startup');
  prepareServer();
  const { telemetryOptions, TRACER_NAME } = await import('./lib/telemetry/turn');
  if (telemetryOptions().enabled) {
    const { registerOTel } = await import('@vercel/otel');
    registerOTel({ serviceName: TRACER_NAME });
  }
  const { stampPeerAddresses } = await import('./lib/rate-limit/peer');
  stampPeerAddresses();
  try {
    const { knowledgeHolder } = await import('./lib/knowledge');
    knowledgeHolder(); // logs what it loaded, or why it could not
  } catch (error) {
    // Only an invalid environment gets here (lib/env.ts names the variable).
    console.error(`[knowledge] THE KNOWLEDGE BASE COULD NOT BE LOADED: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { openServerStore } = await import('./lib/traces');
  await openServerStore();
}
