import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseEnv } from '../env';
import { KnowledgeUnavailableError } from '../knowledge/holder';
import { databaseFault, faultMessage, faultSafe, inspectorFault, InspectorFaultError, knowledgeFault, withoutCredentials } from './faults';
import { fillTestRegistry } from '../testing/registry';
import type { ServerStore } from '../store/server-store';

const probe = vi.hoisted(() => ({ ready: async (): Promise<void> => {} }));
vi.mock('server-only', () => ({}));

fillTestRegistry(parseEnv({ TRACE_DB_PATH: 'data/traces.db' }), { store: () => ({ ready: () => probe.ready() }) as unknown as ServerStore });

const refused = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));

beforeEach(() => {
  probe.ready = async () => {};
});

describe('withoutCredentials', () => {
  const url = 'postgres://support:p%40ss-w0rd-123@db.internal:5432/support';
  it('hides the URL, its password raw and decoded; keeps the rest of the message', () => {
    const text = `could not connect to ${url}: password p@ss-w0rd-123 (p%40ss-w0rd-123) rejected for "support"`;
    const out = withoutCredentials(text, url);
    expect(out).toBe('could not connect to ***: password *** (***) rejected for "support"');
    expect(out).not.toMatch(/p@ss|p%40ss/);
  });
  it('a URL without a password hides only the URL itself', () => {
    expect(withoutCredentials('timeout exceeded when trying to connect', 'postgres://db:5432/x')).toBe('timeout exceeded when trying to connect');
  });
});

describe('databaseFault', () => {
  it('PostgreSQL: host, port and database, and the error without the credentials', () => {
    const url = 'postgres://app:s3cret-passw0rd@127.0.0.1:4319/postgres';
    const fault = databaseFault(new Error(`connect ECONNREFUSED 127.0.0.1:4319 (${url})`), { DATABASE_URL: url, TRACE_DB_PATH: 'data/traces.db' });
    expect(fault).toEqual({ kind: 'database', reason: 'PostgreSQL 127.0.0.1:4319/postgres: connect ECONNREFUSED 127.0.0.1:4319 (***)' });
    expect(faultMessage(fault)).toBe('the database is unreachable: PostgreSQL 127.0.0.1:4319/postgres: connect ECONNREFUSED 127.0.0.1:4319 (***)');
  });
  it('SQLite: the file', () => {
    expect(databaseFault(new Error('unable to open database file'), { DATABASE_URL: undefined, TRACE_DB_PATH: '/ro/traces.db' })).toEqual({
      kind: 'database',
      reason: 'SQLite /ro/traces.db: unable to open database file',
    });
  });
});

describe('knowledgeFault', () => {
  it("the loader's file:line, by the error's name (the holder may come from another bundle's copy of the class)", () => {
    const message = 'rules/assistant-rules.md:3: malformed front matter (a pinned file: the knowledge base is not served without it)';
    expect(knowledgeFault(new KnowledgeUnavailableError(message))).toEqual({ kind: 'knowledge', reason: message });
    const foreign = Object.assign(new Error('content: no such file or folder'), { name: 'KnowledgeUnavailableError' });
    expect(knowledgeFault(foreign)).toEqual({ kind: 'knowledge', reason: 'content: no such file or folder' });
    expect(knowledgeFault(new Error('something else'))).toBeUndefined();
  });
});

describe('inspectorFault', () => {
  it("the guard's fault, the KB's, or — when the store does not answer either — the database's, with the store's reason", async () => {
    const fault = { kind: 'database' as const, reason: 'x' };
    expect(await inspectorFault(new InspectorFaultError(fault))).toBe(fault);
    expect(await inspectorFault(new KnowledgeUnavailableError('content: no such file or folder'))).toEqual({ kind: 'knowledge', reason: 'content: no such file or folder' });
    probe.ready = refused;
    expect(await inspectorFault(new Error('Query read timeout'))).toEqual({ kind: 'database', reason: 'SQLite data/traces.db: connect ECONNREFUSED 127.0.0.1:5432' });
  });
  it('an error while the store answers is a bug, not a fault', async () => {
    expect(await inspectorFault(new TypeError('x is not a function'))).toBeUndefined();
  });
});

describe('faultSafe', () => {
  it('a fault: 503 { error } with the reason', async () => {
    const response = await faultSafe(() => Promise.reject(new KnowledgeUnavailableError('content: no such file or folder')));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: 'no knowledge base is loaded: content: no such file or folder' });
  });
  it('a bug: logged, 500 JSON (never an empty body)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await faultSafe(() => Promise.reject(new TypeError('x is not a function')));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/server log/) });
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });
  it('no error: the response as it is', async () => {
    expect((await faultSafe(async () => new Response('ok', { status: 201 }))).status).toBe(201);
  });
});
