import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freshPostgresDatabase, type TestPostgresDatabase } from '../fixtures/postgres';

let database: TestPostgresDatabase;
beforeAll(async () => {
  database = await freshPostgresDatabase();
});
afterAll(() => database.drop());

describe('the throwaway PostgreSQL cluster', () => {
  it('answers on loopback, runs as an unprivileged user, and gives each test file its own database', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ db: string; addr: string; version: number }>(
        "SELECT current_database() AS db, host(inet_server_addr()) AS addr, current_setting('server_version_num')::int AS version",
      );
      expect(rows[0].db).toBe(database.name);
      expect(rows[0].addr).toBe('127.0.0.1');
      expect(rows[0].version).toBeGreaterThanOrEqual(130000);
      // The server process is not root's (PostgreSQL refuses root; the harness starts it as postgres or nobody).
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const { statSync } = await import('node:fs');
      expect(statSync(`/proc/${pid}`).uid).not.toBe(0);
    } finally {
      await client.end();
    }
  });
});
