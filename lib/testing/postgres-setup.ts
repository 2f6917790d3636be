import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres';

/**
 * vitest globalSetup: one throwaway PostgreSQL server for the whole run (lib/testing/postgres.ts);
 * tests reach it with `inject('postgresUrl')` and make their own databases in it (pg-database.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgres();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}
