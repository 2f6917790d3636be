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
 */
export const APP_PORT = Number(process.env.E2E_PORT ?? 3100);
export const OFFLINE_PORT = APP_PORT + 1;
export const STUB_PORT = APP_PORT + 2;

export const APP_URL = `http://127.0.0.1:${APP_PORT}`;
export const OFFLINE_URL = `http://127.0.0.1:${OFFLINE_PORT}`;
export const STUB_URL = `http://127.0.0.1:${STUB_PORT}`;

/** The silence limit the app with a key runs with: the hang tests wait for it. */
export const MODEL_TIMEOUT_MS = 3000;

const dataRoot = path.join(tmpdir(), `trusty-support-chat-e2e-${APP_PORT}`);
export const APP_DB = path.join(dataRoot, 'app', 'traces.db');
export const OFFLINE_DB = path.join(dataRoot, 'offline', 'traces.db');

/** The app with the stub model also runs the /debug inspector, unlocked with this token. */
export const ADMIN_TOKEN = 'e2e-admin-token-not-a-secret';

/** First port for servers a spec starts itself (e2e/spawn.ts): APP_PORT + 3 and up. */
export const EXTRA_PORT = APP_PORT + 3;
