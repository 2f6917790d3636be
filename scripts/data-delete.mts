/**
 * npm run data:delete -- --visitor ID | --user ID | --email ADDRESS
 *
 * Deletes one customer's data on request from the app's store — PostgreSQL at DATABASE_URL
 * when set, else the SQLite file at TRACE_DB_PATH: their conversations, turns and votes, and
 * what other ports hold of them (lib/store/erase.ts), as /debug/customer-data does, then
 * purges it from the database's files (lib/admin/customer-data.ts). The deletion is recorded
 * in the audit trail (who ran it, the counts, the subject as a keyed hash — never the data),
 * as `cli:<user>`. A server running meanwhile drops their questions from its memory on its
 * next /debug/health read.
 */
import { userInfo } from 'node:os';
import type { ServerStore } from '@/lib/store/server-store';
import { parseCommandLineOrExit, usageExit, type Cli } from './cli';

const cli: Cli = {
  name: 'data:delete',
  usage: `usage: npm run data:delete -- --visitor ID | --user ID | --email ADDRESS [--json]

Deletes one customer's conversations, turns and votes (and what else the store holds of
them, such as hand-offs) from the app's store: PostgreSQL at DATABASE_URL when set, else the
SQLite file at TRACE_DB_PATH (default: data/traces.db); then purges them from the database's
files (SQLite: its WAL checkpointed and truncated; PostgreSQL: VACUUM). Recorded in the audit trail.

  --visitor ID      the anonymous visitor (the id in their support_visitor cookie, or a turn's visitorId;
                    an id that starts with - as --visitor=ID)
  --user ID         the verified user id your site passed: their conversations and hand-offs
  --email ADDRESS   every visitor who wrote this exact address (any case, either form of an IDN domain)
                    in a message, a vote reason, their page's title or URL, or a hand-off (its address,
                    note or page); and conversations with it that have no visitor
  --json            the counts as one JSON document
  -h, --help        this text

The counts are of what was deleted: turns, conversations (with turns or a hand-off), feedback
(votes, with their reasons), hand-offs, and the visitors they were of.

Exit status: 0 done (also when nothing was found), 1 the store is unreachable, the settings are invalid
or the purge could not finish (the data is deleted: run it again to retry the purge), 2 usage.`,
};

const { values } = parseCommandLineOrExit(cli, {
  visitor: { type: 'string' },
  user: { type: 'string' },
  email: { type: 'string' },
  json: { type: 'boolean' },
});
const given = (['visitor', 'user', 'email'] as const).filter((kind) => values[kind] !== undefined);
if (given.length !== 1) usageExit(cli, 'give exactly one of --visitor, --user, --email');
const kind = given[0]!;

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { deleteCustomerData, subjectSchema } = await import('@/lib/admin/customer-data');
const { sessionKey } = await import('@/lib/admin/sessions');
const { loadVisitorSecret } = await import('@/lib/chat/visitor');
const { errorText } = await import('@/lib/errors');
const { formatIssues } = await import('@/lib/format');
const { serverSettings } = await import('@/lib/server/paths');
const { createPostgresPool, PostgresStore } = await import('@/lib/store/postgres');
const { SqliteStore } = await import('@/lib/store/sqlite');

const subject = subjectSchema.safeParse({ kind, value: values[kind] });
if (!subject.success) usageExit(cli, formatIssues(subject.error.issues, `--${kind}`));

let store: ServerStore | undefined;
try {
  const { env, paths } = serverSettings();
  store = env.DATABASE_URL ? new PostgresStore(createPostgresPool(env.DATABASE_URL, { max: 2, connectionTimeoutMillis: 10_000 })) : new SqliteStore(paths.traceDb);
  const key = sessionKey(loadVisitorSecret({ envSecret: env.VISITOR_SECRET, dataDir: paths.dataDir }));
  const who = { actor: `cli:${userInfo().username}`, via: 'cli', source: 'cli' };
  const erased = await deleteCustomerData(store, key, who, subject.data);
  if (values.json) console.log(JSON.stringify(erased));
  else {
    const counts = Object.entries(erased.counts).map(([what, n]) => `${n} ${what}`).join(', ');
    console.log(`deleted ${counts || 'nothing'} (${erased.visitors} visitor${erased.visitors === 1 ? '' : 's'}); recorded in the audit trail`);
  }
} catch (error) {
  console.error(`data:delete: ${errorText(error)}`);
  process.exitCode = 1;
} finally {
  await store?.close();
}
