import 'server-only';
import type { Env } from '../env';
import { errorText } from '../errors';
import { jsonError } from '../http';
import { serverEnv } from '../server/registry';
import { serverApp } from '../server/server-app';
import { databaseLabel } from '../store/postgres';

/**
 * What the inspector says when it cannot read what it shows: the database is unreachable, or
 * no knowledge base is loaded. Pages show it as a panel in the inspector's own look
 * (components/debug/inspector-page.tsx), the APIs as JSON 503 `{ error }`; both with the
 * reason an admin needs: the database's error (which database, never its credentials) or the
 * loader's `file:line`. Anything else a page or handler throws is a bug, not a fault.
 */

export interface InspectorFault {
  kind: 'database' | 'knowledge';
  reason: string;
}

const TITLES: Record<InspectorFault['kind'], string> = {
  database: 'The database is unreachable',
  knowledge: 'No knowledge base is loaded',
};

export const faultTitle = (fault: InspectorFault): string => TITLES[fault.kind];

/** One line: "the database is unreachable: PostgreSQL db:5432/support: connect ECONNREFUSED …". */
export function faultMessage(fault: InspectorFault): string {
  const title = faultTitle(fault);
  return `${title[0]!.toLowerCase()}${title.slice(1)}: ${fault.reason}`;
}

/** Thrown by the guard when the database it needs to check a session cannot be read. */
export class InspectorFaultError extends Error {
  override readonly name = 'InspectorFaultError';
  constructor(readonly fault: InspectorFault) {
    super(faultMessage(fault));
  }
}

/** `text` with the URL, its password and its user:password pair replaced by `***`. */
export function withoutCredentials(text: string, url: string): string {
  let password = '';
  try {
    password = new URL(url).password;
  } catch {
    // Not a URL: only the whole string is hidden.
  }
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // A malformed escape: the raw form is hidden.
  }
  const secrets = [...new Set([url, password, decoded])].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  return secrets.reduce((out, secret) => out.split(secret).join('***'), text);
}

/** A store error as a fault: which store, and the error without DATABASE_URL's credentials. */
export function databaseFault(error: unknown, settings: Pick<Env, 'DATABASE_URL' | 'TRACE_DB_PATH'> = serverEnv()): InspectorFault {
  const url = settings.DATABASE_URL;
  const reason = url
    ? `PostgreSQL ${databaseLabel(url)}: ${withoutCredentials(errorText(error), url)}`
    : `SQLite ${settings.TRACE_DB_PATH}: ${errorText(error)}`;
  return { kind: 'database', reason };
}

// By name, not instanceof: the holder on globalThis may come from another bundle's copy of the class.
const named = (error: unknown, name: string): error is Error => error instanceof Error && error.name === name;

/** The fault when `error` says the KB never loaded (KnowledgeUnavailableError, with the loader's `file:line`), else undefined. */
export function knowledgeFault(error: unknown): InspectorFault | undefined {
  return named(error, 'KnowledgeUnavailableError') ? { kind: 'knowledge', reason: error.message } : undefined;
}

/**
 * The fault behind an error a page or handler threw, or undefined for a bug. Any other error
 * is checked against the store: when it does not answer either, the fault is the database,
 * with the store's own reason.
 */
export async function inspectorFault(error: unknown): Promise<InspectorFault | undefined> {
  if (named(error, 'InspectorFaultError')) return (error as InspectorFaultError).fault;
  const knowledge = knowledgeFault(error);
  if (knowledge) return knowledge;
  try {
    await serverApp().store().ready();
  } catch (probe) {
    return databaseFault(probe);
  }
  return undefined;
}

/** The APIs' answer for a fault: 503 `{ "error": "the database is unreachable: …" }`. */
export function faultResponse(fault: InspectorFault): Response {
  return jsonError(503, faultMessage(fault));
}

/**
 * An inspector API's work after its guard: a fault is answered 503 with its reason; a bug is
 * logged and answered 500 JSON (never an empty body).
 */
export async function faultSafe(work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    const fault = await inspectorFault(error);
    if (fault) return faultResponse(fault);
    console.error('[debug] an inspector API failed:', error);
    return jsonError(500, 'the inspector failed on this request (the server log says why)');
  }
}
