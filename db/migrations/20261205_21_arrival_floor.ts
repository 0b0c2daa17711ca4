import { sql, type Kysely } from 'kysely';

/**
 * Issue 39 (no row every hub write must update), the pull's half: a watermark that never passes an op
 * still being committed, so pulls stay right once writes no longer commit one at a time.
 *
 * Every transaction that inserts into sync_ops first takes, once (remembered in a transaction-local
 * setting), a shared transaction-level advisory lock keyed ARRIVAL_FLOOR_BASE + the arrival sequence's
 * last value: a key below every arrival number it will get, since its numbers are taken after it.
 * `tourdesk_arrival_bound()` is what a pull may read up to: the smaller of the sequence's last value
 * (read first) and the smallest key held (read after). An arrival at or below it was handed out before
 * the first read, after its writer's lock was taken; that lock is gone from pg_locks by the second read
 * only if the writer ended, and PostgreSQL makes a commit visible before it lets the locks go, so a
 * statement started after the bound was read sees every op at or below it that will ever commit.
 * The pull reads its page in such a later statement (db/postgres/sync/ops.ts).
 *
 * The base 2^62 keeps these keys apart from the project's other advisory key (the migration lock,
 * 2,126,021): a lock keyed by one bigint shows in pg_locks as classid (high 32 bits), objid (low 32
 * bits) and objsubid 1, so these are exactly the ones with classid >= 2^30.
 *
 * SQLite runs its writes one at a time, so arrival order is commit order there: nothing to do.
 */
export const ARRIVAL_FLOOR_BASE = '4611686018427387904';

export async function up(): Promise<void> {}

const LAST_ARRIVAL = "pg_sequence_last_value(pg_get_serial_sequence('sync_ops', 'arrival'))";

export async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`CREATE FUNCTION tourdesk_arrival_floor() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('tourdesk.arrival_floor', true), '') = '' THEN
    -- Never called (a fresh or reset sequence) reads NULL: 0 is below any number it will give.
    PERFORM pg_advisory_xact_lock_shared(${ARRIVAL_FLOOR_BASE}::bigint + coalesce(${LAST_ARRIVAL}, 0));
    PERFORM set_config('tourdesk.arrival_floor', 'held', true);
  END IF;
  RETURN NULL;
END $$`).execute(db);
  await sql.raw('CREATE TRIGGER sync_ops_arrival_floor BEFORE INSERT ON sync_ops FOR EACH STATEMENT EXECUTE FUNCTION tourdesk_arrival_floor()').execute(db);
  // The two reads in this order, each at the moment it runs (neither is transactional). A sequence not
  // called since it was set (a restore) has handed out no number in flight: its ops are all committed.
  await sql.raw(`CREATE FUNCTION tourdesk_arrival_bound() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  last bigint := coalesce(${LAST_ARRIVAL}, (SELECT max(arrival) FROM sync_ops), 0);
  floor bigint;
BEGIN
  SELECT min((l.classid::bigint << 32) | l.objid::bigint) - ${ARRIVAL_FLOOR_BASE}::bigint INTO floor
    FROM pg_locks l
   WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.classid >= 1073741824
     AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database());
  RETURN least(last, floor);
END $$`).execute(db);
}
