import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { ADMIN_TOKEN, APP_DB, APP_PORT, APP_URL, MODEL_TIMEOUT_MS, OFFLINE_DB, OFFLINE_PORT, OFFLINE_URL, STUB_PORT, STUB_URL } from '@/e2e/env';

/**
 * e2e against the production build (`next build` runs first, in scripts/test.sh).
 * Playwright cannot download a browser here: Debian's chromium is used instead.
 *
 * Three servers (see e2e/env.ts): the OpenAI-compatible stub, the app pointed at it, and
 * the app with no key (offline). Each app starts with an empty trace database.
 */
const next = (port: number) =>
  `node node_modules/next/dist/bin/next start --hostname 127.0.0.1 --port ${port}`;
const fresh = (db: string) => `rm -rf '${path.dirname(db)}' && mkdir -p '${path.dirname(db)}'`;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  timeout: 30_000,
  // Generous for a loaded 2-core machine (three servers and a browser); passing runs are not slower.
  expect: { timeout: 10_000 },
  use: {
    baseURL: APP_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    {
      name: 'openai-stub',
      command: 'node e2e/stub/openai-stub.mjs',
      url: `${STUB_URL}/`,
      reuseExistingServer: false,
      timeout: 10_000,
      env: { STUB_PORT: String(STUB_PORT) },
    },
    {
      name: 'app (stub model)',
      command: `${fresh(APP_DB)} && exec ${next(APP_PORT)}`,
      url: `${APP_URL}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        NEXT_TELEMETRY_DISABLED: '1',
        OPENAI_API_KEY: 'test',
        OPENAI_BASE_URL: `${STUB_URL}/v1`,
        OPENAI_MODEL: 'stub-model',
        MODEL_TIMEOUT_MS: String(MODEL_TIMEOUT_MS),
        TRACE_DB_PATH: APP_DB,
        ADMIN_TOKEN,
        // Every request comes from 127.0.0.1: the limiter runs, with room for the whole suite
        // (e2e/abuse.spec.ts starts its own servers with tight limits).
        CHAT_RATE_LIMIT_PER_MINUTE: '6000',
        CHAT_RATE_LIMIT_BURST: '1000',
      },
    },
    {
      name: 'app (offline)',
      command: `${fresh(OFFLINE_DB)} && exec ${next(OFFLINE_PORT)}`,
      url: `${OFFLINE_URL}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        NEXT_TELEMETRY_DISABLED: '1',
        OPENAI_API_KEY: '',
        OPENAI_BASE_URL: '',
        TRACE_DB_PATH: OFFLINE_DB,
        CHAT_RATE_LIMIT_PER_MINUTE: '6000',
        CHAT_RATE_LIMIT_BURST: '1000',
      },
    },
  ],
});
