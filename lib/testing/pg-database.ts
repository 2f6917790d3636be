import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import './postgres-setup';

/** A new, empty database on the test run's PostgreSQL server; returns its URL. */
export async function freshDatabase(): Promise<string> {
  const server = inject('postgresUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}
