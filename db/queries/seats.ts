import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';
import { LIVE_STATUSES } from '../../main/contract/enums';
import { isPostgres } from '../dialect';
import { fixedQuery } from './compiled';

/**
 * Seats are never stored as a synced number: seatsAvailable = seats − Σ seats_held of the session's
 * items whose booking is live. On SQLite that sum is kept per session in session_seats_held by
 * triggers on the rows it is made from, in the writing statement's own transaction (migration
 * 20261130_03 says how), so reading it costs one key lookup however many bookings the session has.
 * The PostgreSQL hub sums the rows themselves.
 */
export async function seatsHeldBySession(db: Kysely<Database>, sessionIds: number[]): Promise<Map<number, number>> {
  const held = new Map<number, number>();
  if (sessionIds.length === 0) return held;
  if (!isPostgres(db)) {
    if (sessionIds.length === 1) {
      const [row] = await heldOfSession(db, sessionIds[0]);
      if (row) held.set(sessionIds[0], row.held);
      return held;
    }
    for (let i = 0; i < sessionIds.length; i += 500) {
      const rows = await db.selectFrom('session_seats_held').select(['session_id', 'held']).where('session_id', 'in', sessionIds.slice(i, i + 500)).execute();
      for (const row of rows) held.set(row.session_id, row.held);
    }
    return held;
  }
  // Chunked to stay under the bound-parameter limit on large ranges.
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

const heldOfSession = fixedQuery((db, sessionId: number) => db.selectFrom('session_seats_held').select('held').where('session_id', '=', sessionId));

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
