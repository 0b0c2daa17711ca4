import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema';
import { isPostgres } from './dialect';
import { inPostgresTransaction } from './postgres/transaction';
import { heldStatements, holding } from './heldConnection';

/** Runs at the end of a committing write, inside it (sync's fold: main/domain/context.ts passes it). */
export type BeforeCommit = (conn: Kysely<Database>) => Promise<void>;

export interface WriteOptions {
  /** Always roll back, and still return what the work produced (a quote is a booking that is never kept). */
  dryRun?: boolean;
  /**
   * On the PostgreSQL hub, the write claims every row its rules read (db/queries/claims.ts) and so runs
   * beside other such writes instead of in the hub's turn (db/postgres/transaction.ts). SQLite runs
   * every write alone and ignores it.
   */
  sideBySide?: boolean;
  /** Runs before each attempt, outside the transaction (the PostgreSQL hub's id lease tops itself up). */
  beforeAttempt?: () => Promise<void>;
  /**
   * Runs after `work`, inside its transaction, unless it is a dry run: what it writes commits or rolls
   * back with the work (sync turns the rows the work changed into ops there).
   */
  beforeCommit?: BeforeCommit;
}

/**
 * Runs `work` in one write transaction on the shared connection. IMMEDIATE takes the write lock up
 * front, so a second process waits (busy_timeout) instead of failing half-way when its read turns
 * into a write. The transaction commits when `work` (and `beforeCommit`) resolve and rolls back when
 * either throws; with `dryRun` it always rolls back.
 *
 * On SQLite, writes that are waiting together share one COMMIT (group commit, below): each runs in
 * its own savepoint, so it still commits or rolls back whole and alone, and its promise settles only
 * after the COMMIT that made it durable.
 */
export function inWriteTransaction<T>(db: Kysely<Database>, work: (conn: Kysely<Database>) => Promise<T>, options: WriteOptions = {}): Promise<T> {
  // The office hub on PostgreSQL: REPEATABLE READ in turn or side by side, with retry (db/postgres/transaction.ts says why).
  if (isPostgres(db)) return inPostgresTransaction(db, work, options);
  return new Promise<T>((resolve, reject) => {
    let queue = writeQueues.get(db);
    if (!queue) writeQueues.set(db, (queue = { waiting: [], scheduled: false }));
    queue.waiting.push({ work, dryRun: options.dryRun === true, beforeCommit: options.beforeCommit, resolve: resolve as (value: unknown) => void, reject });
    scheduleGroup(db, queue);
  });
}

/**
 * Group commit. COMMIT's fsync (synchronous=FULL) is the largest cost of a write here, and it is
 * the same for one write's pages as for thirty's. So writes that are waiting when the connection
 * comes free run one after another inside one `BEGIN IMMEDIATE`, each in a savepoint, and share
 * one COMMIT:
 * - a write that throws rolls back to its savepoint and is rejected alone; the others keep theirs;
 * - a write's `beforeCommit` (sync's fold) runs at the end of that write, inside its savepoint, so
 *   each write's ops are its own and roll back with it;
 * - a `dryRun` write rolls back its savepoint;
 * - every promise settles after the COMMIT (nothing is acknowledged before it is durable, and what
 *   a caller does next, invalidating a cache or answering, sees committed rows); if the COMMIT
 *   fails (a deferred foreign key left dangling) every write of the group is rejected and nothing
 *   of it is kept.
 * A group starts two check phases after its first write was queued (`setImmediate` twice, see
 * scheduleGroup), so the requests that arrived together, and those read in the poll between, all
 * join it, and it never waits for more: it takes what is waiting, up to
 * GROUP_MAX_WRITES writes or GROUP_MAX_MS of work, then commits. A lone write costs what it did
 * (a group's first write runs without a savepoint), and nothing awaits a timer inside the
 * transaction. The bound is ~10 ms, not less: a booking's work is 1–3 ms on a busy 2-core machine, and a write left out of a group waits
 * for the next one anyway, so a tighter bound shortens no one's wait and shares fewer fsyncs.
 */
export const GROUP_MAX_WRITES = 32;
export const GROUP_MAX_MS = 10;

