import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from '../fixtures/postgresCluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throwaway cluster's superuser URL; test files make their own databases on it (test/fixtures/postgres.ts). */
    postgresAdminUrl: string;
  }
}

/**
 * One throwaway PostgreSQL cluster for the whole run (initdb costs a second or two), started as an
 * unprivileged user in a temp folder and removed when the run ends. Never skipped: without
 * PostgreSQL's binaries the run fails and says how to install them.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPostgresCluster();
  project.provide('postgresAdminUrl', cluster.adminUrl);
  const stop = () => cluster.stop();
  // A run cut short (Ctrl-C) still removes the cluster.
  process.once('exit', stop);
  return stop;
}
