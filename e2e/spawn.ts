import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Servers a spec (or the load and crash scripts) starts and stops itself, on 127.0.0.1:
 * the production build (`next start`, from NEXT_DIST_DIR or .next) and the OpenAI stub.
 * `node node_modules/next/dist/bin/next start` runs the server in this child process, so its
 * pid is the server's (SIGKILL really kills it).
 */

const ROOT = path.resolve(import.meta.dirname, '..');

export interface Server {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** Waits until the output matches. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** SIGTERM (or `signal`), then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function launch(command: string[], env: Record<string, string>, url: string, port: number, ready: (s: Server) => Promise<unknown>, timeoutMs: number): Promise<Server> {
  const child = spawn(process.execPath, command, {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: Server = {
    url,
    port,
    process: child,
    output: () => output,
    waitForOutput: (pattern, ms = 10_000) => waitFor(`${pattern} in the output of ${url}`, ms, () => (pattern.test(output) ? true : undefined)).then(() => {}),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  return (async () => {
    try {
      await waitFor(`${url} to answer`, timeoutMs, async () => {
        if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited (${child.exitCode}):\n${output}`);
        return (await ready(server).catch(() => undefined)) === undefined ? undefined : true;
      });
    } catch (error) {
      await server.stop('SIGKILL');
      throw error;
    }
    return server;
  })();
}

/** Is the server up: any answer from /api/health (`answering`), or one that is not `loading` (`loaded`: the KB's first load is done, as a readiness probe sees it). */
async function healthReady(url: string, until: 'answering' | 'loaded'): Promise<true | undefined> {
  const response = await fetch(`${url}/api/health`);
  // Always read to the end: an answer left unread stays open on the server, and holds its
  // graceful stop (SIGTERM) for about 3 s until this process drops the connection.
  const body = (await response.json().catch(() => ({}))) as { status?: string };
  if (until === 'answering' || response.status !== 503) return true;
  return body.status === 'loading' ? undefined : true;
}

/**
 * The status of `url` (fetched with `init`), its answer read to the end: an answer left unread
 * stays open on the server and holds its graceful stop (`stop()`) for about 3 s.
 */
export async function statusOf(url: string, init?: RequestInit): Promise<number> {
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return response.status;
}

/**
 * `next start` on 127.0.0.1:`port` with `env` on top of this process's environment; `nodeArgs` go to
 * node (e.g. `--cpu-prof`). Resolves once the KB's first load is done (`until: 'loaded'`, what a
 * deployment's readiness probe waits for), or as soon as the server answers at all (`'answering'`).
 */
export function startApp(port: number, env: Record<string, string> = {}, timeoutMs = 30_000, nodeArgs: string[] = [], until: 'answering' | 'loaded' = 'loaded'): Promise<Server> {
  const url = `http://127.0.0.1:${port}`;
  return launch(
    [...nodeArgs, path.join(ROOT, 'node_modules/next/dist/bin/next'), 'start', '--hostname', '127.0.0.1', '--port', String(port)],
    env,
    url,
    port,
    () => healthReady(url, until),
    timeoutMs,
  );
}

/**
 * A Node script that serves HTTP on 127.0.0.1:`port` (`env` tells it the port), with `nodeArgs`
 * (e.g. `--import tsx` for a TypeScript one); ready once `GET /` answers 2xx.
 */
export function startNodeScript(script: string, port: number, env: Record<string, string | undefined>, nodeArgs: string[] = []): Promise<Server> {
  const url = `http://127.0.0.1:${port}`;
  const given = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return launch([...nodeArgs, path.resolve(ROOT, script)], given, url, port, async () => ((await fetch(`${url}/`)).ok ? true : undefined), 10_000);
}

/** The OpenAI-compatible stub (e2e/stub/openai-stub.mjs) on 127.0.0.1:`port`. */
export function startStub(port: number): Promise<Server> {
  return startNodeScript('e2e/stub/openai-stub.mjs', port, { STUB_PORT: String(port) });
}

/** The production build's folder (NEXT_DIST_DIR or .next), built first when it has none; startApp serves it. */
export function ensureProductionBuild(): string {
  const distDir = process.env.NEXT_DIST_DIR || '.next';
  if (!existsSync(path.join(ROOT, distDir, 'BUILD_ID'))) {
    console.log(`== no production build in ${distDir}: building it`);
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'build'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  }
  return distDir;
}

/**
 * What the load and crash scripts start from: the production build (built first when
 * NEXT_DIST_DIR or .next has none), the stub on `port + 2`, and the environment for an app on
 * `port` answered by the stub, with a fresh trace database and no rate limit.
 */
export async function stubbedServerSetup(name: string, port: number): Promise<{ distDir: string; stub: Server; dbFile: string; env: Record<string, string> }> {
  const distDir = ensureProductionBuild();
  const dbFile = path.join(mkdtempSync(path.join(tmpdir(), `${name}-`)), 'traces.db');
  const stub = await startStub(port + 2);
  const env = {
    OPENAI_API_KEY: `${name}-test`,
    OPENAI_BASE_URL: `${stub.url}/v1`,
    OPENAI_MODEL: 'stub-model',
    TRACE_DB_PATH: dbFile,
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
  };
  return { distDir, stub, dbFile, env };
}
