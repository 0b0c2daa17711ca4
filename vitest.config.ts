import { defineConfig } from 'vitest/config';

/**
 * The API suites also run against the office hub on PostgreSQL (issue 21): the same files, the same
 * fixture (test/fixtures/app.ts picks the dialect from TOURDESK_TEST_DIALECT). Not there: the CLI
 * and backup suites (SQLite data folders by design), the fuzz suites (they fingerprint the SQLite
 * file) and the cache suites (a second connection to the SQLite file).
 * The sync suites run with their hub on PostgreSQL (two hub engines on one database) and desks on
 * SQLite (test/sync/nodes.ts); not there: the pure merge rules (no database), the SQLite store's own
 * encoding, the `tourdesk serve` processes with SQLite folders and the hand-copied SQLite files
 * (test/postgres/sync.test.ts runs
 * hub processes on PostgreSQL).
 */
const POSTGRES_SUITES = ['test/api/**/*.test.ts', 'test/sync/*.test.ts'];
const NOT_ON_POSTGRES = [
  'test/api/platform/cli.test.ts', 'test/api/platform/backup.test.ts', 'test/api/http/fuzz*.test.ts',
  'test/api/http/caches.test.ts', 'test/api/availability/availabilityCaches.test.ts',
  'test/sync/pure.test.ts', 'test/sync/storage.test.ts', 'test/sync/serve.test.ts', 'test/sync/faults*.test.ts', 'test/sync/restoreByHand.test.ts',
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
      { extends: true, test: { name: 'postgres', include: POSTGRES_SUITES, exclude: NOT_ON_POSTGRES, env: { TOURDESK_TEST_DIALECT: 'postgres' }, testTimeout: 120_000 } },
    ],
  },
});
