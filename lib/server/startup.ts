import type { Env } from '../env';
import { errorText } from '../errors';
import { ignoredSettings, setNames } from './ignored-settings';
import { storagePathProblem } from '../storage-path';
import { stampPeerAddresses } from '../rate-limit/peer';
import { installOnce, serverEnv } from './registry';
import { openStore } from './app';
import { serverApp } from './server-app';
import { enforceReceiveTimeouts, SERVER_HEADERS_TIMEOUT_MS } from './timeouts';

/**
 * The server's first steps (instrumentation.ts, Node.js runtime only, before Next.js says
 * Ready): the environment is validated, and an invalid one stops the process with the
 * variable and the rule named (never its value) — a server that would answer every chat with
 * 503, or guard its inspector with a guessable ADMIN_TOKEN, is better not started. So does a
 * TRACE_DB_PATH or KB_CACHE_PATH the app cannot store in (storage-path.ts). Settings the
 * chosen mode ignores are warned about (ignored-settings.ts). Then the process-wide hooks: the
 * receive timeouts (timeouts.ts) and the peer address stamp (lib/rate-limit/peer.ts).
 */
export function prepareServer(): void {
  let settings: Env;
  try {
    settings = serverEnv();
  } catch (error) {
    refuseToStart(errorText(error));
  }
  const storage = storageProblems(settings);
  if (storage.length > 0) refuseToStart(storage.join('; '));
  for (const warning of ignoredSettings(settings, setNames(process.env))) console.warn(`[env] ${warning}`);
  installOnce('receive-timeouts', () =>
    enforceReceiveTimeouts({ headersTimeoutMs: SERVER_HEADERS_TIMEOUT_MS, requestTimeoutMs: settings.SERVER_REQUEST_TIMEOUT_MS }),
  );
  installOnce('peer-addresses', stampPeerAddresses);
}

/**
 * Builds the server's parts (the composition root, app.ts): the knowledge base is loaded now
 * and starts being checked for edits — a broken KB is reported (file:line) at start-up, the
 * site still serves and the chat answers 503 until it is fixed — and the store is opened (on
 * PostgreSQL, its migrations run) and logged.
 */
export async function startApp(): Promise<void> {
  await openStore(serverApp());
}

/** The storage settings in use that name a place the app cannot store in. */
export function storageProblems(settings: Pick<Env, 'DATABASE_URL' | 'TRACE_DB_PATH' | 'KB_CACHE_PATH'>, cwd = process.cwd()): string[] {
  const problems: string[] = [];
  const check = (name: string, target: string, kind: 'file' | 'folder') => {
    const problem = storagePathProblem(target, kind, cwd);
    if (problem) problems.push(`${name} must ${problem}`);
  };
  if (!settings.DATABASE_URL) check('TRACE_DB_PATH', settings.TRACE_DB_PATH, 'file');
  if (settings.KB_CACHE_PATH) check('KB_CACHE_PATH', settings.KB_CACHE_PATH, 'folder');
  return problems;
}

function refuseToStart(why: string): never {
  console.error(`[env] THE SERVER WILL NOT START: ${why}`);
  process.exit(1);
}
