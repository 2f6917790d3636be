import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['lib/**/*.test.ts', 'scripts/**/*.test.ts', 'app/**/*.test.ts', 'eval/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
  },
});
