import path from 'node:path';
import { defineConfig, devices, type PlaywrightTestConfig } from '@playwright/test';
import { ADMIN_TOKEN, APP_URL, CHROMIUM_PATH, MODEL_TIMEOUT_MS, workerServers } from '@/e2e/env';

/**
 * e2e against the production build (`next build` runs first, in scripts/test.sh).
 * Playwright cannot download a browser here: Debian's Chromium headless shell is used instead
 * (e2e/env.ts: CHROMIUM_PATH; the full browser, FULL_CHROMIUM_PATH, for the tests of its privacy settings).
 *
 * Three servers per worker (see e2e/env.ts): the OpenAI-compatible stub, the app pointed at it,
 * and the app with no key (offline). Each app starts with an empty trace database. Every
 * worker has its own three (ports E2E_PORT + 100 × worker), so spec files run in parallel
 * without sharing a server, a database or the stub's log; tests within a file run in order.
 * E2E_WORKERS sets how many workers (default 2).
 */
const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));

const next = (port: number) =>
  `node node_modules/next/dist/bin/next start --hostname 127.0.0.1 --port ${port}`;
const fresh = (db: string) => `rm -rf '${path.dirname(db)}' && mkdir -p '${path.dirname(db)}'`;

type WebServer = Extract<NonNullable<PlaywrightTestConfig['webServer']>, readonly unknown[]>[number];

/** The three servers of worker `index`. */
function serversOf(index: number): WebServer[] {
  const s = workerServers(index);
  const label = WORKERS > 1 ? ` #${index}` : '';
  return [
    {
      name: `openai-stub${label}`,
      command: 'node e2e/stub/openai-stub.mjs',
      url: `${s.stubUrl}/`,
      reuseExistingServer: false,
      timeout: 10_000,
      env: { STUB_PORT: String(s.stubPort) },
    },
    {
      name: `app (stub model)${label}`,
      command: `${fresh(s.appDb)} && exec ${next(s.appPort)}`,
      url: `${s.appUrl}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        NEXT_TELEMETRY_DISABLED: '1',
        OPENAI_API_KEY: 'test',
        OPENAI_BASE_URL: `${s.stubUrl}/v1`,
        OPENAI_MODEL: 'stub-model',
        MODEL_TIMEOUT_MS: String(MODEL_TIMEOUT_MS),
        TRACE_DB_PATH: s.appDb,
        ADMIN_TOKEN,
        // Every request comes from 127.0.0.1: the limiter runs, with room for the whole suite
        // (e2e/abuse.spec.ts starts its own servers with tight limits).
        CHAT_RATE_LIMIT_PER_MINUTE: '6000',
        CHAT_RATE_LIMIT_BURST: '1000',
      },
    },
    {
      name: `app (offline)${label}`,
      command: `${fresh(s.offlineDb)} && exec ${next(s.offlinePort)}`,
      url: `${s.offlineUrl}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        NEXT_TELEMETRY_DISABLED: '1',
        OPENAI_API_KEY: '',
        OPENAI_BASE_URL: '',
        TRACE_DB_PATH: s.offlineDb,
        CHAT_RATE_LIMIT_PER_MINUTE: '6000',
        CHAT_RATE_LIMIT_BURST: '1000',
      },
    },
  ];
}

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  timeout: 30_000,
  // Generous for a loaded 2-core machine (three servers and a browser); passing runs are not slower.
  expect: { timeout: 10_000 },
  use: {
    baseURL: APP_URL,
    // A trace records every step of every test and is thrown away when it passes: CPU a CI run
    // (which keeps no artefacts) spends for nothing. Kept on failure for local runs.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
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
  webServer: Array.from({ length: WORKERS }, (_, i) => serversOf(i)).flat(),
});