interface WaitingWrite {
  work: (conn: Kysely<Database>) => Promise<unknown>;
  dryRun: boolean;
  beforeCommit: BeforeCommit | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { write: WaitingWrite; ok: true; value: unknown } | { write: WaitingWrite; ok: false; error: unknown };

interface WriteQueue {
  waiting: WaitingWrite[];
  /** A group is scheduled or running: the writes that arrive meanwhile wait for it to finish. */
  scheduled: boolean;
}

const writeQueues = new WeakMap<Kysely<Database>, WriteQueue>();

function scheduleGroup(db: Kysely<Database>, queue: WriteQueue): void {
  if (queue.scheduled || queue.waiting.length === 0) return;
  queue.scheduled = true;
  // Two check phases on: a write is queued from a check phase (after its request's observation,
  // main/api/observations.ts), and the requests read in the poll after it reach their writes in the
  // next one; starting there lets them share this COMMIT instead of each pass paying its own fsync.
  // A lone write waits one more turn of the loop, not a timer.
  setImmediate(startGroupAfterNextPoll, db, queue);
}

function startGroupAfterNextPoll(db: Kysely<Database>, queue: WriteQueue): void {
  setImmediate(startGroup, db, queue);
}

function startGroup(db: Kysely<Database>, queue: WriteQueue): void {
  void db
    .connection()
    .execute((conn) => holding(db, conn, () => runGroup(conn, queue)))
    .catch((error: unknown) => {
      // The connection could not be had (the database is closed): the writes waiting fail with it.
      for (const write of queue.waiting.splice(0)) write.reject(error);
    })
    .finally(() => {
      queue.scheduled = false;
      scheduleGroup(db, queue);
    });
}

const BEGIN = CompiledQuery.raw('begin immediate');
const SAVEPOINT = CompiledQuery.raw('savepoint tourdesk_write');
const RELEASE = CompiledQuery.raw('release tourdesk_write');
const ROLLBACK_TO = CompiledQuery.raw('rollback to tourdesk_write');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');
/** Asked after every write of a group that others wait behind: compiled once, not built from a template each time. */
const DEFER_FOREIGN_KEYS = CompiledQuery.raw('pragma defer_foreign_keys');

async function runGroup(conn: Kysely<Database>, queue: WriteQueue): Promise<void> {
  try {
    await control(conn, BEGIN);
  } catch (error) {
    // Busy past busy_timeout (another process holds the lock): the first write fails as it did alone; the rest try again.
    queue.waiting.shift()?.reject(error);
    return;
  }
  const outcomes: Outcome[] = [];
  /** Set when a failure ended the transaction, not only the write's savepoint (or failed the group's first write). */
  let ended: unknown = null;
  const started = performance.now();
  while (queue.waiting.length > 0 && outcomes.length < GROUP_MAX_WRITES && (outcomes.length === 0 || performance.now() - started < GROUP_MAX_MS)) {
    const write = queue.waiting.shift()!;
    // The group's first write needs no savepoint (a lone write costs what it did): if it fails, the
    // transaction holds nothing else and is rolled back whole, ending the group.
    const first = outcomes.length === 0 && !write.dryRun;
    let value: unknown;
    try {
      if (!first) await control(conn, SAVEPOINT);
      value = await write.work(conn);
      if (write.dryRun) await control(conn, ROLLBACK_TO);
      else await write.beforeCommit?.(conn);
      if (!first) await control(conn, RELEASE);
    } catch (error) {
      outcomes.push({ write, ok: false, error });
      if (first) {
        ended = error;
        break;
      }
      try {
        await control(conn, ROLLBACK_TO);
        await control(conn, RELEASE);
      } catch {
        // The savepoint is gone: the error ended the transaction itself (SQLite rolls back whole on some errors).
        ended = error;
        break;
      }
      continue;
    }
    outcomes.push({ write, ok: true, value });
    // A write that deferred its foreign keys (a sync page whose rows arrive children first) is
    // checked only at COMMIT, and the setting lasts until then: it ends its group, so no write
    // after it runs unchecked and a dangling key fails as few writes as possible.
    if (queue.waiting.length > 0 && (await deferringForeignKeys(conn))) break;
  }
  let failure: unknown = ended;
  if (ended === null) {
    try {
      // Nothing to keep (every write failed or was a dry run): a rollback, no fsync.
      await control(conn, outcomes.some((o) => o.ok && !o.write.dryRun) ? COMMIT : ROLLBACK);
    } catch (error) {
      failure = error;
    }
  }
  if (failure !== null) await control(conn, ROLLBACK).catch(() => undefined);
  for (const outcome of outcomes) {
    if (!outcome.ok) outcome.write.reject(outcome.error);
    else if (failure !== null) outcome.write.reject(failure);
    else outcome.write.resolve(outcome.value);
  }
}

/**
 * Runs one of the group's own statements (BEGIN, SAVEPOINT, COMMIT…) on the connection it holds:
 * its prepared statement at once, as the group's queries run (db/heldConnection.ts), not through
 * Kysely's executor for every write of every group.
 */
async function control<R>(conn: Kysely<Database>, query: CompiledQuery): Promise<R[]> {
  const held = heldStatements(conn);
  if (held === undefined) return (await conn.executeQuery<R>(query)).rows;
  const statement = held.prepare(query.sql);
  if (statement.reader) return statement.all([]) as R[];
  statement.run([]);
  return [];
}

/** Whether the transaction defers its foreign-key checks to COMMIT (an error reading it counts as yes: the group ends). */
async function deferringForeignKeys(conn: Kysely<Database>): Promise<boolean> {
  try {
    return Boolean((await control<{ defer_foreign_keys: number }>(conn, DEFER_FOREIGN_KEYS))[0]?.defer_foreign_keys);
  } catch {
    return true;
  }
}
