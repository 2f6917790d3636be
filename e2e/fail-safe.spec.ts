import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { APP_URL, EXTRA_PORT, STUB_URL } from './env';
import { question, readChatStream } from './helpers';
import { startApp, type Server } from './spawn';

/**
 * The production server failing safe (issue 21): a bad setting stops it with the setting and
 * the rule named, never the value; a trace database path it cannot use stops it before it
 * serves; what it stores is private to its user; settings the mode ignores, and variables that
 * are no longer settings, are named at start. One server at a time, on a port of its own.
 */

const PORT = EXTRA_PORT + 10;
const dataDir = (name: string) => path.join(tmpdir(), `e2e-fail-safe-${PORT}-${name}-${Date.now()}`);
let server: Server | undefined;
test.afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** What a server that must not start printed (startApp rejects with its output once it exits). */
async function refusedStart(env: Record<string, string>): Promise<string> {
  return startApp(PORT, { OPENAI_API_KEY: '', TRACE_DB_PATH: path.join(dataDir('refused'), 'traces.db'), ...env }, 20_000).then(
    async (started) => {
      await started.stop();
      throw new Error('the server started');
    },
    (error: Error) => error.message,
  );
}

test('a bad setting stops the server, naming the setting and the rule but not the value (a token, a secret, a password)', async () => {
  const output = await refusedStart({
    ADMIN_TOKEN: 'sh0rt-T0ken',
    VISITOR_SECRET: 'visitor-s3cret-too-short',
    DATABASE_URL: 'mysql://app:hunter2-pass@db.internal:3306/app',
  });
  expect(output).toMatch(/exited \(1\)/);
  expect(output).toMatch(/THE SERVER WILL NOT START: invalid environment: .*ADMIN_TOKEN must be at least 16 characters/);
  expect(output).toMatch(/VISITOR_SECRET must be at least 32 characters/);
  expect(output).toMatch(/DATABASE_URL must be a PostgreSQL URL/);
  for (const secret of ['sh0rt', 'T0ken', 's3cret', 'hunter2', 'db.internal']) expect(output).not.toContain(secret);
});

test('TRACE_DB_PATH under /proc, or on a device, stops the server at once (it used to spin at 100% CPU, deaf to SIGTERM)', async () => {
  const started = Date.now();
  const proc = await refusedStart({ TRACE_DB_PATH: `/proc/e2e-fail-safe-${PORT}/traces.db` });
  expect(proc).toMatch(/exited \(1\)/);
  expect(proc).toMatch(/THE SERVER WILL NOT START: TRACE_DB_PATH must be on a real file system, not under \/proc/);
  expect(Date.now() - started).toBeLessThan(15_000);
  const device = await refusedStart({ TRACE_DB_PATH: '/dev/null' });
  expect(device).toMatch(/THE SERVER WILL NOT START: TRACE_DB_PATH must be a regular file \(it is a character device\)/);
});

test('no benchmark route in the app; the trace files are 0600; settings the mode ignores, and variables no longer settings, are named at start', async () => {
  // The load benchmark's baseline is a server of its own (bench/baseline-server.mts), not a route of the app.
  expect((await fetch(`${APP_URL}/api/bench/baseline`, { method: 'POST', body: '{}' })).status).toBe(404);

  const dir = dataDir('files');
  server = await startApp(PORT, {
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: `${STUB_URL}/v1`,
    OPENAI_MODEL: 'stub-model',
    TRACE_DB_PATH: path.join(dir, 'traces.db'),
    EMBEDDING_BASE_URL: 'http://127.0.0.1:9/v1',
    BENCH_BASELINE_ROUTE: '1',
    MODEL_MAX_RETRIES: '3',
  });

  // A chat turn writes the database (WAL) and the visitor secret: all private to the server's user.
  const chat = await fetch(`${server.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question('conv-fail-safe-1', 'can I get a refund?')) });
  expect(chat.status).toBe(200);
  await readChatStream(chat);
  const mode = (name: string) => (statSync(path.join(dir, name)).mode & 0o777).toString(8);
  expect(['traces.db', 'traces.db-wal', 'traces.db-shm', 'visitor-secret'].map(mode)).toEqual(['600', '600', '600', '600']);

  // Settings the mode ignores, and variables that are no longer settings, were named at start, without their values.
  const output = server.output();
  expect(output).toContain('[env] EMBEDDING_BASE_URL is set but ignored: the semantic stage is off (EMBEDDING_MODEL is unset)');
  expect(output).toMatch(/\[env\] BENCH_BASELINE_ROUTE is set but ignored: it is no longer a setting: /);
  expect(output).toContain('[env] MODEL_MAX_RETRIES is set but ignored: it is no longer a setting: a failed model call (429, 5xx, network) is retried once');
});

test('a local: embedding model names EMBEDDING_BASE_URL and EMBEDDING_API_KEY as ignored at start, without the key', async () => {
  const dir = dataDir('local');
  server = await startApp(PORT, {
    OPENAI_API_KEY: '',
    TRACE_DB_PATH: path.join(dir, 'traces.db'),
    // No KB to load: the model is never run (embedding a KB in process keeps the server busy for a while).
    KB_PATH: path.join(dir, 'no-kb'),
    EMBEDDING_MODEL: 'local:universal-sentence-encoder',
    EMBEDDING_BASE_URL: 'http://127.0.0.1:11434/v1',
    EMBEDDING_API_KEY: 'sk-embed-e2e-secret',
  });
  await server.waitForOutput(/EMBEDDING_API_KEY is set but ignored/);
  const output = server.output();
  expect(output).toContain('[env] EMBEDDING_BASE_URL is set but ignored: EMBEDDING_MODEL local:universal-sentence-encoder runs in this process (no server, no key)');
  expect(output).toContain('[env] EMBEDDING_API_KEY is set but ignored: EMBEDDING_MODEL local:universal-sentence-encoder runs in this process (no server, no key)');
  expect(output).not.toContain('sk-embed-e2e-secret');
});
