/**
 * bench:callback-flood — what a flood of forged OpenID Connect callbacks gets, and what it
 * costs the audit trail.
 *
 *   npm run bench:callback-flood [-- --requests 600 --clients 20 --concurrency 20 --port 3890 --no-wait]
 *
 * For each scenario a production server (`next start`, NEXT_DIST_DIR or .next; built when
 * missing) with OpenID Connect configured and a fresh SQLite file, then `--requests` callbacks
 * with no sign-in started (what anyone can send: no cookie, a made-up code and state), from:
 *
 * - one address (127.0.0.1);
 * - `--clients` addresses of the connection (127.0.0.1 … 127.0.0.N: loopback answers the whole
 *   127/8), TRUST_PROXY=0;
 * - `--clients` made-up addresses in X-Forwarded-For, TRUST_PROXY=0: the header is ignored,
 *   so they are one client;
 * - the same behind one trusted proxy (TRUST_PROXY=1): `--clients` clients.
 *
 * Prints, per scenario, the answers (303: checked and sent back to the sign-in page; 429:
 * refused unchecked) and the audit rows written by the end of the flood, then — unless
 * `--no-wait` — once more after the minute in which the failures are summed up (one row per
 * client per minute, lib/admin/failure-digest.ts). The rows are read from the SQLite file.
 * The provider is never asked: a callback with no sign-in started fails before discovery.
 */
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Server } from '@/e2e/spawn';
import { parseCommandLineOrExit, wholeNumberFlag, type Cli } from './cli';

const cli: Cli = {
  name: 'bench:callback-flood',
  usage: `usage: npm run bench:callback-flood [-- options]

Forged OpenID Connect callbacks (no sign-in started) against a production server of this
build (built first when there is none): how many are answered 429 and how many are checked,
and how many audit rows they write — from one address, several, and X-Forwarded-For with
TRUST_PROXY 0 and 1.

  --requests N      callbacks per scenario (default: 600)
  --clients N       client addresses in the several-address scenarios (default: 20, at most 250)
  --concurrency N   requests in flight (default: 20)
  --port N          the servers' first port (default: 3890)
  --no-wait         do not wait the minute after which the last counts are written
  -h, --help        this text`,
};
const { values } = parseCommandLineOrExit(cli, {
  requests: { type: 'string', default: '600' },
  clients: { type: 'string', default: '20' },
  concurrency: { type: 'string', default: '20' },
  port: { type: 'string', default: '3890' },
  'no-wait': { type: 'boolean', default: false },
});
const REQUESTS = wholeNumberFlag(cli, 'requests', values.requests, 1);
const CLIENTS = Math.min(250, wholeNumberFlag(cli, 'clients', values.clients, 2));
const CONCURRENCY = wholeNumberFlag(cli, 'concurrency', values.concurrency, 1);
const PORT = wholeNumberFlag(cli, 'port', values.port, 1);

// Loaded once the command line is good (cli.ts).
const { default: Database } = await import('better-sqlite3');
const { ensureProductionBuild, startApp } = await import('@/e2e/spawn');

interface Scenario {
  name: string;
  trustProxy: number;
  /** The connection's local address and the X-Forwarded-For header of request `i`. */
  from(i: number): { localAddress: string; forwardedFor?: string };
}

const SCENARIOS: Scenario[] = [
  { name: 'one address', trustProxy: 0, from: () => ({ localAddress: '127.0.0.1' }) },
  { name: `${CLIENTS} addresses (the connection's)`, trustProxy: 0, from: (i) => ({ localAddress: `127.0.0.${(i % CLIENTS) + 1}` }) },
  { name: `${CLIENTS} forged X-Forwarded-For, TRUST_PROXY=0`, trustProxy: 0, from: (i) => ({ localAddress: '127.0.0.1', forwardedFor: `198.51.100.${i % CLIENTS}` }) },
  { name: `${CLIENTS} X-Forwarded-For, TRUST_PROXY=1`, trustProxy: 1, from: (i) => ({ localAddress: '127.0.0.1', forwardedFor: `198.51.100.${i % CLIENTS}` }) },
];

