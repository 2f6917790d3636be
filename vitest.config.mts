import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The app's `@/` imports (tsconfig paths), for tests that load pages and route handlers.
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['lib/**/*.test.ts', 'components/**/*.test.ts', 'scripts/**/*.test.ts', 'app/**/*.test.ts', 'eval/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // One worker per core: vitest's default is cores − 1, which on a 2-core CI machine runs every file
    // in turn. Files are independent (temporary folders, a database of their own on the shared server,
    // port 0), so they can run side by side.
    maxWorkers: availableParallelism(),
    // A throwaway PostgreSQL server for the store contract tests (lib/traces/store-contract.test.ts).
    globalSetup: ['lib/testing/postgres-setup.ts'],
  },
});
