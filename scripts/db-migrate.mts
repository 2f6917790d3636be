/**
 * npm run db:migrate — brings the app's database schema up to date, then exits.
 *
 * The server also migrates on start (under an advisory lock on PostgreSQL, so instances
 * starting together take turns); this is for a deploy step that should fail before any
 * instance starts when the database is unreachable or newer than this release.
 * DATABASE_URL set: PostgreSQL; unset: the SQLite file at TRACE_DB_PATH.
 */
import { parseCommandLineOrExit, type Cli } from './cli';

const cli: Cli = {
  name: 'db:migrate',
  usage: `usage: npm run db:migrate

Brings the schema of the app's database up to date: PostgreSQL at DATABASE_URL when set,
else the SQLite file at TRACE_DB_PATH (default: data/traces.db). No options.

  -h, --help    this text

Exit status: 0 up to date, 1 the database is unreachable, newer than this release, or the settings are invalid.`,
};
parseCommandLineOrExit(cli, {});

// Loaded once the command line is good, so that --help and a bad flag answer at once (cli.ts).
const { errorText } = await import('@/lib/errors');
const { serverSettings } = await import('@/lib/server/paths');
const { createPostgresPool, databaseLabel, migratePostgres } = await import('@/lib/store/postgres');
const { POSTGRES_MIGRATIONS } = await import('@/lib/store/postgres-migrations');
const { openTraceDatabase } = await import('@/lib/store/sqlite');
const { MIGRATIONS } = await import('@/lib/store/sqlite-migrations');

try {
  const { env: settings, paths } = serverSettings();
  if (settings.DATABASE_URL) {
    const pool = createPostgresPool(settings.DATABASE_URL, { max: 1, connectionTimeoutMillis: 10_000 });
    try {
      await migratePostgres(pool);
      console.log(`PostgreSQL ${databaseLabel(settings.DATABASE_URL)}: schema version ${POSTGRES_MIGRATIONS.length}`);
    } finally {
      await pool.end();
    }
  } else {
    openTraceDatabase(paths.traceDb).close();
    console.log(`SQLite ${paths.traceDb}: schema version ${MIGRATIONS.length}`);
  }
} catch (error) {
  console.error(`db:migrate: ${errorText(error)}`);
  process.exit(1);
}
