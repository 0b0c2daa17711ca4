import { sql, type Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * Runs `work` in one write transaction on the shared connection. IMMEDIATE takes the write lock up
 * front, so a second process waits (busy_timeout) instead of failing half-way when its read turns
 * into a write. The transaction commits when `work` resolves and rolls back when it throws; with
 * `dryRun` it always rolls back and still returns what `work` produced (a quote is a booking that is
 * never kept).
 */
export function inWriteTransaction<T>(db: Kysely<Database>, work: (conn: Kysely<Database>) => Promise<T>, options: { dryRun?: boolean } = {}): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await work(conn);
      await sql.raw(options.dryRun ? 'rollback' : 'commit').execute(conn);
      return result;
    } catch (error) {
      // A failed COMMIT may already have ended the transaction; the original error is the one to report.
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw error;
    }
  });
}
