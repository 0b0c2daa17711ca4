import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';
import { LIVE_STATUSES } from '../../main/contract/enums';

/**
 * How many seats of a session's live bookings are collected from a pickup point (the day board's
 * pickup count): seats, as availability counts them, since one participant row may stand for a
 * whole Family 2+2 ticket.
 */
export async function pickupSeatCount(db: Kysely<Database>, sessionId: number): Promise<number> {
  const row = await db
    .selectFrom('booking_items')
    .innerJoin('bookings', 'bookings.order_number', 'booking_items.order_number')
    .select(sql<number>`coalesce(sum(booking_items.seats_held), 0)`.as('n'))
    .where('booking_items.session_id', '=', sessionId)
    .where('bookings.status', 'in', [...LIVE_STATUSES])
    .where('booking_items.pickup_json', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
