import { env, type Env } from '../env';
import { enforceReceiveTimeouts } from './timeouts';

/**
 * The server's first steps (instrumentation.ts, Node.js runtime only): the environment is
 * validated, and an invalid one stops the process with the variable named — a server that
 * would answer every chat with 503, or guard its inspector with a guessable ADMIN_TOKEN, is
 * better not started. Then the receive timeouts (timeouts.ts).
 */
export function prepareServer(): void {
  let settings: Env;
  try {
    settings = env();
  } catch (error) {
    console.error(`[env] THE SERVER WILL NOT START: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  enforceReceiveTimeouts({ headersTimeoutMs: settings.SERVER_HEADERS_TIMEOUT_MS, requestTimeoutMs: settings.SERVER_REQUEST_TIMEOUT_MS });
}
