import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';

/**
 * One write on the PostgreSQL hub: a SERIALIZABLE transaction, retried when PostgreSQL aborts it
 * (serialization failure 40001, deadlock 40P01) or when the process's id lease ran out in it.
 *
 * Why SERIALIZABLE rather than row locks: on SQLite every write transaction runs alone (IMMEDIATE),
 * and the domain's rules were written for that: read the seats held, the voucher balance, the free
 * external codes, the charter's bookings, then write. SERIALIZABLE gives every one of those
 * read-then-write rules the same "as if alone" guarantee across several hub processes, without a
 * SELECT … FOR UPDATE added (and kept up to date) at each of them; a rule added later is covered
 * too. The price is a retry when two writes collide (the last seats of one session); the work is
 * re-run from the start on a fresh snapshot, so a retried sale sees the seats the other one took.
 */
export const MAX_ATTEMPTS = 50;

export function isRetryableWrite(error: unknown): boolean {
  for (let e = error as { code?: string; retryWrite?: boolean; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === '40001' || e.code === '40P01' || e.retryWrite === true) return true;
  }
  return false;
}

export interface PostgresWriteOptions {
  dryRun?: boolean;
  beforeCommit?: (conn: Kysely<Database>) => Promise<void>;
  /** Runs before each attempt, outside the transaction (the id lease tops itself up). */
  beforeAttempt?: () => Promise<void>;
}

export async function inPostgresTransaction<T>(db: Kysely<Database>, work: (conn: Kysely<Database>) => Promise<T>, options: PostgresWriteOptions = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await options.beforeAttempt?.();
    try {
      return await db.connection().execute(async (conn) => {
        await sql`begin isolation level serializable`.execute(conn);
        try {
          const result = await work(conn);
          if (!options.dryRun) await options.beforeCommit?.(conn);
          await sql.raw(options.dryRun ? 'rollback' : 'commit').execute(conn);
          return result;
        } catch (error) {
          await sql`rollback`.execute(conn).catch(() => undefined);
          throw error;
        }
      });
    } catch (error) {
      if (!isRetryableWrite(error) || attempt >= MAX_ATTEMPTS) throw error;
      // Jittered backoff, growing: colliding writers spread out instead of colliding again.
      await sleep(Math.random() * Math.min(100, 2 * 2 ** Math.min(attempt, 6)));
    }
  }
}
