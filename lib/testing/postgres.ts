import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A throwaway PostgreSQL cluster for tests, e2e and load runs: Debian's server binaries
 * (/usr/lib/postgresql/<version>/bin), initdb into a temporary folder, trust auth, a free
 * loopback port, the socket in that folder. As root the server runs as the `postgres` user
 * (initdb refuses root). `stop()` ends it (immediate mode) and deletes the folder;
 * `stopServer()` / `startServer()` take it away and bring it back, for outage tests.
 *
 * TEST_DATABASE_URL, when set, is used instead (a server you run yourself).
 */

export interface PostgresCluster {
  /** postgres://app@127.0.0.1:PORT/postgres — the superuser `app`, the default database. */
  url: string;
  /**
   * A database outage: stops the server (`pg_ctl stop`, fast mode: every connection is cut),
   * keeping its data; `startServer` brings it back on the same port. Not with TEST_DATABASE_URL.
   */
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  /** Ends the server and deletes its folder. */
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL server's bin folder, or undefined. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? path.join(root, versions.at(-1)!, 'bin') : undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a server binary, as `postgres` when we are root. */
function run(bin: string, args: string[]): void {
  if (isRoot()) {
    const quoted = [bin, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
    execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { stdio: 'pipe' });
  } else {
    execFileSync(bin, args, { stdio: 'pipe' });
  }
}

export async function startPostgres(): Promise<PostgresCluster> {
  if (process.env.TEST_DATABASE_URL) {
    const notOurs = async () => {
      throw new Error('TEST_DATABASE_URL is a server of yours: a test cannot stop and start it');
    };
    return { url: process.env.TEST_DATABASE_URL, stopServer: notOurs, startServer: notOurs, stop: async () => {} };
  }
  const bin = postgresBinDir();
  if (!bin) {
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin: install them ' +
        '(apt-get install --no-install-recommends postgresql) or set TEST_DATABASE_URL to a server of yours',
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'support-chat-pg-'));
  if (isRoot()) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  const port = await freePort();
  const data = path.join(dir, 'db');
  const start = () =>
    run(path.join(bin, 'pg_ctl'), [
      '-D', data, '-l', path.join(dir, 'log'), '-w', '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      'start',
    ]);
  let running = false;
  try {
    run(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'app', '--no-sync']);
    start();
    running = true;
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`could not start a throwaway PostgreSQL: ${(error as Error).message}\n${stderr}`);
  }
  return {
    url: `postgres://app@127.0.0.1:${port}/postgres`,
    async stopServer() {
      run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    async startServer() {
      start();
      running = true;
    },
    async stop() {
      try {
        if (running) run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
