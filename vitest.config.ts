import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A throwaway PostgreSQL cluster for the hub's PostgreSQL suites (never skipped; CI installs the packages).
    globalSetup: ['test/setup/postgres.ts'],
    // Each API test file opens its own SQLite file; two workers match the two cores of CI.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
