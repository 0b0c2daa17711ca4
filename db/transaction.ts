import { sql, type Kysely } from 'kysely';
import type { Database } from './schema';
import { isPostgres } from './dialect';
import { inPostgresTransaction } from './postgres/transaction';

/**
 * Runs `work` in one write transaction on the shared connection. IMMEDIATE takes the write lock up
 * front, so a second process waits (busy_timeout) instead of failing half-way when its read turns
 * into a write. The transaction commits when `work` resolves and rolls back when it throws; with
 * `dryRun` it always rolls back and still returns what `work` produced (a quote is a booking that is
 * never kept).
 */
export function inWriteTransaction<T>(db: Kysely<Database>, work: (conn: Kysely<Database>) => Promise<T>, options: { dryRun?: boolean; beforeAttempt?: () => Promise<void> } = {}): Promise<T> {
  // The office hub on PostgreSQL: SERIALIZABLE with retry (db/postgres/transaction.ts says why).
  if (isPostgres(db)) return inPostgresTransaction(db, work, { ...options, beforeCommit: beforeCommitHooks.get(db) });
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await work(conn);
      if (!options.dryRun) await beforeCommitHooks.get(db)?.(conn);
      await sql.raw(options.dryRun ? 'rollback' : 'commit').execute(conn);
      return result;
    } catch (error) {
      // A failed COMMIT may already have ended the transaction; the original error is the one to report.
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw error;
    }
  });
}

type BeforeCommit = (conn: Kysely<Database>) => Promise<void>;
const beforeCommitHooks = new WeakMap<Kysely<Database>, BeforeCommit>();

/**
 * Runs `hook` at the end of every committing write transaction on `db`, inside it: sync turns the
 * rows the transaction changed into ops there, so the ops commit (or roll back) with the change.
 */
export function setBeforeCommit(db: Kysely<Database>, hook: BeforeCommit | null): void {
  if (hook) beforeCommitHooks.set(db, hook);
  else beforeCommitHooks.delete(db);
}
