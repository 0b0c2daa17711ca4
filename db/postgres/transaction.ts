import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';
import { WRITE_TURN_TABLE } from '../migrations/20261203_43_write_turn';
import { turnHeld, wroteBeside } from './writeTurn';

/**
 * One write on the PostgreSQL hub: a REPEATABLE READ transaction, retried when PostgreSQL aborts it
 * (serialization failure 40001, deadlock 40P01) or when the process's id lease ran out in it.
 *
 * Two kinds of write (docs/hub.md, "Several hub processes"):
 * - **In turn** (every write but those below): it locks the turn table (tourdesk_write_turn, migration
 *   20261203_43) in EXCLUSIVE mode right after BEGIN, in the same round trip, so it runs alone among
 *   the hub's writes, as every write does on SQLite, and the domain's read-then-write rules (seats
 *   left, a voucher's balance, a free external code, a charter's one booking, a check-in counted once)
 *   hold as they were written. LOCK TABLE takes no snapshot, so the write's snapshot is taken by its
 *   first query, after the previous holder committed; the lock ends with the transaction (COMMIT,
 *   ROLLBACK, a failed COMMIT, a broken connection), after the commit is visible to others, so letting
 *   the turn go costs no round trip either.
 * - **Side by side** (`sideBySide`: a booking's create): it locks the turn table in ROW EXCLUSIVE
 *   mode, which writes in turn wait for and other side-by-side writes do not. Such a write claims
 *   every row its rules depend on (db/queries/claims.ts: the sessions it books, the vouchers it
 *   redeems); under REPEATABLE READ two open transactions that update one row cannot both commit, so
 *   two bookings of one session never both count its seats from before the other, and a row both
 *   update (an external code taken) is taken once. What they write besides is their own (new rows,
 *   their connection's origin: migration 20261207_21). A unique key another side-by-side write
 *   inserted first (a payment reference) is retried too, and the retry finds it. From the third
 *   attempt such a write takes its turn, so a busy session's last seats never starve it.
 * A dry run (a quote) commits nothing and runs beside all of them; a retry of one takes its turn.
 */
export const MAX_ATTEMPTS = 50;

/** From this attempt on, a side-by-side write takes the turn (it has lost twice to writes of the same rows). */
const SIDE_BY_SIDE_ATTEMPTS = 2;

/**
 * BEGIN and the turn in one simple query (no parameters, so node-postgres sends both statements in
 * one message). EXCLUSIVE conflicts with itself and with ROW EXCLUSIVE; ROW EXCLUSIVE not with itself.
 */
const BEGIN_IN_TURN = sql.raw(`begin isolation level repeatable read; lock table ${WRITE_TURN_TABLE} in exclusive mode`);
const BEGIN_SIDE_BY_SIDE = sql.raw(`begin isolation level repeatable read; lock table ${WRITE_TURN_TABLE} in row exclusive mode`);
const BEGIN_BESIDE = sql.raw('begin isolation level repeatable read');

/** `sideBySide`: a unique key taken meanwhile (23505) is another side-by-side write's; the retry finds it. */
export function isRetryableWrite(error: unknown, sideBySide = false): boolean {
  for (let e = error as { code?: string; retryWrite?: boolean; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === '40001' || e.code === '40P01' || e.retryWrite === true || (sideBySide && e.code === '23505')) return true;
  }
  return false;
}

export interface PostgresWriteOptions {
  dryRun?: boolean;
  /** Runs beside other such writes instead of in turn: it claims every row its rules read (above). */
  sideBySide?: boolean;
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
    const sideBySide = options.sideBySide === true && attempt <= SIDE_BY_SIDE_ATTEMPTS;
    try {
      const takingTurns = !sideBySide && (attempt > 1 || !options.dryRun);
      const besideWrite = sideBySide && !options.dryRun;
      return await db.connection().execute(async (conn) => {
        let heldSince: number | null = null;
        try {
          await (takingTurns ? BEGIN_IN_TURN : besideWrite ? BEGIN_SIDE_BY_SIDE : BEGIN_BESIDE).execute(conn);
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
          if (heldSince !== null && takingTurns) turnHeld(heldSince);
          else if (heldSince !== null && besideWrite) wroteBeside();
        }
      });
    } catch (error) {
      if (!isRetryableWrite(error, sideBySide) || attempt >= MAX_ATTEMPTS) throw error;
      // A little jitter before queueing for the turn lock, so a burst does not arrive in lockstep.
      if (attempt > 5) await sleep(Math.random() * 10);
    }
  }
}
