import { sql, type Kysely } from 'kysely';

/**
 * Every booking and availability answer sums the seats held on a session's items of live
 * bookings: booking_items_session_seats gives the items' order numbers and seats from the index,
 * and each one's status was then read from the bookings row (the primary key's index, then the
 * table). With (order_number, status) indexed the status comes from that index alone: one lookup
 * per item instead of two. PostgreSQL gets the same index (the DDL translates as is).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('CREATE INDEX bookings_order_status ON bookings(order_number, status)').execute(db);
}
