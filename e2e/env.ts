import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Where the e2e servers run, shared by playwright.config.ts and the specs.
 *
 * - the stub: an OpenAI-compatible server on 127.0.0.1 (e2e/stub/openai-stub.mjs)
 * - the app with a "key": OPENAI_API_KEY=test, OPENAI_BASE_URL → the stub (Chat Completions)
 * - the app offline: no key, the product's default
 *
 * Both apps run the same production build (`next build` first, in scripts/test.sh), each
 * with its own trace database, which the tests read directly: there is no trace API
 * without authentication.
 *
 * Each Playwright worker has a set of these servers of its own: worker N (TEST_PARALLEL_INDEX,
 * which Playwright sets in its workers) uses the ports from E2E_PORT + N × WORKER_PORT_STRIDE,
 * so two workers never share a server, a trace database or the stub's request log. A spec's own
 * servers use EXTRA_PORT + 0 … 96 (the highest taken today: + 71).
 */

/** The first port of worker 0 (E2E_PORT, default 3100). */
const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
const WORKER_PORT_STRIDE = 100;

/**
 * The browsers, Debian's. The suite runs in Chromium's headless shell (`chromium-headless-shell`):
 * the same Blink and V8 without the browser's UI layer, about half the CPU of the full browser
 * here, and what Playwright itself runs headless tests in. The tests of Chrome's own privacy
 * settings (blocked third-party cookies, a profile's cookie exceptions) run in the full browser,
 * which is what customers have: the shell does not apply those settings.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';
export const FULL_CHROMIUM_PATH = process.env.FULL_CHROMIUM_PATH || '/usr/bin/chromium';

/** The silence limit the app with a key runs with: the hang tests wait for it. */
export const MODEL_TIMEOUT_MS = 3000;

/** The app with the stub model also runs the /debug inspector, unlocked with this token. */
export const ADMIN_TOKEN = 'e2e-admin-token-not-a-secret';

/** The shared servers of Playwright worker `index` (parallel index: 0 … workers − 1). */
export function workerServers(index: number) {
  const appPort = BASE_PORT + index * WORKER_PORT_STRIDE;
  const dataRoot = path.join(tmpdir(), `trusty-support-chat-e2e-${appPort}`);
  return {
    appPort,
    offlinePort: appPort + 1,
    stubPort: appPort + 2,
    appUrl: `http://127.0.0.1:${appPort}`,
    offlineUrl: `http://127.0.0.1:${appPort + 1}`,
    stubUrl: `http://127.0.0.1:${appPort + 2}`,
    appDb: path.join(dataRoot, 'app', 'traces.db'),
    offlineDb: path.join(dataRoot, 'offline', 'traces.db'),
    /** First port for servers a spec starts itself (e2e/spawn.ts). */
    extraPort: appPort + 3,
  };
}

/** This process's servers: the worker's own (0 in the Playwright runner and outside Playwright). */
const own = workerServers(Number(process.env.TEST_PARALLEL_INDEX ?? 0));

export const APP_PORT = own.appPort;
export const STUB_PORT = own.stubPort;

export const APP_URL = own.appUrl;
export const OFFLINE_URL = own.offlineUrl;
export const STUB_URL = own.stubUrl;

export const APP_DB = own.appDb;
export const OFFLINE_DB = own.offlineDb;

/** First port for servers a spec starts itself (e2e/spawn.ts): APP_PORT + 3 and up. */
export const EXTRA_PORT = own.extraPort;
