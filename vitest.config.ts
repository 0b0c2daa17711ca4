import { defineConfig } from 'vitest/config';

/**
 * The API suites that also run against the office hub on PostgreSQL (issue 21): the same files,
 * the same fixture (test/fixtures/app.ts picks the dialect from TOURDESK_TEST_DIALECT).
 */
const POSTGRES_SUITES = [
  'test/api/bookings*.test.ts',
  'test/api/availability*.test.ts',
  'test/api/manifest*.test.ts',
  'test/api/vouchers.test.ts',
];

export default defineConfig({
  test: {
    // Each API test file opens its own SQLite file; two workers match the two cores of CI.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A throwaway PostgreSQL cluster for the hub's PostgreSQL suites (never skipped; CI installs the packages).
    globalSetup: ['test/setup/postgres.ts'],
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      // Each query is a round trip to a server here, not a call into SQLite in the same process: tests
      // that write hundreds of rows one by one (a 1,000-participant manifest) need longer than 30 s.
      { extends: true, test: { name: 'postgres', include: POSTGRES_SUITES, env: { TOURDESK_TEST_DIALECT: 'postgres' }, testTimeout: 120_000 } },
    ],
  },
});
