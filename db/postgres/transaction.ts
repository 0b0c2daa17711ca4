import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';
import { WRITE_TURN_TABLE } from '../migrations/20261203_43_write_turn';
import { turnHeld } from './writeTurn';

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
 *
 * Taking turns: a write locks the turn table (tourdesk_write_turn, migration 20261203_43) right after
 * BEGIN, in the same round trip, and writes queue there instead of aborting each other over and
 * over. LOCK TABLE takes no snapshot, so the transaction's snapshot is taken by its first query,
 * after the previous holder committed; the lock ends with the transaction (COMMIT, ROLLBACK, a failed
 * COMMIT, a broken connection), after the commit is visible to others, so letting the turn go costs
 * no round trip either. Every write that changes synced rows updates the one sync_instance row (docs/hub.md), so two
 * such writes that overlap always collide: running them side by side first only made the first
 * attempt of nearly every write a wasted one (the bench measured 0.99 retries per booking with
 * eight clients on eight sessions, each retry re-running the whole booking). A dry run (a quote)
 * commits nothing and keeps running beside the others; a retry of anything takes its turn.
 */
export const MAX_ATTEMPTS = 50;

/**
 * BEGIN and the turn in one simple query (no parameters, so node-postgres sends both statements in
 * one message). EXCLUSIVE conflicts with itself; reads of the table (there are none) would pass.
 */
const BEGIN_IN_TURN = sql.raw(`begin isolation level serializable; lock table ${WRITE_TURN_TABLE} in exclusive mode`);
const BEGIN_BESIDE = sql.raw('begin isolation level serializable');

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

const afterCommitHooks = new WeakMap<Kysely<Database>, (conn: Kysely<Database>) => void>();

/**
 * Runs `hook` right after every committed write on `db` (this process's own), with the write's
 * connection: its caches must not wait for the commit's NOTIFY to come back round before they stop
 * answering what it changed.
 */
export function setPostgresAfterCommit(db: Kysely<Database>, hook: (conn: Kysely<Database>) => void): void {
  afterCommitHooks.set(db, hook);
}

export async function inPostgresTransaction<T>(db: Kysely<Database>, work: (conn: Kysely<Database>) => Promise<T>, options: PostgresWriteOptions = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await options.beforeAttempt?.();
    try {
      const takingTurns = attempt > 1 || !options.dryRun;
      return await db.connection().execute(async (conn) => {
        let heldSince: number | null = null;
        try {
          await (takingTurns ? BEGIN_IN_TURN : BEGIN_BESIDE).execute(conn);
          heldSince = performance.now();
          const result = await work(conn);
          if (!options.dryRun) await options.beforeCommit?.(conn);
          await sql.raw(options.dryRun ? 'rollback' : 'commit').execute(conn);
          if (!options.dryRun) afterCommitHooks.get(db)?.(conn);
          return result;
        } catch (error) {
          // Ends the turn too (a BEGIN whose lock failed included); a broken connection lost it with its transaction.
          await sql`rollback`.execute(conn).catch(() => undefined);
          throw error;
        } finally {
          if (takingTurns && heldSince !== null) turnHeld(heldSince);
        }
      });
    } catch (error) {
      if (!isRetryableWrite(error) || attempt >= MAX_ATTEMPTS) throw error;
      // A little jitter before queueing for the turn lock, so a burst does not arrive in lockstep.
      if (attempt > 5) await sleep(Math.random() * 10);
    }
  }
}
