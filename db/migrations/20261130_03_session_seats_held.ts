import { sql, type Kysely } from 'kysely';

/**
 * The seats a session's live bookings hold, kept by triggers in the writing transaction.
 *
 * Every booking checks its session's seats inside the write lock, and the sum over the session's
 * items of live bookings read one index entry and one bookings lookup per item: a session with 600
 * bookings cost ~0.7 ms per booking, and the cost grew with every sale. Here the same sum is kept
 * per session by triggers on booking_items and bookings, so it changes in the same statement (and
 * transaction, and savepoint) as the rows it is made from, on every path that writes them: the
 * domain's writes, sync's applied rows (upserts fire the update triggers) and deletes (children
 * first or by cascade). It is derived data, local to each instance: not a synced table (no capture
 * triggers), so seats are still never synced as a number, and it is made here from the rows already
 * there. test/unit/sessionSeatsHeld.test.ts checks it against the sum after every kind of write.
 *
 * The live statuses are frozen here as the migration is (main/contract/enums.ts LIVE_STATUSES; the
 * test fails if the two part). A later migration that rebuilds bookings or booking_items drops these
 * triggers with the table and must make them again (statements() below).
 *
 * PostgreSQL gets the table (both dialects have the same tables) but not the triggers: the hub keeps
 * reading the sum (db/queries/seats.ts), so the table stays empty there.
 */
const LIVE = `('PROCESSING', 'NEW', 'ON_HOLD', 'PENDING_SUPPLIER', 'PENDING_CUSTOMER', 'CONFIRMED')`;
const isLive = (row: 'NEW' | 'OLD') => `EXISTS (SELECT 1 FROM bookings WHERE order_number = ${row}.order_number AND status IN ${LIVE})`;
/** Adds `held` (a SELECT of session_id, held) to the sessions' figures. */
const add = (select: string) => `INSERT INTO session_seats_held (session_id, held) ${select} ON CONFLICT (session_id) DO UPDATE SET held = held + excluded.held;`;
/** The seats of one order's items, per session, times `sign`. */
const ofOrder = (order: string, sign: 1 | -1) => `SELECT session_id, ${sign} * sum(seats_held) FROM booking_items WHERE order_number = ${order} AND session_id IS NOT NULL GROUP BY session_id`;

export function statements(): string[] {
  return [
    `CREATE TRIGGER session_seats_item_insert AFTER INSERT ON booking_items
       WHEN NEW.session_id IS NOT NULL AND ${isLive('NEW')}
     BEGIN ${add(`SELECT NEW.session_id, NEW.seats_held WHERE true`)} END`,
    `CREATE TRIGGER session_seats_item_update AFTER UPDATE OF order_number, session_id, seats_held ON booking_items
     BEGIN
       ${add(`SELECT OLD.session_id, -OLD.seats_held WHERE OLD.session_id IS NOT NULL AND ${isLive('OLD')}`)}
       ${add(`SELECT NEW.session_id, NEW.seats_held WHERE NEW.session_id IS NOT NULL AND ${isLive('NEW')}`)}
     END`,
    `CREATE TRIGGER session_seats_item_delete AFTER DELETE ON booking_items
       WHEN OLD.session_id IS NOT NULL AND ${isLive('OLD')}
     BEGIN ${add(`SELECT OLD.session_id, -OLD.seats_held WHERE true`)} END`,
    // A booking that arrives after its items (a sync page, children first) brings their seats.
    `CREATE TRIGGER session_seats_booking_insert AFTER INSERT ON bookings
       WHEN NEW.status IN ${LIVE}
     BEGIN ${add(ofOrder('NEW.order_number', 1))} END`,
    `CREATE TRIGGER session_seats_booking_update AFTER UPDATE OF order_number, status ON bookings
       WHEN (OLD.status IN ${LIVE}) <> (NEW.status IN ${LIVE}) OR OLD.order_number <> NEW.order_number
     BEGIN
       ${add(`${ofOrder('OLD.order_number', -1)} HAVING OLD.status IN ${LIVE}`)}
       ${add(`${ofOrder('NEW.order_number', 1)} HAVING NEW.status IN ${LIVE}`)}
     END`,
    // BEFORE: its items are still there to count; the cascade that deletes them then finds no live
    // booking (the row is gone) and takes nothing a second time.
    `CREATE TRIGGER session_seats_booking_delete BEFORE DELETE ON bookings
       WHEN OLD.status IN ${LIVE}
     BEGIN ${add(ofOrder('OLD.order_number', -1))} END`,
  ];
}

const TABLE = `CREATE TABLE session_seats_held (
     session_id INTEGER PRIMARY KEY,
     held INTEGER NOT NULL
   ) STRICT`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(TABLE).execute(db);
  for (const statement of statements()) await sql.raw(statement).execute(db);
  await sql
    .raw(
      `INSERT INTO session_seats_held (session_id, held)
       SELECT i.session_id, sum(i.seats_held) FROM booking_items i JOIN bookings b ON b.order_number = i.order_number
       WHERE i.session_id IS NOT NULL AND b.status IN ${LIVE} GROUP BY i.session_id`,
    )
    .execute(db);
}

/** The hub: the table only (see above). */
export async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql.raw(TABLE).execute(db);
}
