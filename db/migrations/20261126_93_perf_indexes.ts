import { sql, type Kysely } from 'kysely';

/**
 * Reads that grew with a session's traffic:
 * - every scan asks whether its session's check-in is closed (its CLOSE, REOPEN and UNDO events);
 *   with only session_id indexed that read every SCAN event of the session, so each scan cost more
 *   than the one before. (session_id, kind) reads just those events; the manifest skips SCAN rows
 *   in the index, and its fingerprint (count and latest recorded_at) reads the index alone. It
 *   starts with session_id, so it replaces the plain session_id index.
 * - every booking and availability answer sums the seats held on a session's items of live
 *   bookings; with order number and seats in the index the sum reads the index, not the item rows.
 *   It starts with session_id, so it replaces the plain session_id index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('CREATE INDEX checkin_events_session_kind ON checkin_events(session_id, kind, recorded_at)').execute(db);
  await sql.raw('DROP INDEX checkin_events_session').execute(db);
  await sql.raw('CREATE INDEX booking_items_session_seats ON booking_items(session_id, order_number, seats_held)').execute(db);
  await sql.raw('DROP INDEX booking_items_session').execute(db);
}
