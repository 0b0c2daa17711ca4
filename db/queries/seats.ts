import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';
import { LIVE_STATUSES } from '../../main/contract/enums';

/**
 * Seats are never stored as a running counter: seatsAvailable = seats − Σ seats_held of the
 * session's items whose booking is live. Every booking write changes seats_held or the status in
 * its own transaction, so the derived number cannot drift.
 */
export async function seatsHeldBySession(db: Kysely<Database>, sessionIds: number[]): Promise<Map<number, number>> {
  const held = new Map<number, number>();
  if (sessionIds.length === 0) return held;
  // Chunked to stay under SQLite's bound-parameter limit on large ranges.
  for (let i = 0; i < sessionIds.length; i += 500) {
    const rows = await db
      .selectFrom('booking_items')
      .innerJoin('bookings', 'bookings.order_number', 'booking_items.order_number')
      .select(['booking_items.session_id', sql<number>`sum(booking_items.seats_held)`.as('held')])
      .where('booking_items.session_id', 'in', sessionIds.slice(i, i + 500))
      .where('bookings.status', 'in', [...LIVE_STATUSES])
      .groupBy('booking_items.session_id')
      .execute();
    for (const row of rows) held.set(row.session_id!, Number(row.held));
  }
  return held;
}

/** How many live bookings a session has (a charter session takes one). */
export async function liveBookingCount(db: Kysely<Database>, sessionId: number): Promise<number> {
  const row = await db
    .selectFrom('booking_items')
    .innerJoin('bookings', 'bookings.order_number', 'booking_items.order_number')
    .select((eb) => eb.fn.count<number>('bookings.order_number').distinct().as('n'))
    .where('booking_items.session_id', '=', sessionId)
    .where('bookings.status', 'in', [...LIVE_STATUSES])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
