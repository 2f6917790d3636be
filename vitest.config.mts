import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const ROOT = import.meta.dirname;
const TEST_FOLDERS = ['lib', 'components', 'scripts', 'app', 'eval'];
const ALL_FILES = TEST_FOLDERS.map((folder) => `${folder}/**/*.test.ts`);

/**
 * Test files that replace a module (`vi.mock`, `vi.doMock`), found by reading them: they run
 * isolated, each in a module registry of its own, so a mock never reaches another file. Every
 * other file shares its worker's modules with the files before it (`isolate: false`): importing
 * the app's dependency tree again for each of ~100 files was 154 of 217 s of a clean-clone run.
 * That is safe because no module keeps state a test can see across files except the process
 * registry (lib/server/registry.ts), which no unit test reaches, and `npm run test:shuffle`
 * checks it: the files in random order.
 */
function mockingFiles(): string[] {
  return TEST_FOLDERS.flatMap((folder) =>
    readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts') && /\bvi\.(?:do)?[mM]ock\(/.test(readFileSync(path.join(ROOT, folder, file), 'utf8')))
      .map((file) => path.join(folder, file)),
  );
}
const MOCKING_FILES = mockingFiles();

export default defineConfig({
  // The app's `@/` imports (tsconfig paths), for tests that load pages and route handlers.
  resolve: { alias: { '@': ROOT } },
  test: {
    environment: 'node',
    // A bound for a stuck test, not a speed target: property tests take several seconds on a quiet
    // machine and timed out at 20 s in a clean-clone run at load average 10.
    testTimeout: 60_000,
    // One worker per core: vitest's default is cores − 1, which on a 2-core CI machine runs every file
    // in turn. Files are independent (temporary folders, a database of their own on the shared server,
    // port 0), so they can run side by side.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared modules',
          include: ALL_FILES,
          exclude: MOCKING_FILES,
          isolate: false,
          // A throwaway PostgreSQL server for the store contract tests (lib/store/store-contract.test.ts).
          globalSetup: ['lib/testing/postgres-setup.ts'],
        },
      },
      { extends: true, test: { name: 'isolated (vi.mock)', include: MOCKING_FILES, isolate: true } },
    ],
  },
});