/** One callback with no sign-in started; its status. */
function forgedCallback(server: Server, i: number, scenario: Scenario, agents: Map<string, http.Agent>): Promise<number> {
  const { localAddress, forwardedFor } = scenario.from(i);
  let agent = agents.get(localAddress);
  if (!agent) agents.set(localAddress, (agent = new http.Agent({ keepAlive: true, localAddress })));
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.url}/api/debug/oidc/callback?code=forged-${i}&state=forged-${i}`, { agent, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

interface AuditCount {
  rows: number;
  /** Callbacks the rows stand for (the sum of their counts; a row without counts is one). */
  callbacks: number;
  clients: number;
}

function auditRows(dbFile: string): AuditCount {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT COUNT(*) AS rows, COALESCE(SUM(COALESCE(json_extract(detail, '$.failed') + json_extract(detail, '$.throttled'), 1)), 0) AS callbacks,
           COUNT(DISTINCT source) AS clients
         FROM audit_log WHERE action = 'sign-in.failed'`,
      )
      .get() as AuditCount;
  } finally {
    db.close();
  }
}

interface Run {
  scenario: Scenario;
  server: Server;
  dbFile: string;
  statuses: Map<number, number>;
  seconds: number;
  atEnd: AuditCount;
}

/** A server for the scenario, with the provider configured and a fresh SQLite file. */
async function serve(scenario: Scenario, port: number): Promise<{ server: Server; dbFile: string }> {
  const dbFile = path.join(mkdtempSync(path.join(tmpdir(), 'bench-callback-')), 'traces.db');
  const server = await startApp(port, {
    OPENAI_API_KEY: '',
    TRACE_DB_PATH: dbFile,
    OIDC_ISSUER: `http://127.0.0.1:${port + 50}`, // never asked: the callbacks fail before discovery
    OIDC_CLIENT_ID: 'bench',
    OIDC_CLIENT_SECRET: 'bench-client-secret',
    OIDC_ALLOWED_DOMAINS: 'acme.test',
    TRUST_PROXY: String(scenario.trustProxy),
  });
  return { server, dbFile };
}

async function flood(scenario: Scenario, server: Server): Promise<Pick<Run, 'statuses' | 'seconds'>> {
  const agents = new Map<string, http.Agent>();
  const statuses = new Map<number, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const status = await forgedCallback(server, next++, scenario, agents);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const agent of agents.values()) agent.destroy();
  return { statuses, seconds };
}

const describeAudit = (a: AuditCount) => `${a.rows} audit rows (for ${a.callbacks} callbacks, ${a.clients} client${a.clients === 1 ? '' : 's'})`;

ensureProductionBuild();

console.log(`== ${REQUESTS} forged callbacks per scenario, ${CONCURRENCY} in flight; throttle defaults (5 a minute per address, 30 for the server)`);
const servers: Server[] = [];
const runs: Run[] = [];
try {
  for (const [i, scenario] of SCENARIOS.entries()) {
    const { server, dbFile } = await serve(scenario, PORT + i);
    servers.push(server);
    const run: Run = { scenario, server, dbFile, ...(await flood(scenario, server)), atEnd: auditRows(dbFile) };
    runs.push(run);
    const answered = [...run.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${n}× ${status}`).join(', ');
    console.log(
      `${scenario.name.padEnd(40)} ${answered.padEnd(20)} in ${run.seconds.toFixed(1)} s (${(REQUESTS / run.seconds).toFixed(0)}/s); at the end: ${describeAudit(run.atEnd)}`,
    );
  }
  if (!values['no-wait']) {
    console.log('== waiting 65 s: the rest of each client\'s minute is written as one row');
    await new Promise((resolve) => setTimeout(resolve, 65_000));
    for (const run of runs) console.log(`${run.scenario.name.padEnd(40)} a minute later: ${describeAudit(auditRows(run.dbFile))}`);
  }
} finally {
  await Promise.all(servers.map((server) => server.stop()));
}
